"""R44 phase-1 pairing on constructed fields, checked by an independent brute force.

The brute force enumerates every perfect matching of the non-bye players and applies R44 as
written: the cheapest matching without a forbidden pair; only if there is none, the cheapest of
all with +10,000 per forbidden pair. ``pair_round`` must reach the same minimum cost.
"""

from __future__ import annotations

import random
import subprocess
import sys

import networkx as nx
import pytest

from registry.events.pairing.hettlandic import (
    FORBIDDEN_COST,
    Entrant,
    History,
    PairingError,
    Round,
    SidedPair,
    max_meetings,
    pair_cost,
    pair_phase,
    pair_round,
    round_cost,
)


def perfect_matchings(ids: list[str]):
    """Every perfect matching of ``ids`` (an even list), as lists of frozensets."""
    if not ids:
        yield []
        return
    first, rest = ids[0], ids[1:]
    for k, partner in enumerate(rest):
        for tail in perfect_matchings(rest[:k] + rest[k + 1:]):
            yield [frozenset((first, partner)), *tail]


def brute_force(field: list[Entrant], history: History, bye: str | None) -> tuple[int, bool]:
    """(the R44 minimum cost, whether forbidden pairs had to be allowed)."""
    by_id = {e.player_id: e for e in field}
    limit = -(-20 // (len(field) - 1))  # ceil(20 / (N - 1)), written again on purpose
    ids = sorted(e.player_id for e in field if e.player_id != bye)
    clean, penalised = [], []
    for m in perfect_matchings(ids):
        base = sum(pair_cost(*(by_id[p] for p in pair)) for pair in m)
        bad = sum(1 for pair in m
                  if pair in history.last_pairs or history.meetings[pair] >= limit)
        (penalised if bad else clean).append(base + FORBIDDEN_COST * bad)
    return (min(clean), False) if clean else (min(penalised), True)


def check_round(field: list[Entrant], history: History, rnd: Round) -> None:
    playing = [e.player_id for e in field if e.player_id != rnd.bye]
    seen = [p for g in rnd.games for p in (g.i, g.o)]
    assert sorted(seen) == sorted(playing), "every non-bye player plays exactly one game"
    assert rnd.cost == round_cost(field, history, rnd.games)
    assert (rnd.cost, rnd.forbidden_allowed) == brute_force(field, history, rnd.bye)


def test_even_field_is_paired_by_rating_neighbours():
    field = [Entrant("A", 2000), Entrant("B", 1990), Entrant("C", 1600), Entrant("D", 1580),
             Entrant("E", 1200), Entrant("F", 1190)]
    rnd = pair_round(field)
    assert {g.players for g in rnd.games} == {frozenset("AB"), frozenset("CD"), frozenset("EF")}
    assert rnd.bye is None and rnd.cost == 10 + 20 + 10 and not rnd.forbidden_allowed
    check_round(field, History(), rnd)


def test_same_body_costs_400_and_splits_clubmates():
    # A and B are clubmates 10 apart; crossing with C/D (another body) costs 2 x 50 < 10 + 400.
    field = [Entrant("A", 2000, "club1"), Entrant("B", 1990, "club1"),
             Entrant("C", 1950, "club2"), Entrant("D", 1940, "club3")]
    rnd = pair_round(field)
    assert frozenset("AB") not in {g.players for g in rnd.games}
    check_round(field, History(), rnd)
    # ...but 400 is not a wall: far-apart outsiders leave the clubmates together
    far = [Entrant("A", 2000, "club1"), Entrant("B", 1990, "club1"),
           Entrant("C", 1200, "club2"), Entrant("D", 1190, "club3")]
    rnd = pair_round(far)
    assert frozenset("AB") in {g.players for g in rnd.games}
    assert rnd.cost == 10 + 400 + 10
    # no body is never "the same body"
    assert pair_cost(Entrant("X", 1500), Entrant("Y", 1500)) == 0


def test_odd_field_bye_fewest_byes_then_lowest_rating_then_greatest_id():
    field = [Entrant("P1", 1800), Entrant("P2", 1500), Entrant("P3", 1500),
             Entrant("P4", 1700), Entrant("P5", 1900)]
    rnd = pair_round(field)
    assert rnd.bye == "P3"  # lowest rating 1500 shared with P2; the greatest id
    check_round(field, History(), rnd)
    history = History([rnd])
    rnd2 = pair_round(field, history)
    assert rnd2.bye == "P2"  # P3 has had one; P2 is now the lowest with none
    check_round(field, history, rnd2)
    history.add(rnd2)
    rnd3 = pair_round(field, history)
    assert rnd3.bye == "P4"
    # a bye is no game: the bye player is in no game of the round
    assert all("P4" not in g.players for g in rnd3.games)


def test_consecutive_rounds_never_repeat_a_pair_when_avoidable():
    field = [Entrant(p, r) for p, r in (("A", 2000), ("B", 1999), ("C", 1500), ("D", 1490))]
    history = History()
    for n in range(1, 21):
        rnd = pair_round(field, history)
        check_round(field, history, rnd)
        if not rnd.forbidden_allowed:
            assert not ({g.players for g in rnd.games} & history.last_pairs)
            assert all(history.meetings[g.players] < 7 for g in rnd.games)
        history.add(rnd)
        if n <= 13:  # A-B (1 apart) and C-D every other round until they have met 7 times
            assert (frozenset("AB") in {g.players for g in rnd.games}) == (n % 2 == 1)
        if n == 14:  # ceil(20 / 3) = 7: A-B, by far the cheapest pair, may not meet again
            assert history.meetings[frozenset("AB")] == 7 == max_meetings(4)
            assert frozenset("AB") not in {g.players for g in rnd.games}


def test_forced_repeats_are_allowed_at_10000_each():
    field = [Entrant(p, r) for p, r in (("A", 2000), ("B", 1900), ("C", 1800), ("D", 1700))]
    # last round A-B and C-D; A-C and A-D have met 7 times (the limit for N = 4): every
    # perfect matching of the four has a forbidden pair
    history = History()
    filler = [Round((SidedPair("A", "C"), SidedPair("B", "D")), None, 0, False),
              Round((SidedPair("A", "D"), SidedPair("B", "C")), None, 0, False)]
    for _ in range(7):
        for r in filler:
            history.add(r)
    history.add(Round((SidedPair("A", "B"), SidedPair("C", "D")), None, 0, False))
    rnd = pair_round(field, history)
    assert rnd.forbidden_allowed
    check_round(field, history, rnd)
    # {A-C, B-D}: 200 + 10,000 + 200 (B-D met 7 times too) vs {A-D, B-C}: 300 + 10,000 + 100
    # + 10,000 vs {A-B, C-D}: 100 + 100 + 20,000
    assert rnd.cost == min(200 + 200 + 2 * FORBIDDEN_COST, 300 + 100 + 2 * FORBIDDEN_COST,
                           100 + 100 + 2 * FORBIDDEN_COST)


def test_two_players_play_all_twenty_games_with_sides_alternating():
    field = [Entrant("HIGH", 2100), Entrant("LOW", 1600)]
    rounds = pair_phase(field)
    assert len(rounds) == 20 and all(len(r.games) == 1 and r.bye is None for r in rounds)
    assert max_meetings(2) == 20
    assert not rounds[0].forbidden_allowed
    assert all(r.forbidden_allowed for r in rounds[1:])  # consecutive: forced every time
    assert all(r.cost == 500 + FORBIDDEN_COST for r in rounds[1:])
    # sides: equal games as I and no last game: the higher rating plays I; then alternating
    assert [r.games[0].i for r in rounds[:4]] == ["HIGH", "LOW", "HIGH", "LOW"]
    assert sum(r.games[0].i == "HIGH" for r in rounds) == 10


def test_side_rule_fewer_games_as_i_then_last_o_then_higher_rating():
    a, b, c, d = (Entrant("A", 1800), Entrant("B", 1700), Entrant("C", 1600),
                  Entrant("D", 1500))
    h = History([Round((SidedPair("A", "B"), SidedPair("C", "D")), None, 0, False)])
    # A and C have 1 game as I, B and D none: B and D play I, whoever they meet
    rnd = pair_round([a, b, c, d], h)
    for g in rnd.games:
        assert g.i in ("B", "D")
    h2 = History([Round((SidedPair("B", "C"), SidedPair("A", "D")), None, 0, False),
                  Round((SidedPair("D", "B"),), None, 0, False)])
    # A: 1 as I, last side I; B: 1 as I, last side O -> B plays I against A
    from registry.events.pairing.hettlandic import sides
    assert sides(a, b, h2) == SidedPair("B", "A")
    # all equal: the higher rating plays I
    assert sides(c, d, History()) == SidedPair("C", "D")


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 9])
def test_random_fields_every_round_is_minimum_cost(n):
    rng = random.Random(n)
    field = [Entrant(f"P{k}", rng.choice([1500, 1510, 1600, 1750, 1900, 2300]),
                     rng.choice(["b1", "b2", None])) for k in range(n)]
    history = History()
    for _ in range(20):
        rnd = pair_round(field, history)
        check_round(field, history, rnd)
        history.add(rnd)
    if n % 2:  # byes spread: nobody gets a second before everyone has had one
        assert max(history.byes.values()) - min(history.byes.get(e.player_id, 0)
                                                for e in field) <= 1


