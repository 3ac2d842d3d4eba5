"""R24: whole-number ratings, rounded half up once, at the end."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from registry.scoring.rounding import (
    round_half_up,
    round_half_up_float_checked,
    round_half_up_to,
)
from registry.scoring.s1 import s1_new_rating, score_s1
from registry.scoring.s2 import s2_new_rating

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


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 5000), st.integers(0, 400), st.booleans())
def test_s1_integer_rounding_is_r24_half_up(old, points, won):
    expected = old + points if won else max(0, round_half_up(old - Fraction(points, 2)))
    assert s1_new_rating(old, points, won) == expected


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 5000), st.fractions(min_value=0, max_value=2, max_denominator=10_000))
def test_s2_integer_rounding_is_r24_half_up(old, pc):
    assert s2_new_rating(old, pc) == round_half_up(old * pc)
