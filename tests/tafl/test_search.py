"""The tafl computer (issue 42): it takes a win at hand and stops one, never plays an illegal
move or removal, keeps to its budgets, repeats itself with a seed, plays through the site's
computer contract, and level 8 beats level 1 (the full ladder: benchmarks/bench_tafl_search.py,
BENCHMARKS.md; here a reduced one that keeps the suite fast)."""

from __future__ import annotations

import pickle
import random
import time

import pytest

from play.games.protocol import GameOptions
from play.games.protocol.parts import ComputerPlayer
from play.games.tafl import ATTACKERS, DEFENDERS, Position, Rules, TaflGame
from play.games.tafl.computer import COMPUTER, COMPUTERS, TABLUT_COMPUTER, TAFL_COMPUTER
from play.games.tafl.protocol import TaflRules, TaflState
from play.games.tafl.search import LEVELS, choose_move, clock_seconds, get_level
from play.games.tafl.search.engine import best_removals
from play.games.tafl.search.selfplay import play

from .helpers import setup

ALL_LEVELS = range(1, 9)


def _after(pos: Position, level: int, seed: int = 0) -> Position:
    """``pos`` after the computer's move at ``level``, played by the checked rules."""
    choice = choose_move(pos, level, seed=seed, seconds=0)
    assert choice.move is not None
    pos.play(choice.move >> 9, choice.move & 511)
    for sq in choice.removals:
        pos.remove(sq)
    return pos


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_every_level_takes_a_tablut_escape_at_hand(level: int) -> None:
    # T9 (Tablut): the king on c7 has a free line to c9; his other lines are blocked.
    pos = setup("t: a8 i2 g1, T: b7 d7 c6, K: c7", n=9, game="tablut", to_move="defenders")
    for seed in range(3):
        after = _after(pickle.loads(pickle.dumps(pos)), level, seed)
        assert after.result == (DEFENDERS, "escape")


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_every_level_takes_a_tafl_escape_along_the_edge(level: int) -> None:
    # T9 (tafl): the king stands on the edge at a3 with a2 empty beside him along it; a move
    # off the edge (a3-b3) would not escape.
    pos = setup("t: a4 d7 g4 g1, T: d5, K: a3", n=7, to_move="defenders")
    after = _after(pos, level, seed=level)
    assert after.result == (DEFENDERS, "escape")
    assert after.history[-1].to in (after.geo.square("a2"), after.geo.square("a1"))


@pytest.mark.parametrize("game,pieces,n", [
    ("tafl", "t: c4 e7 a1 g7, T: b6, K: d4", 7),  # e7-e4 captures him between c4 and e4 (T7)
    ("tablut", "t: b3 d6 i9 a9, T: g7, K: c3", 9),  # d6-d3: between b3 and d3 (T7)
])
@pytest.mark.parametrize("level", ALL_LEVELS)
def test_every_level_captures_the_king_at_hand(game: str, pieces: str, n: int,
                                               level: int) -> None:
    pos = setup(pieces, n=n, game=game, to_move="attackers")
    after = _after(pos, level, seed=level)
    assert after.result == (ATTACKERS, "king_captured")


@pytest.mark.parametrize("level", range(4, 9))
def test_the_search_blocks_the_king_s_one_way_out(level: int) -> None:
    """Tablut, the attackers to move: the king on c7 has one free line (to c9, T11's raichi);
    every level that never slips closes it (a8-c8), even where the deeper levels see the
    defenders win later all the same (their noise never picks a sooner loss)."""
    pos = setup("t: a8 i2 g1 a2, T: b7 d7 c6, K: c7", n=9, game="tablut",
                to_move="attackers")
    assert pos.raichi()
    for seed in range(3):
        after = _after(pickle.loads(pickle.dumps(pos)), level, seed)
        assert after.result is None and not after.raichi(), (level, seed)


def _random_position(rules: Rules, rng: random.Random) -> Position:
    while True:
        pos = Position(rules)
        for _ in range(rng.randint(0, 70)):
            if pos.result is not None:
                break
            pos.push(rng.choice(pos.legal_moves()))
            while pos.pending:
                pos.push_removal(rng.choice(pos.pending[0]))
        if pos.result is None:
            return pos


