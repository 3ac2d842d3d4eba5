"""R42: round robins by FIDE's Berger tables (C.05 Annex 1) for 3 to 16 players, the bye slot
of an odd field, the double round robin's first cycle with its last two rounds swapped and its
reversed second cycle, and withdrawals."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest

from registry.events.pairing import berger
from registry.events.pairing.model import (
    DOUBLE_ROUND_ROBIN,
    ROUND_ROBIN,
    Entrant,
    PairingError,
    Tournament,
)
from registry.events.pairing.tiebreaks import standings

DATA = Path(__file__).parent / "data" / "berger_tables.txt"


def published() -> dict[int, list[list[tuple[int, int]]]]:
    tables: dict[int, list[list[tuple[int, int]]]] = {}
    current = None
    for line in DATA.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        if "-" not in line:
            current = tables.setdefault(int(line), [])
            continue
        current.append([tuple(int(x) for x in pair.split("-")) for pair in line.split()])
    return tables


TABLES = published()


@pytest.mark.parametrize("players", range(3, 17))
def test_every_round_is_fides_table(players):
    expected = TABLES[players + players % 2]
    assert len(expected) == players + players % 2 - 1
    for r, pairs in enumerate(expected, start=1):
        assert berger.table(players, r) == pairs


@pytest.mark.parametrize("players", range(3, 17))
def test_a_round_robin_event_pairs_by_rating_then_player_id_with_the_bye_slot(players):
    # ratings descending by index; two players share a rating: the player id decides (R42)
    entrants = [Entrant(f"P{i:02d}", rating=2000 - 10 * (i // 2 * 2 if i < 2 else i))
                for i in range(players)]
    t = Tournament(entrants, ROUND_ROBIN)
    numbers = t.numbers()
    assert numbers["P00"] == 1 and numbers["P01"] == 2  # equal rating: P00 before P01
    by_number = {n: k for k, n in numbers.items()}
    met = set()
    for r in range(1, berger.rounds_of(ROUND_ROBIN, players) + 1):
        rnd = berger.pair_round(t)
        t.rounds.append(rnd)
        expected = [(w, b) for w, b in TABLES[players + players % 2][r - 1]
                    if w <= players and b <= players]
        assert [(numbers[g.white], numbers[g.black]) for g in rnd.games] == expected
        assert len(rnd.byes) == players % 2
        if players % 2:
            bye_slot = players + 1
            (w, b), = [p for p in TABLES[players + 1][r - 1] if bye_slot in p]
            assert rnd.byes[0].player == by_number[min(w, b)] and rnd.byes[0].kind == "Z"
        for g in rnd.games:
            g.result = "1-0"
            met.add(frozenset((g.white, g.black)))
    assert met == {frozenset(p) for p in combinations(numbers, 2)}
    with pytest.raises(PairingError, match="all paired"):
        berger.pair_round(t)


@pytest.mark.parametrize("players", [4, 5, 10])
def test_double_round_robin_second_cycle_reverses_sides(players):
    t = Tournament([Entrant(f"P{i}", rating=1000 - i) for i in range(players)],
                   DOUBLE_ROUND_ROBIN)
    per_cycle = players + players % 2 - 1
    assert berger.rounds_of(DOUBLE_ROUND_ROBIN, players) == 2 * per_cycle
    for _ in range(2 * per_cycle):
        t.rounds.append(berger.pair_round(t))
    for r in range(per_cycle):
        first, second = t.rounds[r], t.rounds[r + per_cycle]
        assert [(g.black, g.white) for g in first.games] == [(g.white, g.black)
                                                            for g in second.games]
    sides = {}
    for rnd in t.rounds:
        for g in rnd.games:
            sides.setdefault(frozenset((g.white, g.black)), []).append(g.white)
    assert all(len(set(whites)) == 2 for whites in sides.values())


@pytest.mark.parametrize("players", range(3, 17))
def test_double_round_robin_swaps_the_first_cycles_last_two_rounds(players):
    # R42 as amended (FIDE Annex 1): the first cycle is the table with its last two rounds
    # swapped, and the second cycle follows it as played, sides reversed
    table = TABLES[players + players % 2]
    per_cycle = len(table)
    played = [*table[:-2], table[-1], table[-2]] if per_cycle >= 2 else table
    for r, pairs in enumerate(played, start=1):
        assert berger.table(players, r, cycles=2) == pairs
        assert berger.table(players, r + per_cycle, cycles=2) == [(b, a) for a, b in pairs]
    assert berger.table(players, per_cycle, cycles=1) == table[-1]  # a single cycle: as is


@pytest.mark.parametrize("players", [3, *range(5, 17)])
def test_no_player_has_one_side_three_times_running_in_a_double_round_robin(players):
    # the reason for the swap: played straight, every even field of 6 or more has two players
    # with the same side in the last two rounds of the first cycle and the first of the second
    # (4 players cannot avoid it: three rounds a cycle)
    t = Tournament([Entrant(f"P{i}", rating=1000 - i) for i in range(players)],
                   DOUBLE_ROUND_ROBIN)
    for _ in range(berger.rounds_of(DOUBLE_ROUND_ROBIN, players)):
        t.rounds.append(berger.pair_round(t))
    sides: dict[str, list[str]] = {}
    for rnd in t.rounds:
        for g in rnd.games:
            sides.setdefault(g.white, []).append("I")
            sides.setdefault(g.black, []).append("O")
        for b in rnd.byes:
            sides.setdefault(b.player, []).append("-")
    runs = [key for key, seq in sides.items()
            if any(seq[i] == seq[i + 1] == seq[i + 2] != "-" for i in range(len(seq) - 2))]
    assert runs == []


def test_withdrawal_before_half_removes_all_games_later_is_unplayed_losses():
    # R42: 6 players, 5 rounds. P5 withdraws after 2 rounds (< half): gone from the standings.
    # P4 withdraws after 3 rounds (>= half of 5 games): remaining games are unplayed losses.
    t = Tournament([Entrant(f"P{i}", rating=2000 - i) for i in range(6)], ROUND_ROBIN)
    for r in range(1, 6):
        if r == 3:
            t.entrants[5] = Entrant("P5", rating=1995, withdrawn_after=2)
        if r == 4:
            t.entrants[4] = Entrant("P4", rating=1996, withdrawn_after=3)
        rnd = berger.pair_round(t)
        for g in rnd.games:
            if g.result is None:
                g.result = "1-0"
        t.rounds.append(rnd)
    later = [g for rnd in t.rounds[3:] for g in rnd.games if "P4" in (g.white, g.black)]
    unplayed = [g for g in later if "P5" not in (g.white, g.black)]
    assert unplayed and all(g.result == ("-+" if g.white == "P4" else "+-") for g in unplayed)
    assert all(g.result == "--" for g in later if "P5" in (g.white, g.black))
    table = standings(t)
    keys = [s.key for s in table]
    assert "P5" not in keys and "P4" in keys
    # everyone's games against P5 are gone: each remaining player has 4 counted games
    assert sum(s.points for s in table) == 4 * 5 / 2
