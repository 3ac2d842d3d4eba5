"""Rounding of ratings and displayed figures (R24).

Ratings are whole numbers and only the *final* rating is rounded, half up (655.5 -> 656,
235.5 -> 236). Rounding intermediate figures would let the order of operations move a
rating by a point, so every model keeps its figures exact (integers and ``Fraction``) up to
the last step, except S3, whose geometric mean is irrational in general; see
:func:`round_half_up_float_checked` for how S3 stays exact on ties.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from numbers import Rational

HALF = Fraction(1, 2)

#: A float this close to a half-integer may be an exact tie hidden by float error; such
#: values are settled by exact arithmetic instead. Float error in S3 is ~1e-12 on a rating,
#: so a window of 1e-6 is far wider than the error and still almost never taken.
TIE_WINDOW = 1e-6


def round_half_up(value: Rational | int) -> int:
    """R24: nearest whole number, halves rounded up (towards +infinity), exactly."""
    return math.floor(Fraction(value) + HALF)


def round_half_up_to(value: Rational | int, places: int) -> Fraction:
    """Half-up rounding to ``places`` decimal places, exactly (for displayed percentages)."""
    scale = 10**places
    return Fraction(round_half_up(Fraction(value) * scale), scale)


def round_half_up_float_checked(value: float, compare_to_half: Callable[[Fraction], int]) -> int:
    """Half-up rounding of a float whose exact value is known only through a comparison.

    When ``value`` lies within :data:`TIE_WINDOW` of a half-integer ``h``, float error could
    put it on the wrong side of ``h`` or hide an exact tie, so the caller's
    ``compare_to_half(h)`` settles it with exact arithmetic: negative when the true value is
    below ``h``, zero on an exact tie (rounded up, R24), positive above. Elsewhere the float
    is far from any tie and its ordinary rounding is right.
    """
    below = math.floor(value)
    if abs(value - (below + 0.5)) <= TIE_WINDOW:
        return below + 1 if compare_to_half(Fraction(below) + HALF) >= 0 else below
    return math.floor(value + 0.5)
