"""The lobby's websocket (``/ws/lobby/``, issue 23): a change anywhere (a challenge opened, a
player joining a pool) reaches every lobby socket as ``changed``; a pool's pairing reaches both
players' sockets as ``paired`` with their game, and a player still waiting hears each wave."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from play.lobby import pool
from play.models import Game
from play.worker.loop import Worker
from tests.site.wsutil import TIMEOUT, application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

BLITZ = "fischer 180+2"


async def lobby_socket(cookie: bytes = b""):
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if cookie:
        headers.append((b"cookie", cookie))
    comm = WebsocketCommunicator(application(), "/ws/lobby/", headers=headers)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    assert (await comm.receive_json_from(timeout=TIMEOUT))["type"] == "welcome"
    return comm


def _post_as(user, url: str, data: dict) -> int:
    c = Client()
    c.force_login(user)
    return c.post(url, data, HTTP_ACCEPT="application/json").status_code


@pytest.fixture
def _waves_now(settings):
    settings.TALU_POOL_WAVE = 0


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
        players, cookies, _waves_now):
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
