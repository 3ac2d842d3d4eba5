"""The tournament victory score (book 6.3.5.6, R28).

It summarizes a player's 20 GTT performance-trial games in one number: the geometric mean of
their APc (the "final coefficient") times 100, rounded half up. 115 makes a champion.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from registry.scoring.rounding import round_half_up_float_checked

CHAMPION_THRESHOLD = 115  # R28


def final_coefficient(apcs: Sequence[float]) -> float:
    """Geometric mean of the event's APc values (book 6.3.5.6; GTT phase-1 rating factor)."""
    if not apcs:
        raise ValueError("a victory score needs at least one rated game")
    if any(a <= 0 for a in apcs):
        raise ValueError("APc values are always positive")
    return math.exp(math.fsum(math.log(a) for a in apcs) / len(apcs))


def victory_score(apcs: Sequence[float]) -> int:
    """R28: round-half-up(100 x geometric mean of APc).

    The book's worked example multiplies by 1000 and by a product it calls ~1.075 before the
    20th root; R28 settles it as 100 x the geometric mean. APc is a float (an irrational
    root), so a value within float error of a half point is taken as the half and rounded up.
    """
    score = 100.0 * final_coefficient(apcs)
    return round_half_up_float_checked(score, lambda half: 0)


def is_champion(score: int) -> bool:
    """R28: champion at a victory score of 115 or more."""
    return score >= CHAMPION_THRESHOLD


def tournament_rating(old: int, apcs: Sequence[float]) -> int:
    """Book 6.4.1.3.1: GTT phase-1 ratings move once, old x final coefficient (R24 rounding)."""
    return round_half_up_float_checked(old * final_coefficient(apcs), lambda half: 0)
