"""Issue 40's test gap: a few hundred random rounds with late entries, withdrawals, H and Z
byes and forfeits, judged on FIDE's quality criteria (C.04.3, the rules in force from 2026)
as well as the absolute ones (R43). The judge (``dutch_quality.py``, beside this file) is
written from the rules, not from the engine's weights: on fields of up to 11 players it
enumerates every legal pairing of the round and asks whether one of them is preferred, bracket
by bracket from the top, on C.5-C.8 (the bye's score, pairs kept in each bracket, the
downfloaters' scores, the next bracket's), C.9 where it decides, C.10-C.13 (colours) and
C.14-C.17 (repeated floats). It leaves C.18-C.21 and the transposition order (D.1-D.2) to the
comparisons with bbpPairings (test_swiss.py, benchmarks/check_pairings.py). The judge's own
tests show it catches a board swapped on purpose, a bye moved up and issue 40's former
pairing."""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise

from registry.events.pairing import swiss
from registry.events.pairing.model import (
    BoardPairing,
    Bye,
    Entrant,
    PairingError,
    Round,
    Tournament,
)
from registry.events.pairing.random_rounds import before_round
from tests.events.dutch_quality import Judge, as_pairing
from tests.events.test_swiss import minimal_case

SMALL = 11  # the most players present that the judge enumerates (10,395 pairings at 11)
RESULTS = (["1-0", "0-1", "=", "+-", "-+", "--"], [40, 40, 16, 2, 1, 1])


def pairs(*boards: tuple[int, int]) -> frozenset[frozenset[str]]:
    return frozenset(frozenset((f"P{a}", f"P{b}")) for a, b in boards)


def small_event(rounds: list[list[tuple[int, int, str]]], byes: dict[int, list[Bye]] | None = None,
                players: int = 4, total: int = 3) -> Tournament:
    """Players P1, P2, ... in pairing-number order; games (white, black, result) a round."""
    t = Tournament([Entrant(f"P{i}", rating=2000 - 10 * i) for i in range(1, players + 1)],
                   total_rounds=total)
    for n, games in enumerate(rounds, start=1):
        t.rounds.append(Round(n, [BoardPairing(f"P{w}", f"P{b}", res, i)
                                  for i, (w, b, res) in enumerate(games, start=1)],
                              (byes or {}).get(n, [])))
    return t


def random_rounds(seeds: range):
    """(tournament before the round, absences, the engine's round) for random Swiss events
    of 6-11 players with every kind of extra (random_rounds.before_round, as the comparisons
    with bbpPairings use)."""
    for seed in seeds:
        rng = random.Random(seed)
        t = Tournament([Entrant(f"K{i:02d}", rating=rng.randint(1000, 2500))
                        for i in range(rng.randint(6, 11))], total_rounds=rng.randint(4, 9))
        for rn in range(1, t.total_rounds + 1):
            t, absent = before_round(t, rng, rn)
            try:
                rnd = swiss.pair_round(t, absent)
            except PairingError:
                break
            yield t, absent, rnd
            for g in rnd.games:
                g.result = rng.choices(*RESULTS)[0]
            t.rounds.append(rnd)


def test_no_legal_pairing_of_a_few_hundred_random_rounds_is_preferred_by_the_rules():
    judged = 0
    extras: Counter[str] = Counter()
    for t, absent, rnd in random_rounds(range(100)):
        judge = Judge(t, absent)
        if len(judge.order) > SMALL:
            continue
        verdict = judge.best_beating(as_pairing(rnd))
        assert verdict is None, (f"round {rnd.number} of {[e.key for e in t.entrants]}: "
                                 f"{verdict}")
        judged += 1
        cells = t.cells()
        extras["H/Z bye asked"] += bool(absent)
        extras["pairing-allocated bye"] += len(judge.order) % 2
        extras["late entrant"] += any(e.joined_round == rnd.number > 1 for e in t.entrants)
        extras["withdrawn"] += any(not e.active_in(rnd.number) and e.joined_round < rnd.number
                                   for e in t.entrants)
        extras["forfeit before"] += any(c.code in ("+", "-") and c.opponent
                                        for k in judge.order for c in cells[k].values())
        extras["last round"] += rnd.number == t.total_rounds
    assert judged >= 400
    assert min(extras.values()) >= 20, extras


def test_the_judge_catches_a_swapped_board_on_colours():
    # round 2 of 4 players, both games of round 1 drawn: 1 and 4 had white, 2 and 3 black
    t = small_event([[(1, 3, "="), (4, 2, "=")]])
    ours = as_pairing(swiss.pair_round(t))
    assert ours == (pairs((1, 2), (3, 4)), None)  # every colour preference met
    judge = Judge(t, {})
    assert judge.best_beating(ours) is None
    swapped = (pairs((1, 4), (3, 2)), None)  # legal, but two players miss their colour
    verdict = judge.best_beating(swapped)
    assert verdict is not None and verdict.criterion == "C.12"


def test_the_judge_catches_a_bye_given_to_a_higher_score():
    # C.5: 5 players after round 1 (5 had the bye): 1, 2, 5 on one point, 3 and 4 on none
    t = small_event([[(1, 3, "1-0"), (4, 2, "0-1")]], byes={1: [Bye("P5", "U")]}, players=5)
    ours = as_pairing(swiss.pair_round(t))
    assert ours[1] in ("P3", "P4")
    judge = Judge(t, {})
    assert judge.best_beating(ours) is None
    moved = (pairs((2, 5), (3, 4)), "P1")  # legal: 1 may have a bye, but scores more
    verdict = judge.best_beating(moved)
    assert verdict is not None and verdict.criterion == "C.5"


def test_the_judge_catches_issue_40s_former_pairing():
    t = minimal_case()
    judge = Judge(t, {})
    assert judge.best_beating(as_pairing(swiss.pair_round(t))) is None
    former = (pairs((8, 1), (2, 7), (3, 6), (5, 4)), None)  # one pair in the 2.0 bracket
    verdict = judge.best_beating(former)
    assert verdict is not None and verdict.criterion == "C.6" and verdict.bracket_score == 2.0


def test_swapped_boards_of_random_rounds_are_caught_and_never_preferred():
    caught: Counter[str] = Counter()
    swaps = 0
    for t, absent, rnd in random_rounds(range(60)):
        judge = Judge(t, absent)
        games = [(g.white, g.black) for g in rnd.games]
        if len(judge.order) > 10 or len(games) < 2:
            continue
        ours = as_pairing(rnd)
        for (a, b), (c, d) in pairwise(games):
            if not (judge.compatible(a, d) and judge.compatible(c, b)):
                continue
            rest = ours[0] - {frozenset((a, b)), frozenset((c, d))}
            swapped = (rest | {frozenset((a, d)), frozenset((c, b))}, ours[1])
            swaps += 1
            assert judge.beats(swapped, ours) is None
            verdict = judge.best_beating(swapped)
            if verdict is not None:
                caught[verdict.criterion] += 1
    # a swap inside a bracket equal on every criterion is D.1-D.2's to decide, not caught
    assert swaps >= 150 and sum(caught.values()) >= 60, caught
    assert {"C.6", "C.7", "C.14", "C.15"} <= set(caught), caught

