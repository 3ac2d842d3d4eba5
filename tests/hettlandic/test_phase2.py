"""Phase 2 (R46): rounds, final ranking and awards for 1, 2, 3 and 9 champions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from registry.events.hettlandic_phase2 import (
    MATERIALS,
    RATED,
    VARIANT,
    Result,
    award_name,
    final_ranking,
    match_of_two,
    participants,
    rounds_for,
)

WIN, DRAW, LOSS = Fraction(1), Fraction(1, 2), Fraction(0)


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
    ranking = final_ranking(["A"], [], {"A": 121})
    assert [(s.player, s.rank, s.award) for s in ranking] == [("A", 1, "Bronze")]


def test_two_champions_a_match_of_two_games_sides_swapped():
    assert match_of_two("A", "B") == [("A", "B"), ("B", "A")]
    # 1-1: every Swiss tie-break is equal, the phase-1 victory score decides
    results = [Result(1, "A", "B", WIN), Result(2, "B", "A", WIN)]
    ranking = final_ranking(["A", "B"], results, {"A": 118, "B": 124})
    assert [(s.player, s.award) for s in ranking] == [("B", "Silver"), ("A", "Bronze")]
    assert ranking[0].direct == ranking[1].direct == 1
    # 1.5-0.5
    results = [Result(1, "A", "B", DRAW), Result(2, "B", "A", LOSS)]
    ranking = final_ranking(["A", "B"], results, {"A": 118, "B": 124})
    assert [(s.player, s.score) for s in ranking] == [("A", Fraction(3, 2)), ("B", DRAW)]
    assert ranking[0].award == "Silver"


def test_three_champions_two_rounds_with_a_bye():
    assert rounds_for(3) == 2
    results = [Result(1, "A", "B", WIN), Result(1, "C", None, WIN),
               Result(2, "C", "A", DRAW), Result(2, "B", None, WIN)]
    # A 1.5 (opponents B 1, C 1.5), C 1.5 (bye -> own 1.5, A 1.5), B 1
    ranking = final_ranking(["A", "B", "C"], results, {"A": 116, "B": 130, "C": 115})
    by = {s.player: s for s in ranking}
    assert by["A"].score == by["C"].score == Fraction(3, 2)
    assert by["A"].buchholz == Fraction(5, 2) and by["C"].buchholz == 3
    assert [s.player for s in ranking] == ["C", "A", "B"]
    assert [s.award for s in ranking] == ["Gold", "Silver", "Bronze"]


def test_nine_champions_get_tier_9_above_diamond():
    assert rounds_for(9) == 6
    players = [f"P{k}" for k in range(1, 10)]
    # six rounds in which the lower-numbered player always wins (P9 sits out in turn)
    results = []
    for rnd in range(1, 7):
        order = players[rnd - 1:] + players[:rnd - 1]
        bye, rest = order[-1], order[:-1]
        results.append(Result(rnd, bye, None, WIN))
        for a, b in zip(rest[0::2], rest[1::2], strict=True):
            winner, loser = sorted((a, b), key=lambda p: int(p[1:]))
            results.append(Result(rnd, winner, loser, WIN))
    ranking = final_ranking(players, results, {p: 115 for p in players})
    awards = [s.award for s in ranking]
    assert awards == ["Tier 9", *reversed(MATERIALS)]
    assert ranking[-1].award == "Bronze" and ranking[1].award == "Diamond"
    assert award_name(10) == "Tier 10"
    assert [s.rank for s in ranking] == list(range(1, 10))
    assert sum(s.score for s in ranking) == 6 * 4 + 6  # 4 games and a bye per round
