"""Per-game figures computed once, so re-rating a record never replays notation (R30).

Everything a model needs from a game that does not depend on ratings is fixed when the game
ends: S1 points, S2 Pc and S3 NPc are functions of the tally alone. Only S3's Ec reads the
ratings. Storing these figures with the game makes a cascade over 100,000 games a loop of a few
multiplications per game instead of 100,000 replays.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from registry.scoring.categories import (
    SIDES,
    CategoryCounts,
    S3Points,
    category_counts,
    other,
    rounds_of,
    s3_points,
    success_entries,
)
from registry.scoring.s1 import s1_points
from registry.scoring.s2 import performance_coefficient, s2_ratios
from registry.scoring.s3 import normalized_performance, npc_power, s3_ratios, success_values
from registry.scoring.tally import Tally


@dataclass(frozen=True, slots=True)
class SideFigures:
    """One side's rating-independent figures. ``pc``/``npc`` are None without a winner."""

    counts: CategoryCounts
    points: S3Points
    s1_points: int
    pc: Fraction | None
    pc_float: float | None
    npc: float | None


@dataclass(frozen=True, slots=True, eq=False)
class GameFigures:
    """The figures of both sides of one game, keyed "I" and "O"."""

    winner: str | None
    reason: str | None
    rounds: int
    success_k: int
    sides: dict[str, SideFigures]

    @property
    def rated(self) -> bool:
        """Only a game with a winner moves ratings (R12)."""
        return self.winner is not None

    def exact_power(self, side: str) -> tuple[Fraction, int]:
        """S3's exact NPc entry product for ``side`` (for tie-exact rounding, R24)."""
        own = self.sides[side].points
        opp = self.sides[other(side)].points
        success = success_values(self.winner == side, self.success_k)
        return npc_power(s3_ratios(own, opp, self.rounds), success)


def figures_from_counts(
    winner: str | None,
    reason: str | None,
    rounds: int,
    counts: Mapping[str, CategoryCounts],
    points: Mapping[str, S3Points],
    success_k: int = 1,
) -> GameFigures:
    """Build a game's figures from its category counts (R20) and S3 points (R23).

    The figures come from the same model functions as :mod:`registry.scoring.sx`, so a
    cascade and a direct score of the same tally cannot disagree.
    """
    if winner not in (None, "I", "O"):
        raise ValueError(f"winner must be 'I', 'O' or None, not {winner!r}")
    if success_k not in (1, 2, 3):
        raise ValueError(f"success entries k must be 1, 2 or 3 (R23), not {success_k}")
    sides: dict[str, SideFigures] = {}
    for side in SIDES:
        opp = other(side)
        won = winner == side
        s1 = s1_points(counts[side], rounds, won).total
        if winner is None:
            pc: Fraction | None = None
            npc: float | None = None
        else:
            pc = performance_coefficient(s2_ratios(counts[side], counts[opp], rounds, won))
            npc = normalized_performance(
                s3_ratios(points[side], points[opp], rounds), success_values(won, success_k)
            )
        sides[side] = SideFigures(
            counts=counts[side],
            points=points[side],
            s1_points=s1,
            pc=pc,
            pc_float=None if pc is None else float(pc),
            npc=npc,
        )
    return GameFigures(
        winner=winner, reason=reason, rounds=rounds, success_k=success_k, sides=sides
    )


def figures_from_tally(tally: Tally) -> GameFigures:
    """A game's figures from its tally (computed once, when the game is recorded)."""
    return figures_from_counts(
        winner=tally.winner,
        reason=tally.reason,
        rounds=rounds_of(tally),
        counts={side: category_counts(tally, side) for side in SIDES},
        points={side: s3_points(tally, side) for side in SIDES},
        success_k=success_entries(tally),
    )
