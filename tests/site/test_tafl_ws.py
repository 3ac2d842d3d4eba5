"""The tafl games over the websocket protocol (issue 42): a whole Tablut game and a tafl 11x11
game with an immobilisation (T8: the capturer's choice of the piece to remove, a second step
of the same turn), each played by two simulated clients while a spectator watches. Every step
is acknowledged, all three see the same events in the same order, the spectator's last view
is the finished position with its result, and the game's row, seats and record agree."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from play.lifecycle import start_table
from play.models import Game, Seat
from play.worker.loop import run_due
from tests.site.wsutil import connect, receive
from tests.tafl.games import Steps, finished_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def _events_until(comm, version: int, skipped: list) -> tuple[list, dict]:
    """The events ``comm`` is sent up to ``version`` (no gap, no repeat) and its last view."""
    seen, last, view = [], 0, {}
    while last < version:
        msg = skipped.pop(0) if skipped else await receive(comm, "update")
        if msg["type"] != "update":
            continue
        if msg.get("from_version", last) != last:
            continue  # a full state after a reconnect would say so; none here
        seen += [(e["version"], e.get("text")) for e in msg.get("events", [])]
        last = msg["version"]
        view = msg.get("state") or view
    return seen, view


async def _play(variant: str, steps: Steps, make_user, cookies) -> tuple[Game, dict]:
    ana, ben, cyd = await database_sync_to_async(
        lambda: [make_user(n) for n in ("ana", "ben", "cyd")])()
    game = await database_sync_to_async(start_table)(variant, [ana, ben], rated=True)
    first = await database_sync_to_async(
        lambda: list(game.seats.order_by("order").values_list("seat", flat=True)))()
    users = dict(zip(first, (ana, ben), strict=True))
    socks = {}
    for seat, user in users.items():
        socks[seat], welcome, _ = await connect(game, await database_sync_to_async(cookies)(user))
        assert welcome["side"] == seat
    watcher, welcome, _ = await connect(game, await database_sync_to_async(cookies)(cyd))
    assert welcome["role"] == "spectator"
    skipped: dict = {c: [] for c in (*socks.values(), watcher)}
    version = 0
    for n, (seat, step) in enumerate(steps):
        sender = socks[seat]
        await sender.send_json_to({"type": "step", "version": version, "seq": f"s{n}",
                                   "step": step})
        reply = await receive(sender, "ack", "rejected", skipped=skipped[sender])
        assert reply["type"] == "ack", (n, step, reply)
        version = reply["version"]
    logs = []
    for comm in (*socks.values(), watcher):
        events, view = await _events_until(comm, version, skipped[comm])
        logs.append(events)
        if comm is watcher:
            final = view
    assert logs[0] == logs[1] == logs[2] and len(logs[0]) == version
    for comm in (*socks.values(), watcher):
        await comm.disconnect()
    game = await Game.objects.aget(pk=game.pk)
    return game, final


async def test_a_whole_tablut_game_over_the_websocket(make_user, cookies):
    steps, rules_game = finished_game("tablut", 9)
    game, final = await _play("tablut/9x9", steps, make_user, cookies)
    winner = rules_game.side_name(rules_game.result[0])
    assert game.status == Game.FINISHED and game.winner == winner
    assert final["result"]["winner"] == winner and final["to_move"] is None
    assert final["moves"] == rules_game.records  # the OTN records, as the rules wrote them
    assert final["outcome"]["finished"] and final["outcome"]["winner"] == winner
    ranks = await database_sync_to_async(
        lambda: dict(Seat.objects.filter(game=game).values_list("seat", "rank")))()
    assert ranks[winner] == 1 and sorted(ranks.values()) == [1, 2]


async def test_a_tafl_11x11_game_with_an_immobilisation_over_the_websocket(make_user, cookies):
    steps, rules_game = finished_game("tafl", 11, removal=True)
    assert any("remove" in s for _, s in steps)  # T8: a removal chosen as its own step
    game, final = await _play("tafl/11x11", steps, make_user, cookies)
    assert game.status == Game.FINISHED
    assert final["moves"] == rules_game.records
    await database_sync_to_async(run_due)()  # the worker archives it: the signed record
    from registry.models import SignedGameRecord
    record = await SignedGameRecord.objects.filter(game=game).afirst()
    assert record is not None
