"""A fuzzer of the quick-pairing pool (issue 41, beyond the findings: the probe's classes, pool
join/leave storms). Seeded storms of joins and leaves from several accounts through every door
(the lobby's buttons with and without its script, its beacon, the REST API), well formed and
not, with the pool's rate limits on, between the worker's waves, deactivations (saved, and by a
bulk update that sends no signal) and games adjourned or over. Checked throughout:

- every answer is a documented status, a refusal with words, never a server error;
- nobody is ever at two boards (two games of one sitting in play), and after each wave nobody
  deactivated or at the board is still waiting;
- no game starts with an account after it was deactivated;
- the lobby's socket heard about one ``changed`` a second however fast the storm, and the
  lobby's counts at the end are what the pool's rows say.

Seeded, bounded (a few hundred requests, well under a minute); runs again on PostgreSQL and
Redis (the services lane, ``tests/lanes.py``)."""

from __future__ import annotations

import asyncio
import json
import random
import time

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.db.models import Q
from django.test import Client
from django.urls import reverse

from play.live import lobby as lobby_live
from play.lobby import pool
from play.models import Game, PoolEntry
from play.worker.loop import Worker
from tests.site.wsutil import lobby_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

ACCOUNTS = 8
ACTIONS = 160
PRESETS = pool.POOL_TIME_CONTROLS[:1]  # one pool mostly: players meet, and waves pair them
JUNK = ["", "x", "fischer 1+0", "correspondence 3d", "untimed", "\x00", "9" * 80, "fischer",
        "standard|1|1", "\u202e", "fischer 180+2|2", "|", "fischer 180+2|"]
VARIANTS = ["standard"] * 6 + ["dynamic", "chess", "", "\x00", "x" * 300]
PAGE = {200, 400, 429}  # the lobby's script: JSON, ok or refused in words
API = {201, 204, 400, 401, 403, 409, 429}


@pytest.fixture
def _storm_limits(settings):
    """The pool's limits on, low enough for the storm to meet them."""
    settings.TALU_POOL_WAVE = 0
    settings.TALU_RATES = {**settings.TALU_RATES, "pool_join": "8/minute",
                           "pool_leave": "8/minute", "pool_join_address": "80/minute"}
    lobby_live.changes.reset()
    yield
    lobby_live.changes.reset()


def _pool_field(rng: random.Random) -> str:
    if rng.random() < 0.8:
        return f"{rng.choice(PRESETS)}|{rng.choice('01111')}"
    return rng.choice(JUNK)


def _api_body(rng: random.Random):
    roll = rng.random()
    if roll < 0.6:
        return {"variant": "standard",
                "time_control": rng.choice(PRESETS), "rated": rng.random() < 0.8}
    if roll < 0.8:
        return {"variant": rng.choice(VARIANTS), "time_control": rng.choice(JUNK),
                "rated": rng.choice([True, "maybe", None, 3]),
                "psf_only": rng.choice([True, False, "yes", []])}
    return rng.choice([[], "standard", 7, None, {"rated": {"a": 1}}])


def _at_the_board(user) -> list[Game]:
    return list(Game.objects.filter(pool.AT_THE_BOARD).filter(
        Q(player_i=user) | Q(player_o=user)))


