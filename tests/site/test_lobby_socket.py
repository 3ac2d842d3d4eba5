"""The lobby's websocket (``/ws/lobby/``, issue 23): a change anywhere (a challenge opened, a
player joining a pool) reaches every lobby socket as ``changed``; a pool's pairing reaches both
players' sockets as ``paired`` with their game, and a player still waiting hears each wave.
Changes are coalesced (issue 41): a storm of joins and leaves makes about one ``changed`` a
second, and the last change still reaches every page within about a second."""

from __future__ import annotations

import asyncio
import time

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from play.live import lobby as lobby_live
from play.lobby import pool
from play.models import Game
from play.worker.loop import Worker
from tests.site.wsutil import TIMEOUT, lobby_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

BLITZ = "fischer 180+2"


def _post_as(user, url: str, data: dict) -> int:
    c = Client()
    c.force_login(user)
    return c.post(url, data, HTTP_ACCEPT="application/json").status_code


@pytest.fixture
def _waves_now(settings):
    settings.TALU_POOL_WAVE = 0


@pytest.fixture
def _every_change_at_once(monkeypatch):
    """Each change its own ``changed`` (the coalescing is tested on its own below)."""
    monkeypatch.setattr(lobby_live.changes, "interval", 0)
    lobby_live.changes.reset()
    yield
    lobby_live.changes.reset()


@pytest.fixture
def _coalesced():
    """The lobby's coalescing as the server runs it, from a fresh start."""
    lobby_live.changes.reset()
    yield
    lobby_live.changes.reset()


async def test_a_challenge_opened_reaches_every_lobby_socket(players, cookies):
    alice, bob, _ = players
    watcher = await lobby_socket()  # not logged in: the lobby's public part
    bobs = await lobby_socket(await database_sync_to_async(cookies)(bob))
    status = await database_sync_to_async(_post_as)(
        alice, reverse("challenge_new"),
        {"variant": "standard", "rated": "1", "time": "fischer 600+5", "side": "random"})
    assert status == 302
    for comm in (watcher, bobs):
        assert await comm.receive_json_from(timeout=TIMEOUT) == {"type": "changed"}
    await bobs.send_to(text_data="hello")
    assert (await bobs.receive_json_from(timeout=TIMEOUT))["code"] == "bad_message"
    for comm in (watcher, bobs):
        await comm.disconnect()


async def test_pairing_is_sent_to_both_players_and_a_wave_to_those_waiting(
        players, cookies, _waves_now, _every_change_at_once):
    alice, bob, carol = players
    sockets = {u.username: await lobby_socket(await database_sync_to_async(cookies)(u))
               for u in (alice, bob, carol)}
    for user in (alice, bob, carol):
        assert await database_sync_to_async(_post_as)(
            user, reverse("pool_join"), {"variant": "standard", "pool": f"{BLITZ}|1"}) == 200
    for comm in sockets.values():  # three joins: three changes for everyone
        for _ in range(3):
            assert await comm.receive_json_from(timeout=TIMEOUT) == {"type": "changed"}
    await Worker("test-worker").pool_round()
    game = await database_sync_to_async(Game.objects.get)()
    pair = {game.player_i_id, game.player_o_id}
    for user in (alice, bob, carol):
        got = []
        for _ in range(2):
            got.append(await sockets[user.username].receive_json_from(timeout=TIMEOUT))
        if user.pk in pair:
            assert {"type": "paired", "game": str(game.uuid),
                    "url": reverse("game", args=[game.uuid])} in got
        else:  # the one left waiting hears the wave (their range widened) and the new game
            assert got == [{"type": "changed"}, {"type": "changed"}]
            state = await database_sync_to_async(pool.state)(user)
            assert state["status"] == "waiting" and state["waves"] == 1
    for comm in sockets.values():
        await comm.disconnect()


JSON = {"HTTP_ACCEPT": "application/json"}
CYCLES = 15  # joins and leaves of one account, as fast as the server answers


async def test_a_storm_of_joins_and_leaves_makes_about_one_change_a_second(
        players, cookies, _coalesced):
    """Issue 41, finding 7: one account's join/leave loop made 61 broadcasts in 20 s, each
    answered by every lobby page with a fetch. Coalesced: at most about one ``changed`` a
    second reaches a page, the first at once, and the page's fetch after the last one shows
    the storm's final state (a pool that was empty during the whole storm)."""
    alice, bob, _ = players
    watcher = await lobby_socket()
    bobs = await lobby_socket(await database_sync_to_async(cookies)(bob))
    heard: dict[str, list[float]] = {"watcher": [], "bob": []}

    async def listen(name, comm):
        while True:
            assert await comm.receive_json_from(timeout=60) == {"type": "changed"}
            heard[name].append(time.monotonic())

    listeners = [asyncio.create_task(listen("watcher", watcher)),
                 asyncio.create_task(listen("bob", bobs))]

    def storm() -> tuple[list[int], float]:
        c = Client()
        c.force_login(alice)
        codes = []
        for _ in range(CYCLES):
            codes.append(c.post(reverse("pool_join"), {"variant": "standard",
                                                       "pool": f"{BLITZ}|1"}, **JSON).status_code)
            codes.append(c.post(reverse("pool_leave"), **JSON).status_code)
        last = time.monotonic()
        codes.append(c.post(reverse("pool_join"), {"variant": "dynamic",
                                                   "pool": "fischer 600+5|0"}, **JSON).status_code)
        return codes, last

    began = time.monotonic()
    codes, last = await database_sync_to_async(storm)()
    ended = time.monotonic()
    await asyncio.sleep(lobby_live.COALESCE + 1.0)  # the trailing change, and nothing after it
    for task in listeners:
        task.cancel()
    assert codes == [200] * (2 * CYCLES + 1)
    allowed = (ended - began) / lobby_live.COALESCE + 2  # the first at once, one a second, the last
    for name, times in heard.items():
        assert 1 <= len(times) <= allowed, (name, len(times), ended - began)
        assert times[-1] >= last, name  # the last change was told, after it was made ...
        assert times[-1] <= ended + lobby_live.COALESCE + 1.0, name  # ... within about a second
    state = await database_sync_to_async(lambda: Client().get(reverse("lobby_state")).json())()
    waiting = {(p["variant"], p["time_control"], p["rated"]): p["waiting"] for p in state["pools"]}
    assert waiting[("dynamic", "fischer 600+5", False)] == 1
    assert waiting[("standard", BLITZ, True)] == 0
    for comm in (watcher, bobs):
        await comm.disconnect()


async def test_a_deactivated_account_leaves_the_pool_and_every_lobby_hears_it(
        players, _coalesced):
    """Issue 41, finding 8: deactivating an account that waits takes it out at once, and the
    lobby's pages hear that the counts changed."""
    alice = players[0]
    await database_sync_to_async(pool.join)(alice, "standard", BLITZ)
    watcher = await lobby_socket()

    def deactivate():
        alice.is_active = False
        alice.save()

    await database_sync_to_async(deactivate)()
    assert await watcher.receive_json_from(timeout=TIMEOUT) == {"type": "changed"}
    assert await database_sync_to_async(pool.state)(alice) == {"status": "idle"}
    await watcher.disconnect()

