"""T9 wins, T10 draws, T15's order of ends."""

from __future__ import annotations

import itertools

from play.games.tafl import Position, Rules

from .helpers import play, setup


def test_tafl_king_on_the_edge_wins_only_by_a_move_along_it():  # T9
    pos = setup("t: g7 g1, K: c4, T: e7", to_move="defenders")
    play(pos, "Kc4-a4")  # onto the edge: not yet
    assert pos.result is None
    play(pos, "g1-g2")
    play(pos, "Ka4-a2")  # along it
    assert pos.result == (1, "escape")
    off = setup("t: g7 g1, K: a4, T: e7", to_move="defenders")
    play(off, "Ka4-c4")  # leaving the edge is no escape
    assert off.result is None


def test_tablut_king_wins_on_reaching_the_edge():  # T9
    pos = setup("t: a9 i9, K: c3, T: g7", n=9, game="tablut", to_move="defenders")
    play(pos, "Kc3-c1")
    assert pos.result == (1, "escape")


def _shuffle(pos: Position, rounds: int) -> None:
    for _ in range(rounds):
        for move in ("a1-a2", "Kd4-d5", "a2-a1", "Kd5-d4"):
            if pos.result is None:
                play(pos, move)


def test_threefold_repetition_counts_the_opening():  # T10, T15
    pos = setup("t: a1, K: d4, T: g7")
    _shuffle(pos, 1)
    assert pos.result is None and pos.counts[pos.hash] == 2
    play(pos, "a1-a2")
    play(pos, "Kd4-d5")
    play(pos, "a2-a1")
    assert pos.result is None
    play(pos, "Kd5-d4")  # the opening position, attackers to move, for the third time
    assert pos.result == (None, "repetition")


def _snake(n: int, rank: int, count: int) -> list[str]:
    """``count`` one-square moves snaking over ranks ``rank`` to ``rank + 2`` from the a
    file (never back to a square: no position repeats)."""
    files = "abcdefghijklmnopqrs"[:n]
    path = []
    for i in range(3):
        path += [f"{f}{rank + i}" for f in (files if i % 2 == 0 else reversed(files))]
    return [f"{a}-{b}" for a, b in itertools.pairwise(path)][:count]


def test_a_hundred_moves_without_capture_draw():  # T10
    pos = setup("t: a2, T: a15, K: j10", n=19)
    attackers, defenders = _snake(19, 2, 50), _snake(19, 15, 50)
    for i in range(50):
        play(pos, attackers[i])
        if i < 49:
            play(pos, defenders[i])
    assert pos.result is None and pos.no_capture == 99
    play(pos, defenders[49])
    assert pos.result == (None, "no_capture")


def test_a_win_on_the_hundredth_move_is_a_win():  # T15: a win before no_capture
    pos = setup("t: a3, T: a15, K: j1", n=19)
    attackers, defenders = _snake(19, 3, 50), _snake(19, 15, 49)
    for i in range(50):
        play(pos, attackers[i])
        if i < 49:
            play(pos, defenders[i])
    assert pos.no_capture == 99
    play(pos, "Kj1-k1")
    assert pos.result == (1, "escape")


def test_a_capture_ends_the_run():  # T10, T15
    pos = setup("t: c1 c5 g7, T: c4 a7, K: f6")
    play(pos, "g7-g6")
    play(pos, "a7-a6")
    assert pos.no_capture == 2
    play(pos, "c1-c3")
    assert pos.no_capture == 0


def test_no_moves_loses_before_repetition():  # T4, T15
    pos = setup("t: a2 b1 i9 c5, K: a1", n=9, game="tablut", to_move="attackers")
    play(pos, "c5-c6")
    assert pos.result == (0, "no_moves")


def test_push_and_pop_restore_everything():
    import random
    rng = random.Random(7)
    for game, n in (("tafl", 7), ("tafl", 11), ("tablut", 9)):
        pos = Position(Rules(game, n))
        seen = []
        while pos.result is None and pos.plies < 150:
            seen.append((bytes(pos.board), pos.hash, pos.to_move, dict(pos.counts),
                         pos.no_capture, len(pos.history), [set(s) for s in pos.pieces]))
            pos.push(rng.choice(pos.legal_moves()))
            while pos.pending:
                pos.push_removal(rng.choice(pos.removal_choices()))
        while pos._undo:
            pos.pop()
        first = seen[0]
        assert (bytes(pos.board), pos.hash, pos.to_move, dict(pos.counts), pos.no_capture,
                len(pos.history), [set(s) for s in pos.pieces]) == first
        assert pos.result is None and pos.plies == 0
