"""S3, the professional model: ratio-based geometric performance with expectation (6.3.5, R23).

Each category becomes a normalized ratio ncr in (0, 2); their geometric mean with the success
entries is NPc, how well the player did against this opponent. Ec is how well the ratings said
they should do. APc = 2 NPc / (NPc + Ec) is above 1 only for doing better than expected, and
the rating is multiplied by it.

Every ncr, the speed ratio and Ec are rational and kept exact. NPc is a 6+k-th root and so a
float; the exact product of its entries is kept beside it so that a rating that lands on (or
within float error of) a half point is still rounded exactly half up (R24).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from registry.scoring.categories import (
    CATEGORIES,
    S3Points,
    other,
    rounds_of,
    s3_points,
    speed_ratio,
    success_entries,
)
from registry.scoring.rounding import round_half_up_float_checked
from registry.scoring.tally import Tally

#: The six ncr entries besides success, in report order.
NCR_NAMES: tuple[str, ...] = (*CATEGORIES, "speed")


def normalized_ratio(own: int, opp: int) -> Fraction:
    """R23: ncr = 2 A'^2 / (A'^2 + B'^2) with A' = A + 1, B' = B + 1.

    The book's X/(X+Y)*2 with X = A/B, Y = B/A is 2A^2/(A^2+B^2), undefined when one side
    scored 0 and 0 for the player who scored nothing, which would zero the geometric mean and
    with it the rating. The +1 (R23) keeps every ncr strictly inside (0, 2).
    """
    a = (own + 1) ** 2
    b = (opp + 1) ** 2
    return Fraction(2 * a, a + b)


def s3_ratios(own: S3Points, opp: S3Points, rounds: int) -> dict[str, Fraction]:
    """The six non-success entries of NPc: five ncr and the speed ratio (as S2, R23)."""
    ratios = {name: normalized_ratio(getattr(own, name), getattr(opp, name)) for name in CATEGORIES}
    ratios["speed"] = speed_ratio(rounds)
    return ratios


def success_values(won: bool, k: int) -> tuple[int, ...]:
    """R23: k success entries, each 2 for the winner and 1 for the loser."""
    return (2 if won else 1,) * k


def npc_power(ratios: dict[str, Fraction], success: Sequence[int]) -> tuple[Fraction, int]:
    """The exact product of NPc's entries and their number n (NPc = product ** (1/n))."""
    product = math.prod(ratios.values(), start=Fraction(1)) * math.prod(success)
    return product, len(ratios) + len(success)


def normalized_performance(ratios: dict[str, Fraction], success: Sequence[int]) -> float:
    """R23: NPc = geometric mean of the six ratios and the k success entries."""
    values = [float(v) for v in ratios.values()]
    values.extend(float(s) for s in success)
    return math.prod(values) ** (1.0 / len(values))


def expectation_coefficient(rating: int, opponent: int) -> Fraction:
    """R23: Ec = 2 R1 / (R1 + R2), ratings at game start, whatever the strata.

    1 when both ratings are 0: with nothing to tell them apart, neither is expected to win.
    """
    total = rating + opponent
    if total == 0:
        return Fraction(1)
    return Fraction(2 * rating, total)


def adjusted_performance(npc: float | Fraction, ec: float | Fraction) -> float | Fraction:
    """R23: APc = 2 NPc / (NPc + Ec); exactly 1 when NPc equals Ec (book 6.3.5.7.2).

    Exact when both arguments are ``Fraction``; a float otherwise.
    """
    return 2 * npc / (npc + ec)


def _compare_rating_to_half(
    old: int, opponent: int, product: Fraction, n: int, half: Fraction
) -> int:
    """Sign of (old x APc - half), decided exactly.

    old x 2N/(N+E) >= h  <=>  N (2 old - h) >= h E  <=>  N >= T = hE/(2 old - h), and since
    N = product ** (1/n) with everything positive, N >= T  <=>  product >= T ** n.
    """
    ec = expectation_coefficient(old, opponent)
    room = 2 * old - half
    if room <= 0:  # APc < 2, so old x APc < 2 old <= half
        return -1
    threshold = half * ec / room
    target = threshold**n
    return (product > target) - (product < target)


def s3_new_rating(
    old: int, opponent: int, npc: float, exact_power: Callable[[], tuple[Fraction, int]]
) -> tuple[float, int]:
    """R23/R24: (APc, new rating) with new = old x APc rounded half up, exact on ties.

    ``exact_power`` returns :func:`npc_power`'s exact form of ``npc``; it is only called when
    the float rating lies within a hair of a half point, so the common case stays float-fast.
    """
    ec_float = 1.0 if old + opponent == 0 else 2.0 * old / (old + opponent)
    apc = float(adjusted_performance(npc, ec_float))
    new = round_half_up_float_checked(
        old * apc, lambda half: _compare_rating_to_half(old, opponent, *exact_power(), half)
    )
    return apc, new


@dataclass(frozen=True, slots=True)
class S3Result:
    """One side's S3 outcome with every figure; NPc/APc are None for a null/unfinished game."""

    side: str
    old: int
    opponent_rating: int
    new: int
    rated: bool
    won: bool
    own: S3Points
    opp: S3Points
    ratios: dict[str, Fraction]
    success: tuple[int, ...]
    npc: float | None
    ec: Fraction
    apc: float | None
    model: str = "S3"

    @property
    def coefficient(self) -> float | None:
        """APc (CLI contract); None when the game changes no rating."""
        return self.apc

    @property
    def points(self) -> None:
        return None

    @property
    def change(self) -> int:
        return self.new - self.old

    def detail(self) -> dict[str, object]:
        return {
            "category_points": self.own.as_dict(),
            "opponent_category_points": self.opp.as_dict(),
            "ncr": {k: float(v) for k, v in self.ratios.items()},
            "success_entries": list(self.success),
            "npc": self.npc,
            "ec": float(self.ec),
            "apc": self.apc,
        }


def score_s3(tally: Tally, side: str, old: int, opponent_rating: int) -> S3Result:
    """Rate ``side`` of ``tally`` with S3 from ``old`` against an opponent rated
    ``opponent_rating`` at game start (R23: Ec whatever the opponent's stratum).

    Without a winner there are no success entries, so NPc and APc are left None and the rating
    stays (R12); the category ratios and Ec are still given for display.
    """
    own = s3_points(tally, side)
    opp = s3_points(tally, other(side))
    ratios = s3_ratios(own, opp, rounds_of(tally))
    ec = expectation_coefficient(old, opponent_rating)
    won = tally.winner == side
    if not tally.rateable:
        return S3Result(
            side=side, old=old, opponent_rating=opponent_rating, new=old, rated=False,
            won=False, own=own, opp=opp, ratios=ratios, success=(), npc=None, ec=ec, apc=None,
        )  # fmt: skip
    success = success_values(won, success_entries(tally))
    npc = normalized_performance(ratios, success)
    apc, new = s3_new_rating(old, opponent_rating, npc, lambda: npc_power(ratios, success))
    return S3Result(
        side=side, old=old, opponent_rating=opponent_rating, new=new, rated=True, won=won,
        own=own, opp=opp, ratios=ratios, success=success, npc=npc, ec=ec, apc=apc,
    )  # fmt: skip
