"""Phase 2 (R46): rounds, final ranking and awards for 1, 2, 3 and 9 champions."""

from __future__ import annotations

import pytest

from registry.events.hettlandic_phase2 import (
    MATERIALS,
    RATED,
    VARIANT,
    award_name,
    awards,
    match_of_two,
    participants,
    rounds_for,
)


def test_rounds_r46():
    assert [rounds_for(n) for n in range(0, 11)] == [0, 0, 2, 2, 3, 4, 5, 5, 5, 6, 6]
    # min(N - 1, ceil(log2 N) + 2): 3 -> min(2, 4); 9 -> min(8, 6); 17 -> min(16, 7)
    assert rounds_for(17) == 7
    assert VARIANT == "grand-master" and RATED is False


def test_decliners_keep_the_title_and_get_no_award():
    assert participants(["A", "B", "C"], ["C", "A"]) == ["A", "C"]
    with pytest.raises(ValueError):
        participants(["A"], ["Z"])


def test_one_champion_no_games_bronze():
    assert rounds_for(1) == 0
    assert awards(["A"]) == {"A": "Bronze"}


def test_two_champions_a_match_of_two_games_sides_swapped():
    assert match_of_two("A", "B") == [("A", "B"), ("B", "A")]
    assert awards(["B", "A"]) == {"B": "Silver", "A": "Bronze"}


def test_three_champions_two_rounds_gold_silver_bronze():
    assert rounds_for(3) == 2
    assert awards(["C", "A", "B"]) == {"C": "Gold", "A": "Silver", "B": "Bronze"}


def test_nine_champions_get_tier_9_above_diamond():
    """R46: awards from the lowest-ranked up; above 8 participants "Tier 9" above Diamond.
    The ranking itself is the medal event's standings (tests/site/test_hettlandic_event.py)."""
    assert rounds_for(9) == 6
    players = [f"P{k}" for k in range(1, 10)]
    given = awards(players)
    assert [given[p] for p in players] == ["Tier 9", *reversed(MATERIALS)]
    assert given["P9"] == "Bronze" and given["P2"] == "Diamond"
    assert award_name(10) == "Tier 10"
