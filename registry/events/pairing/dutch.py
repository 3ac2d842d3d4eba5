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
from dataclasses import dataclass, field

from py4swiss.dynamicuint import DynamicUint
from py4swiss.matching_computer import ComputerDutchOptimality

WHITE, BLACK, NO_COLOUR = 0, 1, 2
WIN, DRAW, LOSS = 2, 1, 0  # half points
DOWN, UP, NO_FLOAT = 0, 1, 2


def _invert(colour: int) -> int:
    return NO_COLOUR if colour == NO_COLOUR else 1 - colour


class NoPairing(Exception):
    """No pairing of the round keeps every absolute criterion (C.1-C.4)."""


@dataclass(frozen=True)
class Match:
    """One round of a player as the TRF holds it. ``opponent`` is the opponent's index, or
    None for a round without an opponent (a bye of any kind, or no entry); ``points`` in half
    points; ``played``: a game actually played; ``paired``: the player took part in that
    round's pairing (a game, played or not, or the pairing-allocated bye)."""

    opponent: int | None
    colour: int
    points: int
    played: bool
    paired: bool


@dataclass
class Player:
    """One entrant, ``index`` its place in pairing-number order (0 = pairing number 1)."""

    index: int
    matches: list[Match]
    absent: bool = False
    # derived by ``_prepare``
    valid: bool = field(default=False, init=False)
    rank: int = field(default=0, init=False)
    score: int = field(default=0, init=False)
    scores_before: list[int] = field(default_factory=list, init=False)
    played_games: int = field(default=0, init=False)
    preference: int = field(default=NO_COLOUR, init=False)
    imbalance: int = field(default=0, init=False)
    repeated: int = field(default=NO_COLOUR, init=False)
    strong: bool = field(default=False, init=False)
    eligible_for_bye: bool = field(default=True, init=False)

    @property
    def absolute_imbalance(self) -> bool:
        return self.imbalance > 1

    @property
    def absolute_preference(self) -> bool:
        return self.imbalance > 1 or self.repeated != NO_COLOUR


@dataclass(frozen=True)
class Pairing:
    """The round's result: (white, black) indices in board order, and the bye's index."""

    boards: list[tuple[int, int]]
    bye: int | None


def _prepare(players: Sequence[Player]) -> None:
    """Scores, colour preferences (C.04.3 A.6), bye eligibility (C.04.1: no second bye, and
    none after a win without a game) and ranks: the rank counts only the players of this round
    and those who took part in an earlier pairing, as bbpPairings does (a player absent from
    every round so far shifts no one's colours, E.5)."""
    rank = 0
    for p in players:
        p.valid = not p.absent or any(m.paired for m in p.matches)
        if p.valid:
            p.rank = rank
            rank += 1
        total, before = 0, [0]
        for m in p.matches:
            total += m.points
            before.append(total)
        p.score, p.scores_before = total, before
        white = black = run = 0
        last = NO_COLOUR
        for m in p.matches:
            if not m.played:
                continue
            white += m.colour == WHITE
            black += m.colour == BLACK
            run = run + 1 if run and m.colour == last else 1
            last = m.colour
        p.played_games = white + black
        lower = BLACK if white > black else WHITE
        p.imbalance = abs(white - black)
        p.preference = (lower if p.imbalance > 1 else _invert(last) if run > 1
                        else lower if p.imbalance > 0 else _invert(last) if run
                        else NO_COLOUR)
        p.repeated = last if run > 1 else NO_COLOUR
        p.strong = not p.absolute_preference and p.imbalance > 0
        p.eligible_for_bye = not any(
            not m.played and (m.points >= WIN or (m.paired and m.opponent is None))
            for m in p.matches)


def _float(p: Player, back: int, players: Sequence[Player], played_rounds: int) -> int:
    """The float of ``p`` ``back`` rounds ago (A.4): a round without a game that scored points
    is a downfloat; a game against a higher (lower) score an upfloat (downfloat)."""
    m = p.matches[played_rounds - back]
    if not m.played:
        return DOWN if m.points > LOSS else NO_FLOAT
    mine = p.scores_before[played_rounds - back]
    theirs = players[m.opponent].scores_before[played_rounds - back]
    return DOWN if mine > theirs else UP if mine < theirs else NO_FLOAT


