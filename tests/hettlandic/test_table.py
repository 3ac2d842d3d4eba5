"""The phase-1 table (R44, R28): every game's NPc, Ec and APc, running victory scores, who
stands at 115, and the co-champions at the close."""

from __future__ import annotations

import math

import pytest

from registry.events.hettlandic_table import (
    ANNULLED,
    NO_RECORDS,
    UNPLAYED,
    PhaseGame,
    Uncounted,
    co_champions,
    phase_table,
)
from registry.scoring.victory import victory_score
from tests.hettlandic.helpers import game


def test_table_lines_running_scores_byes_and_nulls():
    start = {"A": 1600, "B": 1600, "C": 1600}
    games = [PhaseGame(1, game("g1", "A", "B", "I", 1.3, 0.8)),
             PhaseGame(2, game("g2", "C", "A", "O", 0.9, 1.1)),
             PhaseGame(3, game("g3", "B", "C", None))]  # a null game: no coefficient
    table = phase_table(start, games, byes={1: "C", 2: "B", 3: "A"})
    rows = {r.player: r for r in table}
    a = rows["A"]
    assert [ln.round for ln in a.lines] == [1, 2, 3]
    assert a.lines[0].apc == pytest.approx(1.3) and a.lines[0].ec == 1.0 and a.lines[0].won
    assert a.lines[0].npc == pytest.approx(1.3 / (2 - 1.3))  # APc = 2N/(N+1) with Ec 1
    assert a.lines[1].side == "O" and a.lines[1].opponent == "C"
    assert a.lines[0].running_score == 130
    assert a.lines[1].running_score == round(100 * math.sqrt(1.3 * 1.1)) == 120
    assert a.lines[2].game_id is None and a.lines[2].running_score == 120  # a bye: no change
    assert a.victory_score == 120 and a.at_115 and a.games == 2 and a.wins == 2
    c = rows["C"]
    assert c.lines[0].game_id is None and c.lines[0].running_score is None  # bye before a game
    assert c.lines[2].won is None and c.lines[2].apc is None  # the null game
    assert c.victory_score == 90 and not c.at_115
    assert [r.player for r in table] == ["A", "C", "B"]  # 120, 90, 80
    assert co_champions(table) == ["A"]


def test_ec_uses_start_ratings():
    # A starts at 1800 against B at 1200: Ec(A) = 2 x 1800 / 3000 = 1.2, Ec(B) = 0.8
    table = phase_table({"A": 1800, "B": 1200},
                        [PhaseGame(1, game("g1", "A", "B", "I", 1.1, 0.95, 1.2, 0.8))])
    rows = {r.player: r for r in table}
    assert rows["A"].lines[0].ec == pytest.approx(1.2)
    assert rows["B"].lines[0].ec == pytest.approx(0.8)
    assert rows["A"].lines[0].apc == pytest.approx(1.1)
    assert rows["B"].lines[0].apc == pytest.approx(0.95)


@pytest.mark.parametrize(("apc", "score", "champion"), [
    (1.15, 115, True),     # exactly 115
    (1.149, 115, True),    # 114.9 is 115 after R28's rounding (half up to a whole number)
    (1.145, 115, True),    # 114.5, half up
    (1.1449, 114, False),  # 114.49 rounds to 114: not a champion
    (1.14, 114, False),
])
def test_co_champion_threshold_after_r28_rounding(apc, score, champion):
    start = {"A": 1700, "B": 1700}
    games = [PhaseGame(n, game(f"g{n}", "A", "B", "I", apc, 0.9)) for n in range(1, 21)]
    table = phase_table(start, games)
    a = next(r for r in table if r.player == "A")
    assert a.victory_score == score == victory_score([apc] * 20)
    assert a.at_115 is champion
    assert ("A" in co_champions(table)) is champion


def test_several_or_no_co_champions():
    start = {p: 1600 for p in "ABCD"}
    games = [PhaseGame(1, game("g1", "A", "B", "I", 1.2, 1.16)),
             PhaseGame(1, game("g2", "C", "D", "I", 1.1, 0.7))]
    assert set(co_champions(phase_table(start, games))) == {"A", "B"}  # a loser can be one
    games = [PhaseGame(1, game("g1", "A", "B", "I", 1.05, 0.9))]
    assert co_champions(phase_table(start, games)) == []


def test_results_without_a_coefficient_are_shown_and_left_out():
    """An unplayed game (R41), a board result without records (R23: Ec from the ratings, no
    NPc) and an annulled game (R30, R39) are lines of their players' tables without APc; the
    victory score is over the other games."""
    start = {"A": 1800, "B": 1200}
    games = [PhaseGame(1, game("g1", "A", "B", "I", 1.2, 0.9, 1.2, 0.8))]
    uncounted = [Uncounted(2, "B", "A", "+-", UNPLAYED), Uncounted(3, "A", "B", "0-1",
                                                                   NO_RECORDS),
                 Uncounted(4, "B", "A", "1-0", ANNULLED)]
    rows = {r.player: r for r in phase_table(start, games, {}, uncounted)}
    a = rows["A"]
    assert [(ln.round, ln.uncounted, ln.won, ln.apc) for ln in a.lines] == [
        (1, None, True, pytest.approx(1.2)), (2, UNPLAYED, False, None),
        (3, NO_RECORDS, False, None), (4, ANNULLED, None, None)]
    assert a.lines[2].ec == pytest.approx(1.2) and a.lines[2].npc is None
    assert a.lines[1].ec is None and not any(ln.bye for ln in a.lines)
    assert (a.games, a.wins, a.victory_score) == (1, 1, 120)
    assert [ln.running_score for ln in a.lines] == [120] * 4
    assert rows["B"].lines[1].won is True and rows["B"].games == 1