def test_agrees_with_networkx_on_a_forty_player_field():
    rng = random.Random(40)
    field = [Entrant(f"P{k:02d}", rng.randint(1500, 2600), f"b{rng.randint(0, 5)}")
             for k in range(40)]
    history = History()
    for _ in range(3):
        rnd = pair_round(field, history)
        limit = max_meetings(len(field))
        g = nx.Graph()
        for x in range(len(field)):
            for y in range(x + 1, len(field)):
                pair = frozenset((field[x].player_id, field[y].player_id))
                if not history.is_forbidden(pair, limit):
                    g.add_edge(x, y, weight=-pair_cost(field[x], field[y]))
        m = nx.max_weight_matching(g, maxcardinality=True)
        assert len(m) == 20
        assert rnd.cost == sum(pair_cost(field[x], field[y]) for x, y in m)
        history.add(rnd)


def test_bad_fields_are_refused():
    with pytest.raises(PairingError):
        pair_round([Entrant("A", 1500)])
    with pytest.raises(PairingError):
        pair_round([Entrant("A", 1500), Entrant("A", 1600)])


def test_hettlandic_cores_import_no_django():
    code = ("import sys, registry.events.pairing.hettlandic, registry.events.hettlandic_table\n"
            "import registry.events.hettlandic_phase2, registry.scoring.phase\n"
            "print(any(m == 'django' or m.startswith('django.') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"
