"""S3 (R23): normalized ratios with +1, geometric NPc with k success entries, Ec and APc."""

from __future__ import annotations

import math
from fractions import Fraction

from registry.scoring.categories import s3_points, success_entries
from registry.scoring.s3 import (
    adjusted_performance,
    expectation_coefficient,
    normalized_ratio,
    score_s3,
)

from .helpers import make_tally


def test_r23_s3_plus_one_keeps_zero_category_from_zeroing():
    # The book's X/(X+Y)*2 gives 0 to a side that scored nothing; R23's +1 does not.
    assert normalized_ratio(0, 5) == Fraction(2 * 1, 1 + 36)
    assert normalized_ratio(5, 0) == Fraction(2 * 36, 36 + 1)
    tally = make_tally({"A.b": 5}, None, captures=(5, 0), rounds=30, winner="I")
    loser = score_s3(tally, "O", 1200, 1200)
    assert loser.npc is not None and loser.npc > 0
    assert loser.ratios["capture"] == Fraction(2, 122)
    assert loser.new > 0


def test_r23_category_points_use_the_subcategory_weights():
    tally = make_tally(
        {"A.a": 1, "A.b": 1, "A.c": 1, "A.d": 1, "A.e": 1, "B.a": 1, "B.b": 1, "B.c": 1,
         "C.a": 1, "C.b": 1, "C.c": 1, "D.d": 1, "D.e": 1, "D.f": 1, "E.a": 1, "E.b": 1,
         "E.c": 1},
    )  # fmt: skip
    p = s3_points(tally, "I")
    assert p.capture == 1 + 2 + 3 + 4 + 2
    assert p.threat == 1 + 2 + 3
    assert p.invasion == 1 + 2 + 3
    assert p.intrusion == 1 + 2 + 3
    assert p.defense == 2 + 3 + 4


def test_r23_success_entries_by_g_code():
    assert success_entries(make_tally({"G.a": 1}, {"G.a": 1})) == 1
    assert success_entries(make_tally({"G.b": 1}, {"G.b": 1})) == 2
    assert success_entries(make_tally({"G.c": 1}, {"G.c": 1})) == 3
    assert success_entries(make_tally({"G.d": 1}, {"G.d": 1}, reason="elimination")) == 1
    assert success_entries(make_tally(reason="forfeit")) == 1
    tally = make_tally({"G.c": 1}, {"G.c": 1}, rounds=60, winner="O")
    assert score_s3(tally, "O", 1000, 1000).success == (2, 2, 2)
    assert score_s3(tally, "I", 1000, 1000).success == (1, 1, 1)


def test_r23_npc_is_the_geometric_mean_of_six_ratios_and_k_entries():
    tally = make_tally({"A.b": 2, "G.b": 1}, {"A.a": 1, "G.b": 1}, rounds=40, winner="I")
    result = score_s3(tally, "I", 1500, 1300)
    entries = [Fraction(2 * 25, 25 + 4), 1, 1, 1, 1, Fraction(6, 5), 2, 2]
    assert result.npc == pure_geomean(entries)
    ec = Fraction(2 * 1500, 2800)
    assert result.ec == ec
    assert math.isclose(result.apc, 2 * result.npc / (result.npc + float(ec)), rel_tol=1e-15)
    assert result.new == math.floor(1500 * result.apc + 0.5)


def pure_geomean(values) -> float:
    return math.prod(float(v) for v in values) ** (1 / len(values))


def test_r23_ec_uses_both_ratings_at_game_start_whatever_the_strata():
    assert expectation_coefficient(300, 1200) == Fraction(600, 1500)
    assert expectation_coefficient(0, 0) == 1
    tally = make_tally({"G.a": 1}, {"G.a": 1}, rounds=30, winner="I")
    against_s1 = score_s3(tally, "I", 1000, 300)
    against_s3 = score_s3(tally, "I", 1000, 1800)
    assert against_s1.npc == against_s3.npc
    assert against_s1.new < against_s3.new  # more was expected against the weaker opponent


def test_s3_apc_is_one_when_npc_equals_ec():
    assert adjusted_performance(Fraction(23, 20), Fraction(23, 20)) == 1
    assert adjusted_performance(1.15, 1.15) == 1.0


def test_s3_null_game_keeps_rating_and_has_no_coefficient():
    tally = make_tally({"A.b": 3}, None, winner=None, reason="null")
    result = score_s3(tally, "I", 1500, 1400)
    assert result.new == 1500 and result.apc is None and result.npc is None
    assert result.coefficient is None and result.success == ()
    assert result.ratios["capture"] == Fraction(2 * 49, 49 + 1)  # A.b x3 = 6 points


def test_s3_rounding_is_exact_on_a_true_half():
    # The loser's six ratios are all 1 and k = 1 entry of 1: NPc = 1 exactly. With ratings
    # 1005 and 1809 the new rating is exactly 1005 x 2 x 2814 / 4824 = 1172.5, which floats
    # compute as 1172.4999999999998; R24 rounds the true half up.
    tally = make_tally(rounds=60, winner="O", reason="forfeit")
    result = score_s3(tally, "I", 1005, 1809)
    assert result.npc == 1.0
    assert 1005 * Fraction(2 * 2814, 3 * 1005 + 1809) == Fraction(2345, 2)
    assert math.floor(1005 * result.apc + 0.5) == 1172  # the naive float rounding
    assert result.new == 1173
