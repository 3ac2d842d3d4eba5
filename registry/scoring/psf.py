"""The performance safety floor (book 6.3.5.7, R27).

An S3 player facing a much weaker opponent carries an Ec near 2 and can lose rating even after
a strong game. The PSF is the lowest opponent rating at which a player performing exactly at
their assumed NPc (aNPc) keeps their rating (APc = 1, i.e. NPc = Ec): matchmaking shows it so
players can avoid pairings that can only cost them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from registry.scoring.rounding import round_half_up

#: R27: aNPc defaults to the geometric mean of the NPc of the last 10 rated S3 games.
ANPC_WINDOW = 10


def default_anpc(npcs: Sequence[float]) -> float:
    """R27: geometric mean of the last :data:`ANPC_WINDOW` NPc values (oldest first), or 1.0
    with none (a player with no S3 record is assumed to perform as expected of equals)."""
    recent = list(npcs)[-ANPC_WINDOW:]
    if not recent:
        return 1.0
    if any(v <= 0 for v in recent):
        raise ValueError("NPc values are always positive (R23's +1)")
    return math.exp(math.fsum(math.log(v) for v in recent) / len(recent))


def performance_safety_floor(
    rating: int, anpc: float | None = None, *, recent_npcs: Sequence[float] = ()
) -> float:
    """R27: PSF = R1 x (2 / aNPc - 1), the opponent rating at which APc = 1.

    ``anpc`` is the player's own setting; without it the R27 default from ``recent_npcs`` is
    used. NPc is always in (0, 2), so aNPc must be too (at 2 the floor would be 0: no pairing
    could cost rating). The result is unrounded; the book shows it as "~1375".
    """
    value = default_anpc(recent_npcs) if anpc is None else anpc
    if not 0 < value <= 2:
        raise ValueError(f"aNPc must be in (0, 2], not {value}")
    return rating * (2.0 / value - 1.0)


def expected_rating(rating: int, opponent: int, anpc: float) -> int:
    """R47: the rating after a game played exactly at ``anpc`` against ``opponent``:
    new = old x 2 aNPc / (aNPc + Ec), Ec = 2 R1 / (R1 + R2) (R23), rounded half up (R24).

    What the lobby shows an S3 player beside a proposed opponent; below their PSF it is a loss.
    """
    if not 0 < anpc <= 2:
        raise ValueError(f"aNPc must be in (0, 2], not {anpc}")
    total = rating + opponent
    ec = Fraction(1) if total == 0 else Fraction(2 * rating, total)
    a = Fraction(anpc)
    return round_half_up(rating * 2 * a / (a + ec))
