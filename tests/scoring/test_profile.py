"""R29: OR, OCS, EI (a sum, not an average) and Breadth:Depth."""

from __future__ import annotations

from fractions import Fraction

import pytest

from registry.scoring.cascade import PlayerState, cascade
from registry.scoring.categories import CategoryCounts, S3Points
from registry.scoring.figures import figures_from_counts
from registry.scoring.profile import (
    breadth_depth,
    exposure_index,
    outcome_confidence,
    outcome_confidence_display,
    outcome_ratio,
)

from .helpers import record, win_for


def test_r29_profile_metrics_or_ocs_ei_sum_and_breadth_depth():
    assert outcome_ratio(30, 40) == Fraction(3, 4)
    assert outcome_confidence(30, 40) == Fraction(3, 4) * Fraction(40, 100)
    assert outcome_confidence_display(30, 40) == 30
    # EI is the sum of the differences over the base, not their average
    assert exposure_index([100, 100, 100], 500) == Fraction(300, 500)
    assert breadth_depth(9, 11) == (45, 55)
    assert breadth_depth(1, 2) == (33, 67)  # Breadth rounded, Depth the rest: sums to 100
    assert breadth_depth(2, 1) == (67, 33)


def test_profile_metrics_without_games():
    assert outcome_ratio(0, 0) is None
    assert outcome_confidence_display(0, 0) == 0
    assert breadth_depth(0, 0) is None
    with pytest.raises(ValueError):
        outcome_ratio(3, 2)


def test_ocs_converges_to_or():
    assert outcome_confidence(6000, 10000) == pytest.approx(0.6, abs=0.004)
    assert outcome_confidence_display(1, 1) == 2  # 1 x 1/61, provisional


def test_cascade_profile_counts_elimination_and_invasion_wins_only():
    def win(reason):
        counts = {"I": CategoryCounts(capture=1), "O": CategoryCounts()}
        points = {"I": S3Points(capture=2), "O": S3Points()}
        return figures_from_counts("I", reason, 30, counts, points)

    games = [record("e1", "A", "B", win("elimination")), record("e2", "A", "C", win("invasion")),
             record("e3", "A", "D", win("invasion")), record("e4", "A", "E", win("forfeit")),
             record("l1", "A", "F", win_for("O", 20))]  # fmt: skip
    profile = cascade(games).players["A"].profile()
    assert profile["breadth_depth"] == [33, 67]
    assert profile["or"] == 0.8
    assert profile["ocs"] == round(100 * 4 / 65)


def test_cascade_exposure_resets_on_promotion():
    seed = {"A": PlayerState("A", rating=430, stratum_games=19, stratum_wins=19),
            "B": PlayerState("B", rating=300)}  # fmt: skip
    result = cascade([record("g", "A", "B", win_for("I", 20))], seed)
    assert result.players["B"].exposure_sum == 130
    assert result.players["A"].exposure_sum == 0  # promoted: statistics reset
    b = result.players["B"].profile()
    assert b["ei_percent"] == 52.0  # 130 / 250
