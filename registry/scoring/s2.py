"""S2, the advanced model: normalized arithmetic performance (book 6.3.4, R22).

Every category is compared with the opponent's as a ratio in [0, 2] and the seven ratios are
averaged into the performance coefficient Pc; the rating is multiplied by Pc. All ratios are
rational, so Pc is kept as an exact ``Fraction`` and the rating is rounded once (R24): with
floats, 500 x 1.311 would land a hair under 655.5 and round the wrong way.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from registry.scoring.categories import (
    CATEGORIES,
    CategoryCounts,
    category_counts,
    other,
    rounds_of,
    speed_ratio,
)
from registry.scoring.tally import Tally

#: The seven ratios averaged into Pc, in report order (book 6.3.4.3.3).
RATIO_NAMES: tuple[str, ...] = (*CATEGORIES, "speed", "success")


def category_ratio(own: int, opp: int) -> Fraction:
    """R22: cr = 2P / (P + O), and 1 when both are 0 (neither side did better)."""
    total = own + opp
    if total == 0:
        return Fraction(1)
    return Fraction(2 * own, total)


def success_ratio(won: bool) -> Fraction:
    """R22: 2 for the winner, 0 for the loser."""
    return Fraction(2) if won else Fraction(0)


def s2_ratios(
    own: CategoryCounts, opp: CategoryCounts, rounds: int, won: bool | None
) -> dict[str, Fraction | None]:
    """The seven R22 ratios of one player; ``success`` is None when there is no winner."""
    ratios: dict[str, Fraction | None] = {
        name: category_ratio(getattr(own, name), getattr(opp, name)) for name in CATEGORIES
    }
    ratios["speed"] = speed_ratio(rounds)
    ratios["success"] = None if won is None else success_ratio(won)
    return ratios


def performance_coefficient(ratios: dict[str, Fraction | None]) -> Fraction:
    """R22: Pc = the arithmetic mean of the seven category ratios."""
    values = [ratios[name] for name in RATIO_NAMES]
    if any(v is None for v in values):
        raise ValueError("Pc needs all seven ratios; a game without a winner has no success")
    return sum(values, Fraction(0)) / len(values)  # type: ignore[arg-type]


def s2_new_rating(old: int, pc: Fraction) -> int:
    """R22 new = old x Pc, rounded half up once (R24).

    Integer form of round_half_up(old x Pc): floor((2 old num + den) / (2 den)), which keeps
    the cascade free of Fraction arithmetic.
    """
    num, den = pc.numerator, pc.denominator
    return (2 * old * num + den) // (2 * den)


@dataclass(frozen=True, slots=True)
class S2Result:
    """One side's S2 outcome with every ratio; ``pc`` is None for a null/unfinished game."""

    side: str
    old: int
    new: int
    rated: bool
    won: bool
    own: CategoryCounts
    opp: CategoryCounts
    ratios: dict[str, Fraction | None]
    pc: Fraction | None
    model: str = "S2"

    @property
    def coefficient(self) -> float | None:
        """Pc as a float for display (CLI contract); None when the game changes no rating."""
        return None if self.pc is None else float(self.pc)

    @property
    def points(self) -> None:
        return None

    @property
    def change(self) -> int:
        return self.new - self.old

    def detail(self) -> dict[str, object]:
        return {
            "counts": self.own.as_dict(),
            "opponent_counts": self.opp.as_dict(),
            "ratios": {k: (None if v is None else float(v)) for k, v in self.ratios.items()},
            "pc": self.coefficient,
        }


def score_s2(tally: Tally, side: str, old: int) -> S2Result:
    """Rate ``side`` of ``tally`` with S2 from rating ``old``.

    For a game without a winner the category ratios are still computed (for display) but the
    success ratio, Pc and the rating change are not: R12, a null game changes no rating.
    """
    own = category_counts(tally, side)
    opp = category_counts(tally, other(side))
    rated = tally.rateable
    won = tally.winner == side
    ratios = s2_ratios(own, opp, rounds_of(tally), won if rated else None)
    pc = performance_coefficient(ratios) if rated else None
    new = s2_new_rating(old, pc) if pc is not None else old
    return S2Result(
        side=side, old=old, new=new, rated=rated, won=won, own=own, opp=opp, ratios=ratios, pc=pc
    )
