"""Descriptive profile metrics: OR, OCS, EI and Breadth:Depth (book 6.6, R29).

They explain a record and never feed back into ratings or promotion (book 6.6). Each is a
function of plain counts so the site can compute them from stored statistics; the figures are
exact (``Fraction``) and the ``*_display`` helpers do the book's presentation rounding.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from registry.scoring.rounding import round_half_up, round_half_up_to

CONFIDENCE_K = 60  # book 6.6.2: 3 strata x 20 games


def outcome_ratio(wins: int, games: int) -> Fraction | None:
    """R29 OR = W / N over rated decided games; None before the first such game."""
    _check_counts(wins, games)
    return None if games == 0 else Fraction(wins, games)


def outcome_confidence(wins: int, games: int) -> Fraction:
    """R29 OCS = OR x N / (N + 60): OR damped while the sample is small.

    Equal to W / (N + 60); 0 with no games (no evidence, no confidence).
    """
    _check_counts(wins, games)
    return Fraction(wins, games + CONFIDENCE_K)


def outcome_confidence_display(wins: int, games: int) -> int:
    """R29: OCS shown as a whole number 0-100."""
    return round_half_up(100 * outcome_confidence(wins, games))


def exposure_index(rating_differences: Iterable[int], base: int) -> Fraction:
    """R29 EI = sum of (opponent rating - own rating, at game start) / the stratum's base.

    A sum, not an average (the book's formula; its prose says "average"): a player's EI grows
    with every game against stronger opponents in the stratum. Reset on promotion.
    """
    if base <= 0:
        raise ValueError("a stratum base is positive")
    return Fraction(sum(rating_differences), base)


def exposure_index_display(rating_differences: Iterable[int], base: int) -> Fraction:
    """EI as a percentage with one decimal, half up (-11 / 250 -> -4.4)."""
    return round_half_up_to(100 * exposure_index(rating_differences, base), 1)


def breadth_depth(elimination_wins: int, invasion_wins: int) -> tuple[int, int] | None:
    """R29 Breadth:Depth = elimination wins : invasion wins scaled to sum to 100.

    Wins by forfeit or decision are neither (R29 scales the two counts themselves, where the
    book divides by all wins and so could not always sum to 100). Breadth is rounded half up
    and Depth is the rest, so the pair always sums to 100. None before the first such win.
    """
    if elimination_wins < 0 or invasion_wins < 0:
        raise ValueError("win counts cannot be negative")
    total = elimination_wins + invasion_wins
    if total == 0:
        return None
    breadth = round_half_up(Fraction(100 * elimination_wins, total))
    return breadth, 100 - breadth


def _check_counts(wins: int, games: int) -> None:
    if games < 0 or wins < 0 or wins > games:
        raise ValueError(f"need 0 <= wins <= games, got {wins} wins of {games}")
