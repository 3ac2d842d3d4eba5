"""From a tally to the per-category figures every scoring model starts from (R20, R22, R23).

The three models read the same record (book 6.3.2, R25) but group its codes differently: S1 and
S2 count *pieces* per category (R20), S3 weighs every sub-category (R23). Both groupings live
here, in one place, so a change to a ruling changes every model at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from registry.scoring.tally import Tally

SIDES: tuple[str, str] = ("I", "O")

#: The order in which categories are reported (book 6.3, the category table).
CATEGORIES: tuple[str, ...] = ("capture", "invasion", "intrusion", "defense", "threat")

#: Beyond this many rounds the speed ratio is a flat 1 for both players (R22).
SPEED_HORIZON = 50


def other(side: str) -> str:
    """The opponent's side letter."""
    if side == "I":
        return "O"
    if side == "O":
        return "I"
    raise ValueError(f"side must be 'I' or 'O', not {side!r}")


@dataclass(frozen=True, slots=True)
class CategoryCounts:
    """R20: the piece counts per category that S1 and S2 score.

    Capture is pieces *actually removed* (the tally's ``captures``), not the A.* codes: a
    quad-lock at the end of the game (A.d, R18) removes nothing and so is no S1/S2 capture.
    """

    capture: int = 0
    invasion: int = 0
    intrusion: int = 0
    defense: int = 0
    threat: int = 0

    def as_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in CATEGORIES}


@dataclass(frozen=True, slots=True)
class S3Points(CategoryCounts):
    """R23: the weighted sub-category sums per parent category that S3 compares.

    Same five categories as ``CategoryCounts`` but weighted points, so a separate type: an S3
    figure can never be passed where an S1/S2 count is expected by mistake.
    """


def counts_from_codes(codes: dict[str, int], captures: int) -> CategoryCounts:
    """R20 category counts from one side's 22 codes and its removed-piece count."""
    return CategoryCounts(
        capture=captures,
        invasion=codes["C.a"] + codes["C.b"] + codes["C.c"],
        intrusion=codes["D.d"] + codes["D.e"] + codes["D.f"],
        defense=codes["E.a"] + codes["E.b"] + codes["E.c"],
        threat=codes["B.a"] + codes["B.b"] + codes["B.c"],
    )


def s3_points_from_codes(codes: dict[str, int]) -> S3Points:
    """R23 weighted category points from one side's codes (book 6.3.5.2 point column)."""
    return S3Points(
        capture=(
            codes["A.a"] + 2 * codes["A.b"] + 3 * codes["A.c"] + 4 * codes["A.d"] + 2 * codes["A.e"]
        ),
        threat=codes["B.a"] + 2 * codes["B.b"] + 3 * codes["B.c"],
        invasion=codes["C.a"] + 2 * codes["C.b"] + 3 * codes["C.c"],
        intrusion=codes["D.d"] + 2 * codes["D.e"] + 3 * codes["D.f"],
        defense=2 * codes["E.a"] + 3 * codes["E.b"] + 4 * codes["E.c"],
    )


def category_counts(tally: Tally, side: str) -> CategoryCounts:
    """R20 counts of ``side`` in ``tally``."""
    return counts_from_codes(tally.codes[side], tally.captures[side])


def s3_points(tally: Tally, side: str) -> S3Points:
    """R23 points of ``side`` in ``tally``."""
    return s3_points_from_codes(tally.codes[side])


def rounds_of(tally: Tally) -> int:
    """Rounds played, read from the tally's speed code F.a (R18: the same for both players).

    The speed category *is* F.a in the book's tally table (6.5.1.9), so the models read it
    there; ``Tally.rounds`` is only a fallback for a hand-made tally that leaves F.a at zero.
    """
    return tally.codes["I"]["F.a"] or tally.codes["O"]["F.a"] or tally.rounds


def speed_ratio(rounds: int) -> Fraction:
    """R22 speed ratio, shared by S2 and S3: 1 + (50 - rounds)/50 up to 50 rounds, else 1.

    Both players share the round count, so the ordinary ratio would always be 1 (book
    6.3.4.3.2); this rewards both players for a short game instead.
    """
    if rounds < 0:
        raise ValueError(f"rounds cannot be negative ({rounds})")
    if rounds <= SPEED_HORIZON:
        return 1 + Fraction(SPEED_HORIZON - rounds, SPEED_HORIZON)
    return Fraction(1)


def success_entries(tally: Tally) -> int:
    """R23: how many success entries the geometric mean gets (k), from the G code.

    G.a (tri surround) 1, G.b (dual surround) 2, G.c (clean entry) 3, G.d (elimination) or no
    G code (forfeit, decision) 1. Both players carry the same G code (R18); the winner's side
    is read first, so a tally in which only one side carries it still scores.
    """
    order = ("I", "O") if tally.winner != "O" else ("O", "I")
    for side in order:
        codes = tally.codes[side]
        if codes.get("G.a"):
            return 1
        if codes.get("G.b"):
            return 2
        if codes.get("G.c"):
            return 3
        if codes.get("G.d"):
            return 1
    return 1
