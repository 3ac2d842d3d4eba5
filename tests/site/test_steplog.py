"""The command path's fast road stores exactly what its slow road does (``play.commands.path``).

A step of a game whose state this process holds at the client's version is decided without
reading the game and stored by the one append (``play.store.log``): on PostgreSQL one
statement; everything else (refusals, resent or stale messages, a game another process moved)
is answered by the slow road from the game's row. These tests run on SQLite and again on
PostgreSQL (the services lane, ``tests/lanes.py``).
"""

from __future__ import annotations

import copy

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from play.commands import path
from play.commands.player import submit_as
from play.lifecycle import start_game
from play.models import Game, GameEvent
from play.store import engines
from play.store import log as event_log

pytestmark = pytest.mark.django_db

A2_A3 = {"kind": "move", "from": "A2", "to": "A3"}
A3_A4 = {"kind": "move", "from": "A3", "to": "A4"}
A4_A5 = {"kind": "move", "from": "A4", "to": "A5"}


def _statements(ctx: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in ctx.captured_queries if "SAVEPOINT" not in q["sql"]]


def _log(game: Game) -> list[tuple]:
    return list(GameEvent.objects.filter(game=game).order_by("version")
                .values_list("version", "kind", "side", "data", "text", "seq"))


def test_a_step_of_a_held_game_is_one_statement_on_postgresql(game, players):
    alice = players[0]
    assert submit_as(game.uuid, alice, "step", step=A2_A3, version=0, seq="a").ok
    with CaptureQueriesContext(connection) as ctx:
        res = submit_as(game.uuid, alice, "step", step=A3_A4, version=1, seq="b")
    assert res.ok and res.version == 2
    if event_log.on_postgresql():
        assert len(_statements(ctx)) == 1, _statements(ctx)
    else:  # SQLite: the same append through the ORM (a bump, the events, in a transaction)
        assert not any("FROM \"play_game\"" in q and q.startswith("SELECT")
                       for q in _statements(ctx)), _statements(ctx)


def test_both_paths_store_the_same_log_and_notation(game, players, make_user, monkeypatch):
    alice, bob = players[0], players[1]
    turn = [("I", alice, A2_A3), ("I", alice, A3_A4), ("I", alice, "end"),
            ("O", bob, {"kind": "move", "from": "H7", "to": "H6"}), ("O", bob, "end")]

    def play(g: Game) -> Game:
        for n, (_, who, step) in enumerate(turn):
            if step == "end":
                res = submit_as(g.uuid, who, "end", version=n, seq=f"s{n}")
            else:
                res = submit_as(g.uuid, who, "step", step=step, version=n, seq=f"s{n}")
            assert res.ok, res.reason
        return Game.objects.get(pk=g.pk)

    fast = play(game)
    monkeypatch.setattr(path, "hold", lambda sub, now=None: None)  # the slow road only
    other = start_game(alice, bob, variant="standard", rated=False)
    locked = play(other)

    assert _log(fast) == _log(locked)
    assert fast.version == locked.version == len(turn)
    assert fast.stgn == locked.stgn != ""  # refreshed when a turn ended, on both paths
    assert not GameEvent.objects.filter(game=fast, created__isnull=True).exists()
    assert fast.stgn == engines.replay(fast).engine.stgn()


def test_a_game_moved_by_another_process_is_not_written_over(game, players):
    """This process still holds the game at version 1; another has stored version 2. A client
    as far behind as this process is told its step is stale: nothing is written."""
    alice = players[0]
    assert submit_as(game.uuid, alice, "step", step=A2_A3, version=0, seq="a").ok
    behind = copy.deepcopy(engines._states[game.pk])
    assert submit_as(game.uuid, alice, "step", step=A3_A4, version=1, seq="b").ok
    engines._states[game.pk] = behind  # this process's view: version 1

    res = submit_as(game.uuid, alice, "step", step=A3_A4, version=1, seq="c")
    assert not res.ok and res.code == "stale" and res.version == 2
    assert [v for v, *_ in _log(game)] == [1, 2]
    # And the next step, made against the real version, is applied on the caught-up game.
    res = submit_as(game.uuid, alice, "step", step=A4_A5, version=2, seq="d")
    assert res.ok, res.reason
    assert res.state["open_turn"]["text"] == "A2-A3-A4-A5"


