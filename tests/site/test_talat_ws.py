"""Talat over the websocket protocol (issue 37): a whole three-seat game played by three
simulated clients while a spectator watches. Every action is acknowledged (a seat with no
move or capture passes at once, A4, in the same batch: nobody sends a pass), all four see the
same events in the same order, the spectator's last view is the finished position with its
ranks and scores (A8), and the game's row, seats (ranks, scores) and signed record agree."""

from __future__ import annotations

import random

import pytest
from channels.db import database_sync_to_async

from play.games.talat import TalatGame
from play.games.talat.notation import write_action
from play.games.talat.position import PASS
from play.lifecycle import start_table
from play.models import Game, Seat
from play.worker.loop import run_due
from registry.models import SignedGameRecord
from tests.site.test_tafl_ws import _events_until
from tests.site.wsutil import connect, receive

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _actions(seed: int) -> tuple[list[tuple[str, str]], TalatGame]:
    """A finished three-seat game of random legal actions: the (seat, action) a person
    sends, passes left out (the server makes them), and the rules' own game."""
    rng, g, sent = random.Random(seed), TalatGame("three"), []
    while not g.finished:
        legal = g.pos.legal()
        if legal == [PASS]:
            g.play(PASS)
            continue
        action = rng.choice(legal)
        sent.append((g.to_move(), write_action(g.pos, action)))
        g.play(action)
    return sent, g


async def test_a_whole_three_seat_game_over_the_websocket(make_user, cookies):
    actions, rules_game = _actions(7)
    ana, ben, cyd, dan = await database_sync_to_async(
        lambda: [make_user(n) for n in ("ana", "ben", "cyd", "dan")])()
    game = await database_sync_to_async(start_table)("talat/three", [ana, ben, cyd], rated=True)
    socks = {}
    for seat, user in zip("123", (ana, ben, cyd), strict=True):
        socks[seat], welcome, _ = await connect(game, await database_sync_to_async(cookies)(user))
        assert welcome["side"] == seat
    watcher, welcome, _ = await connect(game, await database_sync_to_async(cookies)(dan))
    assert welcome["role"] == "spectator"
    skipped: dict = {c: [] for c in (*socks.values(), watcher)}
    version = 0
    for n, (seat, action) in enumerate(actions):
        sender = socks[seat]
        await sender.send_json_to({"type": "step", "version": version, "seq": f"s{n}",
                                   "step": {"action": action}})
        reply = await receive(sender, "ack", "rejected", skipped=skipped[sender])
        assert reply["type"] == "ack", (n, seat, action, reply)
        version = reply["version"]
    logs, final = [], {}
    for comm in (*socks.values(), watcher):
        events, view = await _events_until(comm, version, skipped[comm])
        logs.append(events)
        if comm is watcher:
            final = view
    assert logs[0] == logs[1] == logs[2] == logs[3] and len(logs[0]) == version
    for comm in (*socks.values(), watcher):
        await comm.disconnect()

    ranks, scores = rules_game.ranks(), rules_game.scores()
    assert final["phase"] == "finished" and final["to_move"] is None
    assert final["result"]["ranks"] == ranks and final["scores"] == scores
    assert final["moves"] == [f"{i}. {line}" for i, line in enumerate(rules_game.lines, 1)]
    assert len(final["frozen"]) >= 2 or rules_game.reason == "no_moves"
    game = await Game.objects.aget(pk=game.pk)
    assert game.status == Game.FINISHED and game.ranks == ranks
    seats = await database_sync_to_async(
        lambda: {s: (r, sc) for s, r, sc in
                 Seat.objects.filter(game=game).values_list("seat", "rank", "score")})()
    assert seats == {s: (ranks[s], scores[s]) for s in "123"}
    await database_sync_to_async(run_due)()  # the archive: its signed record
    assert await SignedGameRecord.objects.filter(game=game).acount() == 1

