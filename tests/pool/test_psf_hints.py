"""PSF hints (R27/R47) checked against numbers worked by hand."""

import pytest

from registry.scoring.psf import expected_rating, performance_safety_floor


def test_psf_by_hand():
    # R27: PSF = R1 x (2/aNPc - 1): 1800 x (2/1.2 - 1) = 1800 x 2/3 = 1200
    assert performance_safety_floor(1800, 1.2) == pytest.approx(1200)
    # aNPc 1.0 (no S3 record yet): the floor is the player's own rating
    assert performance_safety_floor(1500, recent_npcs=()) == pytest.approx(1500)


def test_expected_change_by_hand():
    # 1800, aNPc 1.2 against 1000: Ec = 3600/2800 = 9/7; APc = 2.4 / (1.2 + 9/7) = 16.8/17.4
    # new = 1800 x 0.965517... = 1737.93 -> 1738 (R24), a loss of 62
    assert expected_rating(1800, 1000, 1.2) == 1738
    # at the PSF exactly, Ec = 3600/3000 = 1.2 = aNPc: APc = 1, no change
    assert expected_rating(1800, 1200, 1.2) == 1800
    # against 1500: Ec = 12/11; APc = 2.4 / (1.2 + 12/11) = 26.4/25.2; 1885.71 -> 1886
    assert expected_rating(1800, 1500, 1.2) == 1886
    # aNPc 1.0 against an equal: Ec = 1, APc = 1
    assert expected_rating(1400, 1400, 1.0) == 1400
    with pytest.raises(ValueError):
        expected_rating(1400, 1400, 0)