class _Weights:
    """Python ints to the matching's ``DynamicUint``s, all of one width (the maximum weight's
    parts); the same value is built once and reused (the computer copies what it is given)."""

    def __init__(self, bits: int) -> None:
        grown = DynamicUint(1)
        grown.shift_grow(bits)
        self.zero = grown & 0
        self._chunks: dict[tuple[int, int], DynamicUint] = {}
        self._cache: dict[int, DynamicUint] = {0: self.zero}

    def __call__(self, value: int) -> DynamicUint:
        out = self._cache.get(value)
        if out is not None:
            return out
        out = DynamicUint(self.zero)
        k, rest = 0, value
        while rest:
            chunk = rest & 0xFFFFFFFF
            if chunk:
                part = self._chunks.get((k, chunk))
                if part is None:
                    part = DynamicUint(self.zero)
                    part |= chunk
                    part <<= 32 * k
                    self._chunks[(k, chunk)] = part
                out += part
            rest >>= 32
            k += 1
        if len(self._cache) < 200_000:
            self._cache[value] = out
        return out


# How many players' edges go into the matching between two solves when many edges change
# at once (the start of the round, each bracket's weights): repairing the optimum after a few
# changed players is cheap, while one solve after every player's edges changed is Edmonds'
# algorithm from scratch, n/2 augmentations of O(n^2) each (bbpPairings' own way; most of its
# time on a large field). The optimum reached is the same either way; round 7 of 500 players
# takes about half the CPU time (BENCHMARKS.md).
_STEP = 8


