"""One round of the FIDE Dutch system as a weighted matching (``dutch.py`` says why): the
players to pair as the matching's vertices, the absolute criteria (C.1-C.4) as which edges
exist, and every quality criterion (C.5-C.21) as a field of one edge weight, the most
important in the highest bits, bbpPairings 6's layout."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from py4swiss.dynamicuint import DynamicUint
from py4swiss.matching_computer import ComputerDutchOptimality

from registry.events.pairing.dutch_players import (
    DOWN,
    NO_COLOUR,
    NO_FLOAT,
    UP,
    WIN,
    Player,
    float_of,
    invert,
)


class Weights:
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


class Round:
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
        self.f1 = [float_of(p, 1, players, played_rounds) if fl1 else NO_FLOAT for p in order]
        self.f2 = [float_of(p, 2, players, played_rounds) if fl2 else NO_FLOAT for p in order]
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
        self.dyn = Weights(offset + 4)
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
                    != invert(p.preference))):
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
