"""S1, the amateur model: raw point accumulation (book 6.3.3, R21).

Points are additive and readable by a beginner: a winner adds them to the rating, a loser
loses half of them. Everything here is integer arithmetic, so the only rounding is the final
half-up of a loser's half point (R24).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from registry.scoring.categories import (
    CategoryCounts,
    category_counts,
    rounds_of,
)
from registry.scoring.tally import Tally

# R21 weights, book 6.3.3.2.
WEIGHTS: dict[str, int] = {
    "capture": 4,
    "invasion": 8,
    "intrusion": 2,
    "defense": 2,
    "threat": 2,
}
SPEED_LIMIT = 25
WIN_BONUS = 4


@dataclass(frozen=True, slots=True)
class S1Points:
    """Every addend of a player's S1 points, so a site can show where they came from."""

    counts: CategoryCounts
    category_points: dict[str, int]
    speed: int
    success: int

    @property
    def total(self) -> int:
        return sum(self.category_points.values()) + self.speed + self.success


def s1_points(counts: CategoryCounts, rounds: int, won: bool) -> S1Points:
    """R21: 4 Capture + 8 Invasion + 2 Intrusion + 2 Defense + 2 Threat
    + max(0, 25 - rounds) + (4 if won)."""
    per_category = {name: WEIGHTS[name] * value for name, value in counts.as_dict().items()}
    return S1Points(
        counts=counts,
        category_points=per_category,
        speed=max(0, SPEED_LIMIT - rounds),
        success=WIN_BONUS if won else 0,
    )


def s1_new_rating(old: int, points: int, won: bool) -> int:
    """R21 rating update; R24 rounds a loser's half point up; never below 0.

    The floor at 0 is not in the book or the rulings (see docs/notes-scoring.md): without it
    a run of S1 losses from a low rating would give a negative rating, which no stratum
    table provides for and which would break S3's expectation coefficient in mixed games.
    """
    if won:
        return old + points
    # round_half_up(old - points/2) in integers: floor((2 old - points + 1) / 2)
    return max(0, (2 * old - points + 1) // 2)


@dataclass(frozen=True, slots=True)
class S1Result:
    """One side's S1 outcome. ``rated`` is False for a null or unfinished game (R12)."""

    side: str
    old: int
    new: int
    rated: bool
    won: bool
    breakdown: S1Points = field(repr=False)
    model: str = "S1"

    @property
    def points(self) -> int:
        return self.breakdown.total

    @property
    def coefficient(self) -> None:
        """S1 has no coefficient (CLI contract: null for S1)."""
        return None

    @property
    def change(self) -> int:
        return self.new - self.old

    def detail(self) -> dict[str, object]:
        """The intermediate figures, JSON-ready."""
        b = self.breakdown
        return {
            "counts": b.counts.as_dict(),
            "category_points": dict(b.category_points),
            "speed_points": b.speed,
            "success_points": b.success,
            "points": b.total,
            # What the rating moved by before rounding: all points on a win, minus half on a loss.
            "points_applied": (b.total if self.won else -b.total / 2) if self.rated else 0,
        }


def score_s1(tally: Tally, side: str, old: int) -> S1Result:
    """Rate ``side`` of ``tally`` with S1 from rating ``old``.

    Points are computed for every game, null and unfinished included (the site shows them);
    only a game with a winner moves the rating (R12).
    """
    won = tally.winner == side
    breakdown = s1_points(category_counts(tally, side), rounds_of(tally), won)
    rated = tally.rateable
    new = s1_new_rating(old, breakdown.total, won) if rated else old
    return S1Result(side=side, old=old, new=new, rated=rated, won=won, breakdown=breakdown)