@pytest.mark.parametrize("rules", [Rules("tafl", 7), Rules("tafl", 9), Rules("tafl", 11),
                                   Rules("tafl", 13, immunity=True), Rules("tafl", 19),
                                   Rules("tablut", 9)], ids=str)
def test_the_computer_never_plays_an_illegal_move(rules: Rules) -> None:
    """Over many random positions and every level (small budgets), each move and removal is
    checked by the rules as a person's would be (``play``/``remove`` raise otherwise), and
    the position searched is left as it was."""
    rng = random.Random(str(rules))
    for n in range(40 if rules.n <= 11 else 12):
        pos = _random_position(rules, rng)
        before = (bytes(pos.board), pos.to_move, pos.hash, len(pos.history), dict(pos.counts))
        level = 1 + n % 8
        choice = choose_move(pos, level, seed=n, nodes=1_500, seconds=0)
        assert (bytes(pos.board), pos.to_move, pos.hash, len(pos.history),
                dict(pos.counts)) == before
        assert choice.move in pos.legal_moves() and choice.nodes <= 1_500
        pos.play(choice.move >> 9, choice.move & 511)
        for sq in choice.removals:
            pos.remove(sq)
        assert not pos.pending  # the turn is complete: every enclosed group had its removal


def test_t8_removals_are_chosen_as_part_of_the_move() -> None:
    """T8 (tafl): a3 closes the group a1/a2 in (no empty square next to either); the mover
    removes one of them in the same turn: the search's move carries its choice, the wire's
    steps say it, and a turn left half played gets only its removal."""
    pos = setup("t: b1 b2 a4 g7 g1, T: a1 a2 e5, K: d4", n=7, to_move="attackers")
    a4a3 = pos.geo.square("a4") << 9 | pos.geo.square("a3")
    work = pickle.loads(pickle.dumps(pos))
    work.push(a4a3)
    assert work.pending  # the choice is the mover's
    removed = best_removals(work)
    assert len(removed) == 1 and work.geo.name(removed[0]) in ("a1", "a2")
    assert not work.pending and work.to_move == DEFENDERS
    # the site's contract: a turn in progress is finished with its removal only
    game = TaflGame(Rules("tafl", 7))
    game.pos = pickle.loads(pickle.dumps(pos))
    game.pos.play(pos.geo.square("a4"), pos.geo.square("a3"))
    state = TaflState(game)
    out = COMPUTER.think(state, 8, seed=0, seconds=0)
    assert [list(s) for s in out["steps"]] == [["remove"]]
    rules = TaflRules("tafl")
    events = rules.decide_move(state, "attackers", out["steps"][0])
    for event in events:
        rules.evolve(state, event)
    assert not state.game.pos.pending and state.game.pos.to_move == DEFENDERS


@pytest.mark.parametrize("level", [4, 6, 8])
def test_a_move_that_encloses_a_group_comes_with_its_removal(level: int) -> None:
    """T8: the search's best move a4-a3 closes a1/a2 in; the computer's turn is the move then
    the removal of one of them (the wire's two steps), which the rules take as one turn."""
    rules = TaflRules("tafl")
    game = TaflGame(Rules("tafl", 7))
    game.pos = setup("t: b1 b2 a4 g7, T: a1 a2, K: d4", n=7, to_move="attackers")
    state = TaflState(game)
    out = COMPUTER.think(state, level, seed=0, seconds=0)
    assert out["steps"][0] == {"move": "a4-a3"}
    assert out["steps"][1:] in ([{"remove": "a1"}], [{"remove": "a2"}])
    for step in out["steps"]:
        for event in rules.decide_move(state, "attackers", step):
            rules.evolve(state, event)
    assert state.game.records[-1] in ("a4-a3xa1", "a4-a3xa2")
    assert state.game.pos.to_move == DEFENDERS


def test_levels_keep_to_their_node_budgets_and_rise() -> None:
    pos = _random_position(Rules("tafl", 11), random.Random(5))
    spent = []
    for level in LEVELS.values():
        choice = choose_move(pos, level, seed=1, nodes=min(level.nodes, 6_000), seconds=0)
        assert choice.nodes <= min(level.nodes, 6_000)
        spent.append(level.nodes)
    assert spent == sorted(spent)
    assert [LEVELS[n].depth for n in ALL_LEVELS] == sorted(LEVELS[n].depth for n in ALL_LEVELS)
    assert LEVELS[8].slip == 0 and LEVELS[8].noise == 0 and LEVELS[1].slip > 0