def test_a_resent_step_is_acknowledged_not_applied_twice(game, players):
    alice = players[0]
    first = submit_as(game.uuid, alice, "step", step=A2_A3, version=0, seq="a")
    assert first.ok
    # The same message again, claiming the version its first copy produced (a confused client):
    # legal on the held engine, refused by the (game, side, seq) constraint, acknowledged.
    again = submit_as(game.uuid, alice, "step", step=A3_A4, version=1, seq="a")
    assert again.ok and again.code == "duplicate" and again.version == 1
    assert again.update() is None  # nothing to broadcast
    assert [v for v, *_ in _log(game)] == [1]
    # The held engine was not left one step ahead of the log.
    res = submit_as(game.uuid, alice, "step", step=A3_A4, version=1, seq="b")
    assert res.ok and res.state["open_turn"]["text"] == "A2-A3-A4"


def test_an_illegal_step_is_refused_with_its_reason_and_changes_nothing(game, players):
    alice, bob = players[0], players[1]
    assert submit_as(game.uuid, alice, "step", step=A2_A3, version=0, seq="a").ok
    res = submit_as(game.uuid, alice, "step", step={"kind": "move", "from": "A3",
                                                           "to": "C5"}, version=1, seq="b")
    assert not res.ok and res.code == "illegal" and "A3" in res.reason
    res = submit_as(game.uuid, bob, "step", step=A3_A4, version=1, seq="c")
    assert not res.ok and res.code == "not_your_turn"
    assert [v for v, *_ in _log(game)] == [1]
    res = submit_as(game.uuid, alice, "step", step=A3_A4, version=1, seq="d")
    assert res.ok and res.state["steps_used"] == 2


def test_a_broadcast_from_another_process_brings_the_held_engine_forward(game, players):
    """The opponent's step was applied by another process: its broadcast plays it on this
    process's engine, so the next step here is played on it, not replayed from the log."""
    alice = players[0]
    assert submit_as(game.uuid, alice, "step", step=A2_A3, version=0, seq="a").ok
    behind = copy.deepcopy(engines._states[game.pk])
    other = submit_as(game.uuid, alice, "step", step=A3_A4, version=1, seq="b")
    engines._states[game.pk] = behind  # as if "b" had been applied elsewhere
    assert engines.held_version(game.uuid) == 1

    engines.advance(game.uuid, 0, other.events)  # not where the engine is: ignored
    assert engines.held_version(game.uuid) == 1
    engines.advance(game.uuid, 1, other.events)
    assert engines.held_version(game.uuid) == 2

    with CaptureQueriesContext(connection) as ctx:
        res = submit_as(game.uuid, alice, "step", step=A4_A5, version=2, seq="c")
    assert res.ok and res.state["open_turn"]["text"] == "A2-A3-A4-A5"
    if event_log.on_postgresql():
        assert len(_statements(ctx)) == 1  # played on the advanced engine
    assert res.state == engines.replay(Game.objects.get(pk=game.pk)).engine.snapshot()


@pytest.mark.parametrize("bad", [None, "A2-A3", ["A2", "A3"], 7, {"kind": "move"},
                                 {"kind": "move", "from": 3, "to": None},
                                 {"kind": "teleport", "from": "A2", "to": "H8"},
                                 {"kind": "move", "from": "Z9", "to": "A3"}])
def test_a_malformed_step_is_refused_and_the_held_engine_survives(game, players, bad):
    alice = players[0]
    assert submit_as(game.uuid, alice, "step", step=A2_A3, version=0, seq="a").ok
    res = submit_as(game.uuid, alice, "step", step=bad, version=1, seq="b")
    assert not res.ok and res.code in ("bad_step", "illegal"), res
    assert res.reason
    assert [v for v, *_ in _log(game)] == [1]
    res = submit_as(game.uuid, alice, "step", step=A3_A4, version=1, seq="c")
    assert res.ok and res.state["open_turn"]["text"] == "A2-A3-A4"
