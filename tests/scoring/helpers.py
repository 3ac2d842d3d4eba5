"""Builders for hand-made tallies and cascade records used across the scoring tests."""

from __future__ import annotations

from collections.abc import Mapping

from registry.scoring.cascade import PlayerState, RatedGame
from registry.scoring.categories import CategoryCounts, S3Points
from registry.scoring.figures import GameFigures, figures_from_counts
from registry.scoring.tally import Tally, empty_codes


def make_tally(
    i: Mapping[str, int] | None = None,
    o: Mapping[str, int] | None = None,
    *,
    captures: tuple[int, int] = (0, 0),
    rounds: int = 30,
    winner: str | None = "I",
    reason: str | None = "invasion",
) -> Tally:
    """A tally with the given non-zero codes; F.a and ``rounds`` set to ``rounds`` (R18)."""
    codes = {"I": empty_codes(), "O": empty_codes()}
    for side, given in (("I", i or {}), ("O", o or {})):
        for code, value in given.items():
            if code not in codes[side]:
                raise KeyError(code)
            codes[side][code] = value
        codes[side]["F.a"] = rounds
    if winner is None and reason == "invasion":
        reason = "null"
    return Tally(
        codes=codes,
        captures={"I": captures[0], "O": captures[1]},
        rounds=rounds,
        winner=winner,
        reason=reason,
    )


def s1_figures(
    winner: str | None, i_captures: int, o_captures: int, *, rounds: int = 30
) -> GameFigures:
    """A game whose only scoring is captures (S1: 4 points each, +4 for the win)."""
    counts = {"I": CategoryCounts(capture=i_captures), "O": CategoryCounts(capture=o_captures)}
    points = {"I": S3Points(capture=2 * i_captures), "O": S3Points(capture=2 * o_captures)}
    reason = "elimination" if winner else "null"
    return figures_from_counts(winner, reason, rounds, counts, points)


def win_for(side: str, points: int) -> GameFigures:
    """A game ``side`` wins with exactly ``points`` S1 points (an even number >= 4)."""
    assert points >= 4 and points % 2 == 0
    captures, rest = divmod(points - 4, 4)
    counts = {side: CategoryCounts(capture=captures, intrusion=rest // 2)}
    loser = "O" if side == "I" else "I"
    counts[loser] = CategoryCounts()
    pts = {s: S3Points(capture=2 * c.capture, intrusion=c.intrusion) for s, c in counts.items()}
    return figures_from_counts(side, "invasion", 30, counts, pts)


def record(game_id: str, i: str, o: str, figures: GameFigures, model: str | None = None):
    return RatedGame(game_id, i, o, figures, model)


def seeded(player_id: str, **fields) -> PlayerState:
    return PlayerState(player_id, **fields)
