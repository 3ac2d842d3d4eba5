"""Hettlandic phase 2, the medal matches (R46, book 6.4.1.3.2): rounds, ranking and awards.

The co-champions who accept play a grand-master, unrated Swiss (R43) of
min(N - 1, ceil(log2 N) + 2) rounds (N = 2: a match of 2 games with sides swapped; N = 1: no
phase 2). The final ranking is by the Swiss tie-breaks, then the phase-1 victory score; the
awards go from the lowest-ranked participant up: Bronze, Silver, Gold, Platinum, Sapphire,
Emerald, Ruby, Diamond, and above 8 participants "Tier 9", "Tier 10", ... above Diamond. A
co-champion who declines keeps the title and gets no award.

Pure. The Swiss pairing itself is the event system's (R43); this module decides how many
rounds there are and what the results of those rounds make of the participants.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

MATERIALS = ("Bronze", "Silver", "Gold", "Platinum", "Sapphire", "Emerald", "Ruby", "Diamond")
VARIANT = "grand-master"  # R46: medal matches are grand-master talu (R3 variant name)
RATED = False  # R46: and unrated


def participants(co_champions: Sequence[Hashable], accepted: Iterable[Hashable]) -> list:
    """The co-champions who accepted, in the co-champions' order (declining keeps the title)."""
    yes = set(accepted)
    unknown = yes - set(co_champions)
    if unknown:
        raise ValueError(f"only co-champions can accept phase 2: {sorted(map(str, unknown))}")
    return [p for p in co_champions if p in yes]


def rounds_for(n: int) -> int:
    """R46: min(N - 1, ceil(log2 N) + 2) Swiss rounds; 2 games for N = 2; none for N <= 1."""
    if n <= 1:
        return 0
    if n == 2:
        return 2
    return min(n - 1, math.ceil(math.log2(n)) + 2)


def match_of_two(a: Hashable, b: Hashable) -> list[tuple[Hashable, Hashable]]:
    """R46 N = 2: two games, sides swapped; ``a`` (pairing number 1) plays `I` first."""
    return [(a, b), (b, a)]


def award_name(place_from_bottom: int) -> str:
    """The award of the participant ranked ``place_from_bottom`` (1 = the lowest-ranked)."""
    if place_from_bottom < 1:
        raise ValueError("places start at 1")
    if place_from_bottom <= len(MATERIALS):
        return MATERIALS[place_from_bottom - 1]
    return f"Tier {place_from_bottom}"


def awards(ranking: Sequence[Hashable]) -> dict[Hashable, str]:
    """R46: ``ranking`` best first; the last gets Bronze and each higher one the next tier."""
    n = len(ranking)
    return {player: award_name(n - k) for k, player in enumerate(ranking)}


@dataclass(frozen=True, slots=True)
class Result:
    """One phase-2 game: ``i`` played `I`; ``score_i`` is 1, ½ or 0 (R41 event scores).
    ``o`` None is a pairing-allocated bye (1 point, no opponent)."""

    round: int
    i: Hashable
    o: Hashable | None
    score_i: Fraction


@dataclass(frozen=True, slots=True)
class Standing:
    player: Hashable
    score: Fraction
    buchholz_cut1: Fraction
    buchholz: Fraction
    direct: Fraction | None  # among the players tied with them, when all of those have met
    wins: int
    victory_score: int
    rank: int = 0
    award: str = ""


def _scores(players: Sequence[Hashable], results: Iterable[Result]):
    score = {p: Fraction(0) for p in players}
    opponents: dict[Hashable, list[Hashable | None]] = {p: [] for p in players}
    wins = dict.fromkeys(players, 0)
    head: dict[tuple[Hashable, Hashable], Fraction] = {}
    for r in results:
        if r.o is None:  # a bye: 1 point (R41), no opponent, no win over the board
            score[r.i] += 1
            opponents[r.i].append(None)
            continue
        s_i, s_o = Fraction(r.score_i), 1 - Fraction(r.score_i)
        score[r.i] += s_i
        score[r.o] += s_o
        opponents[r.i].append(r.o)
        opponents[r.o].append(r.i)
        wins[r.i] += s_i == 1
        wins[r.o] += s_o == 1
        head[(r.i, r.o)] = head.get((r.i, r.o), Fraction(0)) + s_i
        head[(r.o, r.i)] = head.get((r.o, r.i), Fraction(0)) + s_o
    return score, opponents, wins, head


def final_ranking(
    players: Sequence[Hashable],
    results: Iterable[Result],
    victory_scores: Mapping[Hashable, int],
) -> list[Standing]:
    """R46/R43: points, Buchholz cut-1, Buchholz, direct encounter, wins (FIDE C.07), then the
    phase-1 victory score, then (our addition, so the order is total) the player id; with the
    awards. An unplayed round (a bye) counts the player's own score as the opponent's in
    Buchholz (FIDE C.07, 2023)."""
    results = list(results)
    score, opponents, wins, head = _scores(players, results)

    def buchholz(p: Hashable) -> list[Fraction]:
        return sorted(score[p] if o is None else score[o] for o in opponents[p])

    bh = {p: buchholz(p) for p in players}
    standings = {p: Standing(p, score[p], sum(bh[p][1:], Fraction(0)), sum(bh[p], Fraction(0)),
                             None, wins[p], victory_scores.get(p, 0)) for p in players}

    # direct encounter among players equal on points and both Buchholz values
    def group_key(p: Hashable) -> tuple:
        s = standings[p]
        return (s.score, s.buchholz_cut1, s.buchholz)

    groups: dict[tuple, list[Hashable]] = {}
    for p in players:
        groups.setdefault(group_key(p), []).append(p)
    for tied in groups.values():
        if len(tied) < 2:
            continue
        if all((a, b) in head for a in tied for b in tied if a != b):
            for p in tied:
                d = sum((head[(p, q)] for q in tied if q != p), Fraction(0))
                s = standings[p]
                standings[p] = Standing(p, s.score, s.buchholz_cut1, s.buchholz, d, s.wins,
                                        s.victory_score)
    order = sorted(standings.values(), key=lambda s: (
        -s.score, -s.buchholz_cut1, -s.buchholz, -(s.direct or 0), -s.wins,
        -s.victory_score, str(s.player)))
    given = awards([s.player for s in order])
    return [Standing(s.player, s.score, s.buchholz_cut1, s.buchholz, s.direct, s.wins,
                     s.victory_score, k, given[s.player]) for k, s in enumerate(order, 1)]