class _Round:
    """One round's pairing: the players to pair sorted by score and rank (the vertices of the
    matching), the layout of the edge weight and the matching computer."""

    def __init__(self, players: Sequence[Player], played_rounds: int, total_rounds: int,
                 initial_colour: int) -> None:
        self.played_rounds = played_rounds
        self.initial_colour = initial_colour
        self.last_round = played_rounds >= total_rounds - 1
        self.top_threshold = played_rounds * WIN >> 1
        order = sorted((p for p in players if p.valid and not p.absent),
                       key=lambda p: (-p.score, p.rank))
        self.sorted = order
        n = self.n = len(order)
        self.score = [p.score for p in order]
        vertex = {p.index: v for v, p in enumerate(order)}
        # C.1: no two players meet twice (games actually played, C.04.1)
        self.met: list[set[int]] = [set() for _ in range(n)]
        for v, p in enumerate(order):
            for m in p.matches:
                if m.played and m.opponent in vertex:
                    self.met[v].add(vertex[m.opponent])
        # C.3: the colour a player must have (None: none absolute)
        self.must = [p.preference if p.absolute_preference else None for p in order]
        # the bits of a score group's size, and where each score's bit lies in the fields
        # that weigh scores (a run of bits a score group, the lowest scores lowest)
        shifts: dict[int, int] = {}
        shift = largest = count = 0
        for v in range(n - 1, -1, -1):
            count += 1
            if v == 0 or self.score[v - 1] > self.score[v]:
                shifts[self.score[v]] = shift
                largest = max(largest, count)
                shift += count.bit_length()
                count = 0
        self.sshift = [shifts[s] for s in self.score]
        self.size_bits = g = largest.bit_length()
        self.groups_bits = h = shift
        fl1, fl2 = played_rounds >= 1, played_rounds > 1
        self.f1 = [_float(p, 1, players, played_rounds) if fl1 else NO_FLOAT for p in order]
        self.f2 = [_float(p, 2, players, played_rounds) if fl2 else NO_FLOAT for p in order]
        # the fields of the weight below the top one (C.5 ... C.21), in order; their offsets
        # from the lowest bit
        widths = [("pairs", g), ("scores", h), ("next_pairs", g), ("next_scores", h),
                  ("bye_unplayed", 2 * g), ("c_imbalance", g), ("c_absolute", g),
                  ("c_preference", g), ("c_strong", g)]
        if fl1:
            widths += [("down1", g), ("up1", g)]
        if fl2:
            widths += [("down2", g), ("up2", g)]
        if fl1:
            widths += [("down1_scores", h), ("up1_scores", h)]
        if fl2:
            widths += [("down2_scores", h), ("up2_scores", h)]
        widths += [("room", 3 * g + 1)]  # for the exchanges' and transpositions' adjustments
        offset = 0
        self.at: dict[str, int] = {}
        for name, width in reversed(widths):
            self.at[name] = offset
            offset += width
        self.top_at = offset
        # the largest weight: the top field's two bits; two more bits of room for the
        # matching's own arithmetic
        self.max_value = (1 << (offset + 2)) - 1
        self.dyn = _Weights(offset + 4)
        self.max_weight = self.dyn(self.max_value)
        self.computer = ComputerDutchOptimality(n, self.max_weight)
        for _ in range(n):
            self.computer.add_vertex()
        self.put = self.computer.set_edge_weight
        self.progress: Callable[[int, int], None] | None = None
        self.paired = 0  # players in pairs fixed so far
        self.eligible = [p.eligible_for_bye for p in order]
        self.bye_score = 0
        self.single_downfloater_is_bye = False
        self.unplayed_rank: dict[int, int] = {}
        self._profiles()

    def _profiles(self) -> None:
        """Every player's part of the weight, numbered: two players of one profile weigh the
        same against anyone, so a pair's weight is computed once per pair of profiles."""
        self.candidate = [e and s <= self.bye_score
                          for e, s in zip(self.eligible, self.score, strict=True)]
        ids: dict[tuple, int] = {}
        self.profile = []
        for v, p in enumerate(self.sorted):
            key = (self.candidate[v], self.score[v], p.preference, p.imbalance, p.repeated,
                   p.strong, self.f1[v], self.f2[v], p.played_games)
            self.profile.append(ids.setdefault(key, len(ids)))
        self._weights: dict[tuple[int, int, int, bool], int] = {}

    def set_bye(self, score: int, single: bool, counts: list[int]) -> None:
        """The bye assignee's score (C.5), whether the top group's one downfloater is it, and
        the ranks of the played-game counts of its score group (C.9)."""
        self.bye_score = score
        self.single_downfloater_is_bye = single
        self.unplayed_rank = {c: i for i, c in enumerate(sorted(counts, reverse=True))}
        self._profiles()

    # -- the absolute criteria and the weights

    def compatible(self, a: int, b: int) -> bool:
        """C.1 (not met before) and C.3 (not two players with the same absolute colour
        preference, except in the last round when one of them has over half the points)."""
        if b in self.met[a]:
            return False
        must_a = self.must[a]
        if must_a is None or must_a != self.must[b]:
            return True
        return self.last_round and (self.score[a] > self.top_threshold
                                    or self.score[b] > self.top_threshold)

    def weight(self, hi: int, lo: int, mode: int) -> int:
        """The edge weight of ``hi`` (the higher in the bracket's order) and ``lo``; ``mode``
        1 when ``lo`` is in the bracket, 2 when in the next score group, else 0."""
        if not self.compatible(hi, lo):
            return 0
        key = (self.profile[hi], self.profile[lo], mode, self.single_downfloater_is_bye)
        w = self._weights.get(key)
        if w is None:
            w = self._weights[key] = self._weight(hi, lo, mode)
        return w

    def _weight(self, hi: int, lo: int, mode: int) -> int:
        """Every criterion a field, the most important highest (C.04.3 C, in order)."""
        at = self.at
        cand = self.candidate
        w = (1 + (not cand[hi]) + (not cand[lo])) << self.top_at  # C.1-C.4, C.5
        score = self.score
        if self.single_downfloater_is_bye:
            # C.9: the bye assignee with the fewest unplayed games
            extra = 0
            if score[hi] == self.bye_score:
                extra += self.unplayed_rank[self.sorted[hi].played_games]
            if score[lo] == self.bye_score:
                extra += self.unplayed_rank[self.sorted[lo].played_games]
            w += extra << at["bye_unplayed"]
        if mode == 2:
            return w + (1 << at["next_pairs"]) + (1 << (at["next_scores"] + self.sshift[hi]))
        if mode == 0:
            return w
        # C.6-C.8: the most pairs in the bracket, and the highest scores among them
        w += (1 << at["pairs"]) + (1 << (at["scores"] + self.sshift[hi]))
        p, q = self.sorted[lo], self.sorted[hi]  # "player" and "opponent" of the colour rules
        # C.10-C.13: colours
        if not p.absolute_imbalance or not q.absolute_imbalance or p.preference != q.preference:
            w += 1 << at["c_imbalance"]
        if (not p.absolute_preference or not q.absolute_preference
                or p.preference != q.preference
                or ((p.repeated == NO_COLOUR or p.repeated != q.repeated)
                    if p.imbalance == q.imbalance
                    else (q if p.imbalance > q.imbalance else p).repeated
                    != _invert(p.preference))):
            w += 1 << at["c_absolute"]
        if (p.preference != q.preference or p.preference == NO_COLOUR
                or q.preference == NO_COLOUR):
            w += 1 << at["c_preference"]
        if ((not p.strong and not p.absolute_preference)
                or (not q.strong and not q.absolute_preference)
                or (p.absolute_preference and q.absolute_preference)
                or p.preference != q.preference):
            w += 1 << at["c_strong"]
        # C.14-C.21: floats of the last two rounds, and their scores
        higher_score = score[hi] > score[lo]
        for back, fl in ((1, self.f1), (2, self.f2)):
            if back > self.played_rounds:
                break
            down_lo, down_hi, up_lo = fl[lo] == DOWN, fl[hi] == DOWN, fl[lo] == UP
            w += (down_lo + (score[hi] <= score[lo] and down_hi)) << at[f"down{back}"]
            if not (higher_score and up_lo):
                w += (1 << at[f"up{back}"]) + (1 << (at[f"up{back}_scores"] + self.sshift[hi]))
            w += ((down_lo << self.sshift[lo]) + (down_hi << self.sshift[hi])) << at[
                f"down{back}_scores"]
        return w

    def set(self, u: int, v: int, value: int) -> None:
        self.put(u, v, self.dyn(value))

    def solve(self) -> list[int]:
        self.computer.compute_matching()
        return self.computer.get_matching()

    def finalize(self, a: int, b: int) -> None:
        """Fix the pair a-b: its edge the heaviest, every other edge of a and b gone."""
        put, zero, top = self.put, self.dyn.zero, self.max_weight
        for u in range(self.n):
            if u != a:
                put(a, u, top if u == b else zero)
            if u != b:
                put(b, u, top if u == a else zero)
        self.paired += 2
        self.tell()

    def tell(self) -> None:
        if self.progress is not None:
            self.progress(self.paired, self.n)


