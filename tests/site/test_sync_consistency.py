"""A sync answer is one consistent version: never an event or a state past the version it names.

Found by the load benchmark (BENCHMARKS.md): a step committed between ``sync``'s read of the
game and its read of the events went out in an update that claimed the older version; the
socket then accepted the step's own broadcast as new and the client saw that step twice.
"""

from __future__ import annotations

import pytest

from play import gameview
from play.commands import path
from play.commands.player import submit_as
from play.models import Game
from play.store import engines

pytestmark = pytest.mark.django_db

A2_A3 = {"kind": "move", "from": "A2", "to": "A3"}
A3_A4 = {"kind": "move", "from": "A3", "to": "A4"}
A4_A5 = {"kind": "move", "from": "A4", "to": "A5"}


def test_sync_ignores_a_step_committed_while_it_reads(game, players, monkeypatch):
    alice = players[0]
    assert submit_as(game.uuid, alice, "step", step=A2_A3, version=0, seq="a").ok
    real_events_since = gameview.events_since

    def commit_a_step_first(g, version, side=None):
        # Another socket's step lands between the game read and the events read.
        assert submit_as(game.uuid, alice, "step", step=A3_A4, version=1, seq="b").ok
        return real_events_since(g, version, side)

    monkeypatch.setattr(gameview, "events_since", commit_a_step_first)
    engines.forget()
    answer = gameview.sync(game.uuid, last_version=0)

    assert answer["version"] == 1
    assert [e["version"] for e in answer["events"]] == [1]
    # The state is that of version 1 too: one step of the turn used, not two.
    assert answer["state"]["steps_used"] == 1
    assert answer["state"]["open_turn"]["text"] == "A2-A3"
    assert Game.objects.get(pk=game.pk).version == 2


def test_an_engine_is_cached_at_the_version_it_was_built_for(game, players):
    alice = players[0]
    assert submit_as(game.uuid, alice, "step", step=A2_A3, version=0, seq="a").ok
    stale = Game.objects.get(pk=game.pk)  # read at version 1
    assert submit_as(game.uuid, alice, "step", step=A3_A4, version=1, seq="b").ok
    engines.forget()

    assert gameview.snapshot_for(stale)["steps_used"] == 1
    current = Game.objects.get(pk=game.pk)
    assert gameview.snapshot_for(current)["steps_used"] == 2


def test_a_step_costs_a_constant_handful_of_queries(game, players, monkeypatch,
                                                    django_assert_max_num_queries):
    """The write path of a step, on either road: the game row (the slow road only), the
    conditional version bump, the events (and the savepoint pair of the test's transaction),
    whatever the length of the game; the players block of a live game comes from the cache."""
    alice = players[0]
    assert submit_as(game.uuid, alice, "step", step=A2_A3, version=0, seq="a").ok
    with django_assert_max_num_queries(4):  # the fast road: no read
        assert submit_as(game.uuid, alice, "step", step=A3_A4, version=1, seq="b").ok
    monkeypatch.setattr(path, "hold", lambda sub, now=None: None)
    with django_assert_max_num_queries(5):  # the slow road: the row read first
        assert submit_as(game.uuid, alice, "step", step=A4_A5, version=2, seq="c").ok


def test_an_engine_behind_the_log_catches_up_with_what_it_lacks(game, players, monkeypatch):
    """Another process applied a step: this process's cached engine is one version behind.
    The next step here must see the game as the log has it, not as the cache last knew it."""
    import copy

    alice = players[0]
    assert submit_as(game.uuid, alice, "step", step=A2_A3, version=0, seq="a").ok
    behind = copy.deepcopy(engines._states[game.pk])  # this process's view at version 1
    assert submit_as(game.uuid, alice, "step", step=A3_A4, version=1, seq="b").ok
    row = engines.row_of(game.uuid)
    engines.forget()
    engines.put(row, behind)
    real_replay = engines.replay

    def no_full_replay(*args, **kwargs):
        raise AssertionError("a whole replay where one event was missing")

    monkeypatch.setattr(engines, "replay", no_full_replay)
    res = submit_as(game.uuid, alice, "step", step=A4_A5, version=2, seq="c")
    assert res.ok, res.reason
    assert res.state["open_turn"]["text"] == "A2-A3-A4-A5"
    fresh = real_replay(Game.objects.get(pk=game.pk))
    assert res.state == fresh.engine.snapshot()


def _four_steps(game, alice):
    """Four one-square steps: I's whole first turn, four events in the log; O to move."""
    for v, (a, b) in enumerate((("A2", "A3"), ("A3", "A4"), ("B2", "B3"), ("B3", "B4"))):
        res = submit_as(game.uuid, alice, "step", step={"kind": "move", "from": a,
                                                              "to": b}, version=v, seq=f"s{v}")
        assert res.ok, res.reason
    return Game.objects.get(pk=game.pk)


def test_a_replay_reads_the_log_in_one_query(game, players, django_assert_num_queries):
    """A replay (a restarted process, a game's last step, a first sync) reads the whole log
    at once: it once read it back one query per event, hundreds for a long game."""
    current = _four_steps(game, players[0])
    assert current.version >= 4
    with django_assert_num_queries(1):
        engine = engines.replay(current).engine
    assert len(engine.turns) == 1 and engine.side_to_move.value == "O"


def test_an_engine_catching_up_reads_what_it_lacks_in_one_query(game, players,
                                                                django_assert_num_queries):
    """Another process applied three steps: the engine held here gets them in one read."""
    current = _four_steps(game, players[0])
    behind = engines.replay(current, upto=1)  # this process's view at version 1
    engines.forget()
    engines.put(current, behind)
    with django_assert_num_queries(1):
        state = engines.take(current)
    assert state is behind and state.version == current.version
    assert len(state.engine.turns) == 1 and state.engine.side_to_move.value == "O"


def test_a_state_is_read_while_no_one_else_can_play_on_its_engine(game, players, monkeypatch):
    """The engine a state is read from is out of the shared cache meanwhile: the event loop
    (the one-statement path) or another pool thread could otherwise play a step on it in the
    middle of the read, and the notation of a turn would be kept half-written."""
    from play.games.talu import TaluGame as Engine

    alice = players[0]
    assert submit_as(game.uuid, alice, "step", step=A2_A3, version=0, seq="a").ok
    real_snapshot = Engine.snapshot
    shared = []

    def snapshot(engine):
        shared.append(any(s.engine is engine for s in engines._states.values()))
        return real_snapshot(engine)

    monkeypatch.setattr(Engine, "snapshot", snapshot)
    assert gameview.sync(game.uuid)["version"] == 1  # the cached engine
    engines.forget()
    assert gameview.sync(game.uuid)["version"] == 1  # a replayed one
    assert submit_as(game.uuid, alice, "step", step=A3_A4, version=1, seq="b").ok
    assert shared and not any(shared)
