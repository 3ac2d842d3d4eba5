"""R27: PSF = R1 x (2/aNPc - 1), aNPc by default the geometric mean of the last 10 S3 NPc."""

from __future__ import annotations

import math

import pytest

from registry.scoring.cascade import PlayerState, cascade
from registry.scoring.figures import figures_from_tally
from registry.scoring.psf import default_anpc, performance_safety_floor
from registry.scoring.s3 import adjusted_performance, expectation_coefficient

from .helpers import make_tally, record


def test_r27_psf_default_anpc_is_geomean_of_last_10_and_1_with_none():
    assert default_anpc([]) == 1.0
    assert performance_safety_floor(1800) == 1800.0  # aNPc 1: the floor is an equal
    npcs = [2.0] * 5 + [0.5] * 10  # only the last 10 count: all 0.5
    assert default_anpc(npcs) == pytest.approx(0.5)
    assert default_anpc([1.2, 0.9, 1.1]) == pytest.approx((1.2 * 0.9 * 1.1) ** (1 / 3))
    assert performance_safety_floor(1500, recent_npcs=[1.2, 0.9, 1.1]) == pytest.approx(
        1500 * (2 / default_anpc([1.2, 0.9, 1.1]) - 1)
    )
    assert performance_safety_floor(1500, 1.25, recent_npcs=[0.5]) == pytest.approx(900)


def test_psf_is_where_apc_is_one():
    # Against an opponent rated exactly at the PSF, performing at aNPc is rating-neutral.
    rating, anpc = 1800, 1.134
    floor = performance_safety_floor(rating, anpc)
    ec = 2 * rating / (rating + floor)
    assert adjusted_performance(anpc, ec) == pytest.approx(1.0, abs=1e-12)
    assert float(expectation_coefficient(1800, 1375)) == pytest.approx(1.134, abs=1e-3)


@pytest.mark.parametrize("anpc", [0, -1, 2.5, math.nan])
def test_psf_rejects_impossible_anpc(anpc):
    with pytest.raises(ValueError):
        performance_safety_floor(1500, anpc)


def test_cascade_keeps_the_last_10_s3_npc_for_the_default():
    seed = {"A": PlayerState("A", stratum=3, rating=1500),
            "B": PlayerState("B", stratum=3, rating=1500)}  # fmt: skip
    tally = make_tally({"A.b": 1, "G.a": 1}, {"G.a": 1}, rounds=30, winner="I")
    figs = figures_from_tally(tally)
    games = [record(f"g{k}", "A", "B", figs) for k in range(12)]
    a = cascade(games, seed).players["A"]
    assert len(a.recent_npc) == 10
    assert default_anpc(a.recent_npc) == pytest.approx(figs.sides["I"].npc)
    assert a.profile()["psf"] == pytest.approx(performance_safety_floor(a.rating, a.recent_npc[0]))