def _complete(matching: list[int], r: _Round) -> bool:
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
    _prepare(players)
    r = _Round(players, played_rounds, total_rounds, initial_colour)
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
            boards.append((p.index, q.index) if _colour(r, v, u) == WHITE
                          else (q.index, p.index))
    boards.sort(key=lambda wb: _board_key(players[wb[0]], players[wb[1]]))
    return Pairing(boards, bye_index)


def _pair_bracket(r: _Round, by: list[int], mdp_count: int, bracket_end: int,
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


def _higher(r: _Round, v: int, u: int) -> bool:
    return (r.score[v], -r.sorted[v].rank) > (r.score[u], -r.sorted[u].rank)


def _first_difference(p: Player, q: Player) -> tuple[int, int]:
    """The colours of the latest round, among the games each played, in which they differ."""
    a = [m.colour for m in p.matches if m.played]
    b = [m.colour for m in q.matches if m.played]
    i, j = len(a) - 1, len(b) - 1
    while i >= 0 and j >= 0 and a[i] == b[j]:
        i, j = i - 1, j - 1
    return (a[i] if i >= 0 else NO_COLOUR), (b[j] if j >= 0 else NO_COLOUR)


def _colour(r: _Round, v: int, u: int) -> int:
    """The colour of vertex ``v`` against ``u`` (C.04.3 E.1-E.5)."""
    p, q = r.sorted[v], r.sorted[u]
    neutral = _neutral_colour(p, q)  # E.1-E.3
    if neutral != NO_COLOUR:
        return neutral
    they_are_higher = _higher(r, u, v)
    if p.preference != NO_COLOUR:  # E.4: the higher-ranked player's preference
        return _invert(q.preference) if they_are_higher else p.preference
    # E.5: the higher-ranked player takes the initial colour if its rank is odd (counted
    # from 1), the other colour if even
    higher = q if they_are_higher else p
    theirs = _invert(r.initial_colour) if higher.rank & 1 else r.initial_colour
    return _invert(theirs) if they_are_higher else theirs


def _neutral_colour(p: Player, q: Player) -> int:
    if p.preference != q.preference or NO_COLOUR in (p.preference, q.preference):
        if p.preference != NO_COLOUR:
            return p.preference
        if q.preference != NO_COLOUR:
            return _invert(q.preference)
        return NO_COLOUR
    if p.absolute_preference and (p.imbalance > q.imbalance or not q.absolute_preference):
        return p.preference
    if q.absolute_preference and (q.imbalance > p.imbalance or not p.absolute_preference):
        return _invert(q.preference)
    if p.strong and not q.strong:
        return p.preference
    if q.strong and not p.strong:
        return _invert(q.preference)
    mine, theirs = _first_difference(p, q)
    if mine != NO_COLOUR and theirs != NO_COLOUR:
        return theirs
    return NO_COLOUR


def _board_key(white: Player, black: Player) -> tuple:
    """Board order: the higher player's score, then the lower's, then the higher's rank."""
    hi, lo = (white, black) if (white.score, -white.rank) > (black.score, -black.rank) \
        else (black, white)
    return (-hi.score, -lo.score, hi.rank)
