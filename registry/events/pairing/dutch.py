"""The FIDE Dutch system (Handbook C.04.3, the rules in force from 2026) as one weighted
matching, the design of the FIDE-endorsed bbpPairings 6.

Why our own procedure: R43 promises the pairings an endorsed program makes, at any size. No
library on PyPI does that today: py4swiss's Dutch engine implements the rules in force until
2026 (it differs from bbpPairings 6 on about one round in eight of random tournaments with
byes and forfeits), caissify-pairings' bracket procedure keeps too few pairs in some score
groups (issue 40's minimal case) and rebuilds its matchings from scratch (n^3.2), and
pairing-core is pure Python without a compiled matching. bbpPairings' published design is
short to state: every FIDE criterion, absolute (C.1-C.4) and quality (C.5-C.21), is a field
of one edge weight, most important in the highest bits, so a maximum weight matching keeps
the criteria in FIDE's order; the procedure then walks the score groups from the top and,
bracket by bracket, fixes first the moved-down players (C.04.3 B.2-B.3) and then the
exchanges and transpositions (D.1-D.2) by raising one edge at a time and asking the matching
again. We state that procedure here from the rules and that design; the matching itself is
bbpPairings' own incremental blossom algorithm, compiled in ``py4swiss`` (its public
``matching_computer`` and ``dynamicuint`` modules, MIT, the C++ Apache-2.0), which repairs its
previous optimum after a change in O(k n^2) for k changed players instead of starting again.
Every decision of the procedure is a strict preference between weights, so the pairing does
not depend on which of several equal optima a solve finds; with the same weights and the same
algorithm it is bbpPairings', which ``benchmarks/check_pairings.py`` checks round by round
(BENCHMARKS.md). Where we differ from bbpPairings is only in when we solve (``_STEP``): about
half its CPU time on a large field.

Scores are in half points (a win or a pairing-allocated bye 2, a draw or a half-point bye 1).
The engine sees players as bbpPairings reads them from the event's TRF export: ``Match`` per
round (``swiss.py`` builds them), ``absent`` for a player who has a bye of the round to pair
already (an absence the arbiter knew of, a withdrawal) and so is not paired.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from registry.events.pairing.dutch_colours import board_key, colour_of
from registry.events.pairing.dutch_players import (
    BLACK,
    NO_COLOUR,
    WHITE,
    Match,
    NoPairing,
    Pairing,
    Player,
    prepare,
)
from registry.events.pairing.dutch_round import Round

__all__ = ["BLACK", "NO_COLOUR", "WHITE", "Match", "NoPairing", "Pairing", "Player", "pair"]

# How many players' edges go into the matching between two solves when many edges change
# at once (the start of the round, each bracket's weights): repairing the optimum after a few
# changed players is cheap, while one solve after every player's edges changed is Edmonds'
# algorithm from scratch, n/2 augmentations of O(n^2) each (bbpPairings' own way; most of its
# time on a large field). The optimum reached is the same either way; round 7 of 500 players
# takes about half the CPU time (BENCHMARKS.md).
_STEP = 8


def _complete(matching: list[int], r: Round) -> bool:
    """At most one player unpaired, and that one may have the bye (C.2)."""
    unpaired = [v for v, u in enumerate(matching) if u == v]
    return len(unpaired) <= 1 and all(r.eligible[v] for v in unpaired)


def pair(players: Sequence[Player], played_rounds: int, total_rounds: int,
         initial_colour: int = WHITE,
         progress: Callable[[int, int], None] | None = None) -> Pairing:
    """The next round: ``players`` in pairing-number order, each with ``played_rounds``
    matches; ``progress(done, total)`` hears, as the pairing goes, how many of the ``total``
    players are in pairs already fixed.
    Raises ``NoPairing`` when no pairing keeps the absolute criteria."""
    for i, p in enumerate(players):
        if p.index != i:
            raise ValueError(f"players must come in pairing-number order: {p.index} at {i}")
        if len(p.matches) != played_rounds:
            raise ValueError(f"player {p.index + 1} has {len(p.matches)} rounds, "
                             f"not {played_rounds}")
    prepare(players)
    r = Round(players, played_rounds, total_rounds, initial_colour)
    r.progress = progress
    n = r.n
    if n == 0:
        return Pairing([], None)
    score = r.score
    odd = n % 2 == 1
    # 1. Can the round be paired at all (C.1-C.4), and who could have the bye (C.2, C.5)?
    #    An even field learns it from the first bracket's matching, where the same fields
    #    come first.
    for v in range(n):
        for u in range(v):
            if odd:
                value = 0
                if r.compatible(v, u):
                    value = 1 + (not r.eligible[v]) + (not r.eligible[u])
                    value = (value << r.groups_bits) | (r.sshift[v] + r.sshift[u])
                    value = (value << r.size_bits) | (score[v] >= score[0])
            else:
                value = r.weight(u, v, 0)
            r.set(v, u, value)
        if v % _STEP == _STEP - 1:
            r.solve()
            r.tell()
    if odd:
        matching = r.solve()
        if not _complete(matching, r):
            raise NoPairing("no pairing keeps every absolute criterion (C.1-C.4)")
        bye = next(v for v in range(n) if matching[v] == v)
        top = score[0]
        r.set_bye(score[bye], score[bye] >= top and all(
            score[matching[v]] >= top for v in range(n) if score[v] >= top),
            [r.sorted[v].played_games for v in range(n) if score[v] == score[bye]])
        for v in range(n):
            for u in range(v):
                r.set(v, u, r.weight(u, v, 0))
            if v % _STEP == _STEP - 1:
                r.solve()
    # 2. Bracket by bracket from the top (C.04.3 B)
    partner: dict[int, int] = {}
    by: list[int] = []  # the bracket's players (moved-down first), then the next score group
    nxt = 0
    while nxt < n and score[nxt] >= score[0]:
        by.append(nxt)
        nxt += 1
    mdp_count = 0  # moved-down players at the head of ``by``
    group_vertex = 0  # the first vertex of the bracket's own score group
    matched = [False] * n
    while len(by) > 1 or nxt < n:
        bracket_end = len(by)
        next_vertex = group_vertex + (bracket_end - mdp_count)
        group_start = nxt
        while nxt < n and score[nxt] >= score[group_start]:
            by.append(nxt)
            nxt += 1
        stable = _pair_bracket(r, by, mdp_count, bracket_end, group_vertex, next_vertex,
                               matched)
        # the next bracket: the players left over (moved down) and the next score group
        left: list[int] = []
        mdp_count = 0
        single = odd and group_start < n and r.bye_score >= score[group_start]
        for i, v in enumerate(by):
            if i < bracket_end and matched[v]:
                partner[v] = stable[v]
                partner[stable[v]] = v
            else:
                left.append(v)
                if i < bracket_end:
                    mdp_count += 1
                if single and score[stable[v]] < score[group_start]:
                    single = False
        if single != r.single_downfloater_is_bye:
            r.single_downfloater_is_bye = single
        by = left
        group_vertex = next_vertex
        r.tell()
    boards: list[tuple[int, int]] = []
    bye_index = None
    for v in range(n):
        u = partner.get(v)
        if u is None:
            bye_index = r.sorted[v].index
        elif r.sorted[v].index < r.sorted[u].index:
            p, q = r.sorted[v], r.sorted[u]
            boards.append((p.index, q.index) if colour_of(r, v, u) == WHITE
                          else (q.index, p.index))
    boards.sort(key=lambda wb: board_key(players[wb[0]], players[wb[1]]))
    return Pairing(boards, bye_index)


def _pair_bracket(r: Round, by: list[int], mdp_count: int, bracket_end: int,
                  group_vertex: int, next_vertex: int, matched: list[bool]) -> list[int]:
    """Pair one bracket (``by[:bracket_end]``: its moved-down players, then its score group;
    ``by[bracket_end:]`` the next score group, which the bracket's floaters must leave
    pairable). Marks the pairs fixed in ``matched`` and returns the matching."""
    size_bits = r.size_bits
    # the base weights of every pair that involves the bracket's residents or the next group
    base: list[list[int]] = [[] for _ in by]
    weight = r.weight
    for big in range(mdp_count, len(by)):
        mode = 1 if big < bracket_end else 2
        row = base[big]
        vb = by[big]
        for small in range(big):
            row.append(weight(by[small], vb, mode))
    for big in range(len(by)):
        vb = by[big]
        for small, value in enumerate(base[big]):
            r.set(vb, by[small], value)
        if big % _STEP == _STEP - 1:
            r.solve()

    def resident(v: int, stable: list[int]) -> bool:
        return group_vertex <= stable[v] < next_vertex

    def with_exchange(small: int, big: int, position: int, s1_size: int) -> int:
        """A remainder's weight with D.1's preferences: the fewest exchanges (a player of
        S1 kept in S1), then the smallest differences of the exchanged numbers."""
        value = base[big][small]
        if value:
            value += (((position < s1_size) << (2 * size_bits)) - position) << 1
        return value

    stable = r.solve()
    if not _complete(stable, r):
        raise NoPairing("no pairing keeps every absolute criterion (C.1-C.4)")
    # B.2-B.3: which moved-down players are paired in the bracket (the most, the highest)
    moved_score = None
    left = paired_left = 0
    for i in range(mdp_count):
        v = by[i]
        if i == 0 or r.score[v] < moved_score:
            moved_score = r.score[v]
            left = paired_left = 0
            k = i
            while k < len(by) and r.score[by[k]] >= moved_score:
                left += 1
                paired_left += resident(by[k], stable)
                k += 1
        if not paired_left:
            continue
        if left <= paired_left:
            matched[v] = True
            continue
        left -= 1
        if not resident(v, stable):
            for o in range(mdp_count, bracket_end):
                value = base[o][i]
                if value:
                    r.set(v, by[o], value | 1)
            stable = r.solve()
        if resident(v, stable):
            matched[v] = True
            paired_left -= 1
            for o in range(mdp_count, bracket_end):
                value = base[o][i]
                if value:
                    r.set(v, by[o], (value | (bracket_end - mdp_count)) + 1)
    # their opponents: each moved-down player the highest resident it can take
    for i in range(mdp_count):
        v = by[i]
        if not matched[v]:
            continue
        addend = len(by)
        for o in range(bracket_end - 1, mdp_count - 1, -1):
            u = by[o]
            if matched[u]:
                continue
            value = base[o][i]
            if value:
                r.set(v, u, value + addend)
                addend += 1
        stable = r.solve()
        mate = stable[v]
        matched[mate] = True
        r.finalize(v, mate)
    # the remainder (homogeneous): S1 and S2, exchanges (D.1), then transpositions (D.2)
    remainder = [i for i in range(mdp_count, bracket_end) if stable[by[i]] >= group_vertex]
    s1 = sum(1 for i in remainder if stable[by[i]] < by[i])
    for a, o in enumerate(remainder):
        u = by[o]
        for position, i in enumerate(remainder[:a]):
            r.set(by[i], u, with_exchange(i, o, position, s1))
    stable = r.solve()
    exchanges = 0
    for i in remainder[:s1]:
        v = by[i]
        exchanges += stable[v] <= v or stable[v] >= next_vertex
    # the lowest of S1 to leave S1 (D.1: exchange the smallest numbers)...
    remaining = exchanges
    position = s1
    k = s1
    while k > 0 and remaining:
        start = k
        position -= 1
        k -= 1
        i = remainder[k]
        v = by[i]
        if v < stable[v] < next_vertex:
            for o in remainder[start:]:
                value = with_exchange(i, o, position, s1)
                if value:
                    r.set(v, by[o], value - 1)
            stable = r.solve()
        leaves = stable[v] <= v or stable[v] >= next_vertex
        remaining -= leaves
        for o in remainder[k + 1:]:
            if leaves:
                base[o][i] = 0
            r.set(v, by[o], with_exchange(i, o, position, s1))
    # ... and the highest of S2 to enter it
    remaining = exchanges
    position = s1
    for k in range(s1, len(remainder)):
        if remaining <= 1:
            break
        i = remainder[k]
        v = by[i]
        already = v < stable[v] < next_vertex
        if not already:
            for o in remainder[k + 1:]:
                value = with_exchange(i, o, position, s1)
                if value:
                    r.set(v, by[o], value + 1)
            stable = r.solve()
        enters = v < stable[v] < next_vertex
        if enters:
            remaining -= 1
            for o in remainder[:k]:
                base[i][o] = 0
                r.set(v, by[o], 0)
            for o in range(bracket_end, len(by)):
                base[o][i] = 0
                r.set(v, by[o], 0)
        if not already:
            for o in remainder[k + 1:]:
                r.set(v, by[o], with_exchange(i, o, position, s1))
        position += 1
    # S1 and S2 fixed: only pairs of an S1 player with a later S2 player stay
    for a, i in enumerate(remainder):
        v = by[i]
        out = stable[v] <= v or stable[v] >= next_vertex
        for o in remainder[a + 1:]:
            u = by[o]
            if out or u < stable[u] < next_vertex:
                base[o][i] = 0
            r.set(v, u, base[o][i])
    # D.2: each S1 player, from the top, takes the highest S2 player that still completes
    for i in remainder:
        v = by[i]
        if not v < stable[v] < next_vertex:
            continue
        addend = 0
        for o in reversed(remainder):
            u = by[o]
            if o <= i or matched[u]:
                continue
            value = base[o][i]
            if value:
                r.set(v, u, value + addend)
            addend += 1
        stable = r.solve()
        mate = stable[v]
        matched[v] = matched[mate] = True
        r.finalize(v, mate)
    return stable
