"""S2 (R22): mean of seven category ratios, rating x Pc, exact until the last rounding."""

from __future__ import annotations

from fractions import Fraction

import pytest

from registry.scoring.categories import speed_ratio
from registry.scoring.rounding import round_half_up
from registry.scoring.s2 import category_ratio, performance_coefficient, score_s2

from .helpers import make_tally


def test_r22_s2_ratio_is_one_when_both_zero_and_speed_flat_after_50():
    assert category_ratio(0, 0) == 1
    assert category_ratio(3, 0) == 2 and category_ratio(0, 3) == 0
    assert speed_ratio(50) == 1 and speed_ratio(51) == 1 and speed_ratio(90) == 1
    assert speed_ratio(49) == Fraction(51, 50)
    tally = make_tally(rounds=60, winner="O")
    i, o = score_s2(tally, "I", 700), score_s2(tally, "O", 700)
    assert i.ratios["success"] == 0 and o.ratios["success"] == 2
    assert i.pc == Fraction(1 + 1 + 1 + 1 + 1 + 1 + 0, 7)
    assert o.pc == Fraction(8, 7)
    assert i.new == 600 and o.new == 800


def test_s2_pc_is_the_mean_of_exactly_seven_ratios():
    tally = make_tally({"D.d": 3}, {"D.d": 1}, captures=(2, 2), rounds=40, winner="I")
    result = score_s2(tally, "I", 500)
    expected = (1 + 1 + Fraction(3, 2) + 1 + 1 + Fraction(6, 5) + 2) / 7
    assert result.pc == expected
    assert result.new == round_half_up(500 * expected)


def test_s2_pc_is_kept_exact_so_only_the_final_rating_is_rounded():
    # The book prints Pc to 3 decimals; using the printed Pc would give 581, the exact 580.
    tally = make_tally({"C.a": 1}, {"C.a": 2}, rounds=27, winner="I")
    result = score_s2(tally, "I", 500)
    assert result.new == 580
    shown = Fraction(round_half_up(result.pc * 1000), 1000)
    assert round_half_up(500 * shown) == 581


def test_s2_null_game_keeps_rating_and_has_no_pc():
    tally = make_tally(captures=(3, 1), winner=None, reason="null")
    result = score_s2(tally, "I", 600)
    assert result.new == 600 and result.pc is None and result.coefficient is None
    assert result.ratios["success"] is None
    assert result.ratios["capture"] == Fraction(3, 2)  # still shown


def test_s2_pc_refuses_a_missing_success_ratio():
    ratios = dict.fromkeys(("capture", "invasion", "intrusion", "defense", "threat", "speed"),
                           Fraction(1))  # fmt: skip
    ratios["success"] = None
    with pytest.raises(ValueError):
        performance_coefficient(ratios)