class Storm:
    """One seeded storm: the accounts, their clients, what was answered and when accounts
    were deactivated (the games that existed then)."""

    def __init__(self, rng: random.Random, users: list, worker: Worker) -> None:
        self.rng = rng
        self.users = users
        self.worker = worker
        self.pages = {}
        self.apis = {}
        for user in users:
            for clients in (self.pages, self.apis):
                c = Client()
                c.force_login(user)
                clients[user.pk] = c
        self.deactivated: dict[int, set[int]] = {}  # account -> games that existed then
        self.answers: list[tuple[str, int]] = []
        self.waves = 0

    def answer(self, door: str, response, allowed: set[int]) -> None:
        code = response.status_code
        self.answers.append((door, code))
        assert code in allowed, (door, code, response.content[:300])
        if code >= 400 and response.get("Content-Type", "").startswith("application/json"):
            body = response.json()
            words = body.get("message") or body.get("detail") or body.get("errors")
            assert words, (door, code, body)

    def act(self) -> None:
        rng, user = self.rng, self.rng.choice(self.users)
        active = user.pk not in self.deactivated
        roll = rng.random()
        page, api = self.pages[user.pk], self.apis[user.pk]
        if roll < 0.35:
            data = {"variant": rng.choice(VARIANTS), "pool": _pool_field(rng)}
            if rng.random() < 0.2:
                data["psf_only"] = "1"
            if rng.random() < 0.15:  # no script: the lobby with the words (or the site's 400
                # page, for text no field takes: ``play.games.text``)
                self.answer("page join", page.post(reverse("pool_join"), data), {302, 400})
            else:
                self.answer("page join", page.post(reverse("pool_join"), data,
                                                   HTTP_ACCEPT="application/json"),
                            PAGE if active else PAGE | {302})
        elif roll < 0.48:
            kind = rng.random()
            if kind < 0.3:
                self.answer("beacon", page.post(reverse("pool_leave"), {"beacon": "1"}),
                            {204, 429} if active else {204, 302, 429})
            else:
                self.answer("page leave", page.post(reverse("pool_leave"),
                                                    HTTP_ACCEPT="application/json"),
                            PAGE if active else PAGE | {302})
        elif roll < 0.65:
            self.answer("api join", api.post(reverse("api:pool-me"),
                                             json.dumps(_api_body(rng)),
                                             content_type="application/json"), API)
        elif roll < 0.72:
            self.answer("api leave", api.delete(reverse("api:pool-me")), API)
        elif roll < 0.88:
            self.wave()
        else:  # a game adjourned (R38) or over: its players may join again
            live = list(Game.objects.filter(pool.AT_THE_BOARD))
            if live:
                game = rng.choice(live)
                ending = {"status": Game.FINISHED} if rng.random() < 0.7 else {}
                Game.objects.filter(pk=game.pk).update(to_move="", **ending)
        self.check_boards()

    def deactivate(self, saved: bool) -> None:
        """One account deactivated, one that waits if any: by a save (the admin's way: out of
        the pool at once) or by a bulk update (no signal: the next wave takes it out)."""
        active = [u for u in self.users if u.pk not in self.deactivated]
        waiting = set(PoolEntry.objects.filter(status=PoolEntry.WAITING).values_list(
            "user_id", flat=True))
        user = self.rng.choice([u for u in active if u.pk in waiting] or active)
        self.deactivated[user.pk] = set(Game.objects.values_list("pk", flat=True))
        if saved:
            user.is_active = False
            user.save()
            assert not PoolEntry.objects.filter(user=user, status=PoolEntry.WAITING).exists()
        else:
            type(user).objects.filter(pk=user.pk).update(is_active=False)

    def wave(self) -> None:
        async_to_sync(self.worker.pool_round)()
        self.waves += 1
        for entry in PoolEntry.objects.filter(status=PoolEntry.WAITING).select_related("user"):
            assert entry.user.is_active, f"{entry.user} deactivated, still waiting"
            assert not _at_the_board(entry.user), f"{entry.user} at the board, still waiting"

    def check_boards(self) -> None:
        for user in self.users:
            assert len(_at_the_board(user)) <= 1, f"{user} at two boards"
        for pk, before in self.deactivated.items():
            after = Game.objects.filter(Q(player_i_id=pk) | Q(player_o_id=pk)).exclude(
                pk__in=before)
            assert not after.exists(), f"account {pk} paired after it was deactivated"

    def run(self, actions: int) -> None:
        for n in range(actions):
            if n in (actions // 2, 2 * actions // 3):
                self.deactivate(saved=n == actions // 2)
            self.act()
        self.wave()


@pytest.mark.parametrize("seed", [41, 4141])
async def test_a_seeded_storm_of_joins_and_leaves_through_every_door(
        make_user, _storm_limits, no_error_logs, seed):
    users = await database_sync_to_async(
        lambda: [make_user(f"storm{seed}x{i}") for i in range(ACCOUNTS)])()
    watcher = await lobby_socket()
    heard: list[float] = []

    async def listen():
        while True:
            assert await watcher.receive_json_from(timeout=120) == {"type": "changed"}
            heard.append(time.monotonic())

    listener = asyncio.create_task(listen())
    storm = await database_sync_to_async(Storm)(random.Random(seed), users,
                                                Worker(f"fuzz-{seed}"))
    began = time.monotonic()
    await database_sync_to_async(storm.run)(ACTIONS)
    ended = time.monotonic()
    await asyncio.sleep(lobby_live.COALESCE + 1.0)  # the trailing change
    listener.cancel()
    codes = {code for _, code in storm.answers}
    assert 500 not in codes and storm.waves > 0
    assert {200, 429} <= codes, "the storm met neither an answer nor a limit: too gentle"
    assert 1 <= len(heard) <= (ended - began) / lobby_live.COALESCE + 2, (
        len(heard), ended - began, len(storm.answers))

    def counts():
        rows = {}
        for entry in PoolEntry.objects.filter(status=PoolEntry.WAITING).select_related("pool"):
            key = (entry.pool.variant, entry.pool.time_control, entry.pool.rated)
            rows[key] = rows.get(key, 0) + 1
        shown = {(p["variant"], p["time_control"], p["rated"]): p["waiting"]
                 for p in Client().get(reverse("lobby_state")).json()["pools"] if p["waiting"]}
        return rows, shown

    rows, shown = await database_sync_to_async(counts)()
    assert rows == shown
    await watcher.disconnect()
