"""A whole 6-player Hettlandic phase 1, pure: 20 rounds paired by R44, every game scored by the
S3 core from its tally, the table (R28) and the phase's rating entry (R45), checked against
numbers worked out here by hand from the book's formulas (not by the code under test).

The players' strength is a fixed order (A beats everyone, B everyone but A, ...), so who wins
each game is known; every game is a 30-round clean invasion with nothing else scored, so each
winner's and loser's NPc is one of two numbers computed below by hand.
"""

from __future__ import annotations

import math
from collections import Counter

import pytest

from registry.events.hettlandic_table import PhaseGame, co_champions, phase_table
from registry.events.pairing.hettlandic import Entrant, History, pair_round
from registry.scoring.cascade import PlayerState, RatedGame
from registry.scoring.phase import PhaseStart, RatedPhase, replay
from tests.scoring.helpers import make_tally

FIELD = [Entrant("A", 1800, "north"), Entrant("B", 1790, "north"), Entrant("C", 1650, "east"),
         Entrant("D", 1640, "west"), Entrant("E", 1500, "east"), Entrant("F", 1490, "west")]
STRENGTH = "ACEBDF"  # who beats whom: earlier in this string wins

# By hand (R23): the winner's invasion is C.c = 3 points, the loser's 0: ncr = 2 x 4^2 /
# (4^2 + 1^2) = 32/17 and 2/17. Capture, threat, intrusion, defense 0 v 0: ncr 1. Speed, 30
# rounds: 1 + 20/50 = 1.4 for both. No G code: one success entry, 2 (winner) or 1 (loser).
NPC_WIN = (32 / 17 * 1.4 * 2) ** (1 / 7)
NPC_LOSS = (2 / 17 * 1.4 * 1) ** (1 / 7)


def tally_won_by(side: str):
    codes = {"C.c": 1}
    return make_tally(codes if side == "I" else {}, codes if side == "O" else {}, rounds=30,
                      winner=side, reason="invasion")


def play_phase():
    history = History()
    games: list[PhaseGame] = []
    forced = []
    for rnd in range(1, 21):
        paired = pair_round(FIELD, history)
        if not paired.forbidden_allowed:  # R44: then no pair is repeated beyond its limits
            assert not ({g.players for g in paired.games} & history.last_pairs)
            assert all(history.meetings[g.players] < 4 for g in paired.games)
        else:
            forced.append(rnd)
        history.add(paired)
        for k, g in enumerate(paired.games):
            winner = "I" if STRENGTH.index(g.i) < STRENGTH.index(g.o) else "O"
            games.append(PhaseGame(rnd, RatedGame.from_tally(f"r{rnd}g{k}", g.i, g.o,
                                                             tally_won_by(winner), "S3")))
    return history, games, forced


def test_hand_worked_npc():
    assert abs(NPC_WIN - 1.26801) < 1e-5
    assert abs(NPC_LOSS - 0.77286) < 1e-5
    # and the S3 core agrees on the tally
    figures = RatedGame.from_tally("g", "X", "Y", tally_won_by("O")).figures
    assert figures.sides["O"].npc == pytest.approx(NPC_WIN, rel=1e-12)
    assert figures.sides["I"].npc == pytest.approx(NPC_LOSS, rel=1e-12)


def test_six_player_phase_one():
    history, games, forced = play_phase()
    start = {e.player_id: e.rating for e in FIELD}
    # R44: everyone plays every round (even field, no bye); ceil(20 / 5) = 4 meetings a pair
    # is exactly the 60 games of 15 pairs, so the round-by-round matching is forced to
    # repeat late in the phase (checked in play_phase: only in the rounds it had to)
    per_player = Counter(p for pg in games for p in (pg.game.player_i, pg.game.player_o))
    assert per_player == dict.fromkeys(start, 20) and not history.byes
    assert forced and min(forced) > 10
    # side rule (fewer games as I plays I): everyone plays I 10 times, give or take one
    as_i = Counter(pg.game.player_i for pg in games)
    assert all(9 <= as_i[p] <= 11 for p in start) and sum(as_i.values()) == 60

    # by hand: each player's APc per game, final coefficient, victory score, new rating
    expected: dict[str, tuple[int, int, int]] = {}
    for pid, rating in start.items():
        logs = []
        wins = 0
        for pg in games:
            g = pg.game
            if pid not in (g.player_i, g.player_o):
                continue
            opp = g.player_o if g.player_i == pid else g.player_i
            won = STRENGTH.index(pid) < STRENGTH.index(opp)
            wins += won
            npc = NPC_WIN if won else NPC_LOSS
            ec = 2 * rating / (rating + start[opp])
            logs.append(math.log(2 * npc / (npc + ec)))
        fc = math.exp(sum(logs) / len(logs))
        expected[pid] = (wins, math.floor(100 * fc + 0.5), math.floor(rating * fc + 0.5))

    table = phase_table(start, games)
    got = {r.player: (r.wins, r.victory_score, None) for r in table}
    assert {p: v[:2] for p, v in got.items()} == {p: v[:2] for p, v in expected.items()}
    assert co_champions(table) == [p for p in sorted(expected, key=lambda p: -expected[p][1])
                                   if expected[p][1] >= 115]
    # A wins all 20; F loses all 20
    assert expected["A"][0] == 20 and expected["F"][0] == 0
    # the running score of each line is the victory score of the games so far
    a = next(r for r in table if r.player == "A")
    assert a.lines[-1].running_score == a.victory_score

    seeds = {e.player_id: PlayerState(e.player_id, stratum=3, rating=e.rating) for e in FIELD}
    result = replay([PhaseStart("GTT", tuple(start)),
                     RatedPhase("GTT", tuple(pg.game for pg in games))], seeds)
    assert {p: s.rating for p, s in result.players.items()} == \
        {p: v[2] for p, v in expected.items()}
    assert all(s.games == 20 and s.stratum_games == 20 for s in result.players.values())
