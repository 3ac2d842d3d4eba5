"""Every worked number of book 6.2, 6.3 and 6.6, recomputed by the scoring core."""

from __future__ import annotations

from fractions import Fraction

import pytest

from registry.scoring.categories import speed_ratio
from registry.scoring.profile import exposure_index, exposure_index_display
from registry.scoring.psf import performance_safety_floor
from registry.scoring.rounding import round_half_up
from registry.scoring.s1 import s1_new_rating, score_s1
from registry.scoring.s2 import (
    category_ratio,
    performance_coefficient,
    s2_new_rating,
    score_s2,
)
from registry.scoring.strata import (
    STRATA,
    convenient_limit,
    promotion_limit_arithmetic,
)
from registry.scoring.victory import final_coefficient, victory_score

from .helpers import make_tally


def three(x: Fraction | float) -> float:
    """The book prints figures to 3 decimals, half up."""
    return float(Fraction(round_half_up(Fraction(x) * 1000), 1000))


# --- 6.3.3.5 S1 --------------------------------------------------------------------------


def test_s1_win_250_plus_28_is_278():
    # 2 captures (8) + 1 invasion (8) + 2 intrusion (4) + defense (2) + threat (2) + win (4)
    tally = make_tally(
        {"C.c": 1, "D.d": 2, "E.a": 1, "B.a": 1},
        captures=(2, 0),
        rounds=25,  # speed: max(0, 25 - 25) = 0
        winner="I",
    )
    result = score_s1(tally, "I", 250)
    assert result.points == 28
    assert result.new == 278


def test_s1_loss_250_minus_half_of_28_is_236():
    # 3 captures (12) + 1 invasion (8) + 2 intrusion (4) + 2 defense (4), no win bonus
    tally = make_tally(None, {"C.b": 1, "D.e": 2, "E.b": 2}, captures=(0, 3), rounds=25, winner="I")
    result = score_s1(tally, "O", 250)
    assert result.points == 28
    assert result.new == 236


def test_s1_book_arithmetic_directly():
    assert s1_new_rating(250, 28, won=True) == 278
    assert s1_new_rating(250, 28, won=False) == 236


# --- 6.3.4 S2 ----------------------------------------------------------------------------


def test_s2_capture_ratio_4_against_5_is_0889_and_1111():
    assert three(category_ratio(4, 5)) == 0.889
    assert three(category_ratio(5, 4)) == 1.111
    tally = make_tally(captures=(4, 5), rounds=27, winner="O")
    assert three(score_s2(tally, "I", 500).ratios["capture"]) == 0.889
    assert three(score_s2(tally, "O", 500).ratios["capture"]) == 1.111


def test_s2_speed_ratio_after_27_rounds_is_1460():
    assert speed_ratio(27) == Fraction(146, 100)
    tally = make_tally(rounds=27)
    assert score_s2(tally, "I", 500).ratios["speed"] == Fraction(146, 100)
    assert score_s2(tally, "O", 500).ratios["speed"] == Fraction(146, 100)


def test_s2_pc_of_the_books_ratios_is_1285():
    listed = ["1.111", "1.270", "0.889", "1.137", "1.460", "1.130", "2.000"]
    names = ["capture", "invasion", "intrusion", "defense", "threat", "speed", "success"]
    ratios = {n: Fraction(v) for n, v in zip(names, listed, strict=True)}
    assert sum(ratios.values()) == Fraction("8.997")
    assert three(performance_coefficient(ratios)) == 1.285


def test_s2_pc_1285_from_a_game():
    # capture 5:4 (1.111), invasion 40:23 (1.270), intrusion 4:5 (0.889), defense 29:22
    # (1.137), threat 13:10 (1.130), 27 rounds (1.460), a win (2): the book's 7 ratios.
    tally = make_tally(
        {"C.a": 40, "D.d": 4, "E.a": 29, "B.a": 13},
        {"C.a": 23, "D.d": 5, "E.a": 22, "B.a": 10},
        captures=(5, 4),
        rounds=27,
        winner="I",
    )
    result = score_s2(tally, "I", 500)
    shown = [three(result.ratios[n]) for n in ("capture", "invasion", "intrusion", "defense")]
    assert shown == [1.111, 1.270, 0.889, 1.137]
    assert three(result.ratios["threat"]) == 1.130
    assert three(result.pc) == 1.285


def test_s2_win_500_times_1311_is_656():
    assert s2_new_rating(500, Fraction("1.311")) == 656  # 655.5, half up (R24)


def test_s2_loss_500_times_0978_is_489():
    assert s2_new_rating(500, Fraction("0.978")) == 489  # 488.9


# --- 6.3.5 S3 ----------------------------------------------------------------------------


def test_s3_book_examples_1311_and_978():
    assert round_half_up(1000 * Fraction("1.311")) == 1311
    assert round_half_up(1000 * Fraction("0.978")) == 978


def test_psf_1800_at_anpc_1134_is_about_1375():
    psf = performance_safety_floor(1800, 1.134)
    assert three(2 / 1.134) == 1.764
    assert 1374 < psf < 1375.5
    assert round(psf) == 1375


def test_victory_score_of_the_books_example_is_100():
    # "product of APcs ~1.075 ... ^(1/20) ~1.003 ... ~100" (R28: 100 x the geometric mean)
    apcs = [1.075 ** (1 / 20)] * 20
    assert final_coefficient(apcs) == pytest.approx(1.075 ** (1 / 20))
    assert three(final_coefficient(apcs)) == 1.004  # the book truncates to 1.003
    assert victory_score(apcs) == 100


# --- 6.2.1 strata ------------------------------------------------------------------------


def test_promotion_limit_arithmetic_4375_gives_440():
    raw = promotion_limit_arithmetic(250, 500)
    assert raw == Fraction(875, 2)  # 250 + 0.75 x 250 = 437.5
    assert convenient_limit(raw) == 440 == STRATA[1].promotion_limit


def test_promotion_limit_arithmetic_s2_gives_875():
    raw = promotion_limit_arithmetic(500, 1000)
    assert raw == 875
    assert convenient_limit(raw) == 875 == STRATA[2].promotion_limit


def test_substrata_table_halfway_points():
    # gamma ends "halfway to the promotion limit": (250 + 440) / 2 = 345
    assert STRATA[1].bands == (250, 345, 440, 500)
    assert (STRATA[1].base + STRATA[1].promotion_limit) / 2 == STRATA[1].bands[1]
    assert STRATA[3].bands == (1000, 1375, 1750, 2000)


# --- 6.6 profile metrics -----------------------------------------------------------------


def test_exposure_index_minus_11_over_250_is_minus_4_4_percent():
    assert exposure_index([-11], 250) == Fraction(-44, 1000)
    assert exposure_index_display([-11], 250) == Fraction("-4.4")


def test_exposure_index_sums_the_differences():
    assert exposure_index_display([12, -6, -27, 10], 250) == Fraction("-4.4")