def test_a_seed_repeats_a_search_and_level_1_varies() -> None:
    pos = Position(Rules("tafl", 9))
    first = [choose_move(pos, 1, seed=s, seconds=0).move for s in range(10)]
    again = [choose_move(pos, 1, seed=s, seconds=0).move for s in range(10)]
    assert first == again and len(set(first)) > 3
    top = {choose_move(pos, 8, seed=s, nodes=5_000, seconds=0).move for s in range(3)}
    assert len(top) == 1  # level 8 has no randomness


def test_unknown_levels_are_refused_in_words() -> None:
    for bad in (0, 9, "x", None):
        with pytest.raises(ValueError, match="from 1 to 8"):
            get_level(bad)
    pos = setup("t: b3 d6, T: g7, K: c3", n=9, game="tablut")
    pos.play(pos.geo.square("d6"), pos.geo.square("d3"))  # the king is captured
    with pytest.raises(ValueError, match="over"):
        choose_move(pos, 4)


@pytest.mark.parametrize("computer,variant", [(TAFL_COMPUTER, "11x11"),
                                              (TABLUT_COMPUTER, "9x9")])
def test_the_site_s_computer_contract(computer: ComputerPlayer, variant: str) -> None:
    """``ComputerPlayer`` (play.games.protocol.parts): the engine pickles, a replay of the
    stored events gives the same turn as the engine's snapshot, and the steps are the wire's
    (``decide_move`` takes them)."""
    key = "tablut" if computer is TABLUT_COMPUTER else "tafl"
    rules = TaflRules(key)
    state = rules.new_engine(rules.variants[variant], GameOptions())
    events: list[tuple[str, dict[str, object]]] = []
    for n in range(6):
        out = computer.think(pickle.loads(pickle.dumps(state)), 2, seed=n, seconds=0)
        assert out["side"] == ("defenders" if (key == "tablut") == (n % 2 == 0)
                               else "attackers")
        for step in out["steps"]:
            for event in rules.decide_move(state, out["side"], step):
                rules.evolve(state, event)
                events.append((event.kind, dict(event.data)))
    replayed = computer.replay(variant, events)
    assert replayed.game.records == state.game.records
    a = computer.think(replayed, 6, seed=1, nodes=3_000, seconds=0)
    b = computer.think(pickle.loads(pickle.dumps(state)), 6, seed=1, nodes=3_000, seconds=0)
    assert a["steps"] == b["steps"] and a["nodes"] <= 3_000
    assert computer.levels == tuple(range(1, 9)) and computer.seconds(8) <= 5
    assert COMPUTERS[key] is computer


def test_on_a_clock_the_computer_thinks_a_share_of_the_time_left() -> None:
    state = TaflRules("tafl").new_engine(TaflRules("tafl").variants["11x11"], GameOptions())
    deadline = int(time.time() * 1000) + 3000
    out = TAFL_COMPUTER.think(state, 8, deadline=deadline, reserve=1.0)
    assert out["steps"] and out["cpu"] <= clock_seconds(get_level(8), 3, 0, 1.0) + 0.3
    assert out["wall"] <= (3 - 1.0) / 3 and out["nodes"] < get_level(8).nodes


def test_a_finished_game_has_no_turn() -> None:
    state = TaflRules("tablut").new_engine(TaflRules("tablut").variants["9x9"], GameOptions())
    state.over = True  # a resignation
    out = TABLUT_COMPUTER.think(state, 8)
    assert out["steps"] == [] and out["side"] is None


@pytest.mark.parametrize("rules", [Rules("tafl", 7), Rules("tablut", 9)], ids=str)
def test_level_8_beats_level_1_reduced_ladder(rules: Rules) -> None:
    """The ladder kept fast: level 8 on 2,000 nodes a move (a seventy-fifth of its budget)
    against level 1, 8 games, sides alternated. The full ladder (40 games a board at full
    budgets) is ``benchmarks/bench_tafl_search.py ladder`` (BENCHMARKS.md)."""
    won = 0
    for n in range(8):
        attackers, defenders = (8, 1) if n % 2 == 0 else (1, 8)
        g = play(rules, attackers, defenders, seed=n, nodes={8: 2_000})
        won += g.winner == (ATTACKERS if attackers == 8 else DEFENDERS)
    assert won == 8
