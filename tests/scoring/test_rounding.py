"""R24: whole-number ratings, rounded half up once, at the end."""

from __future__ import annotations

from fractions import Fraction

import pytest

from registry.scoring.rounding import (
    round_half_up,
    round_half_up_float_checked,
    round_half_up_to,
)
from registry.scoring.s1 import score_s1

from .helpers import make_tally


def test_r24_rounds_half_up_only_final_rating():
    assert round_half_up(Fraction("655.5")) == 656
    assert round_half_up(Fraction("235.5")) == 236
    assert round_half_up(Fraction("488.9")) == 489
    assert round_half_up(Fraction("655.4999")) == 655
    # 235.5 from S1: 250 - 29/2 (the loser's 29 points: 5 captures + 9 rounds under 25)
    tally = make_tally(captures=(0, 5), rounds=16, winner="I")
    assert score_s1(tally, "O", 250).points == 29
    assert score_s1(tally, "O", 250).new == 236


@pytest.mark.parametrize(
    ("value", "expected"),
    [(0, 0), (Fraction(1, 2), 1), (Fraction(-1, 2), 0), (Fraction(-3, 2), -1), (7, 7)],
)
def test_half_up_means_towards_plus_infinity(value, expected):
    assert round_half_up(value) == expected


def test_round_to_places_for_display():
    assert round_half_up_to(Fraction(-44, 10), 1) == Fraction(-44, 10)
    assert round_half_up_to(Fraction(1, 8), 2) == Fraction(13, 100)  # 0.125 -> 0.13


def test_float_rounding_consults_exact_comparison_only_near_a_half():
    calls = []

    def compare(half):
        calls.append(half)
        return 0

    assert round_half_up_float_checked(10.2, compare) == 10 and calls == []
    assert round_half_up_float_checked(10.4999999999999, compare) == 11
    assert calls == [Fraction(21, 2)]
    assert round_half_up_float_checked(10.5000000000001, lambda h: -1) == 10
    assert round_half_up_float_checked(10.4999999999999, lambda h: 1) == 11
