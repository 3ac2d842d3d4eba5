"""Hettlandic phase 1 pairing (R44, book 6.4.1.3.1): one round of the performance trials.

Every round each participant plays one game against an opponent of comparable strength. With
an odd field one player sits out (a bye: no game, no score, no coefficient); the rest are
paired by a minimum-cost perfect matching. Everything here is a pure function of the field
(ratings and bodies at the start of the phase) and the rounds already paired, so a round can be
paired again and checked by anyone.

The matching is a well-kept library's blossom algorithm, not our own: rustworkx's
``max_weight_matching`` (a Rust port of networkx's, ~100 times faster: a 300-player round in
well under a second, where networkx takes tens of seconds). With ``max_cardinality`` on a
complete graph every matching considered is perfect, and with weight = BIG - cost the heaviest
of them is the cheapest perfect matching. All costs are integers, so the result is exact; the
tests check it against a brute force and against networkx.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import rustworkx as rx

ROUNDS = 20  # R44: phase 1 has 20 rounds
VARIANT = "standard"  # R44: phase 1 is standard talu (R3 variant name)
MODEL = "S3"  # R44: S3 for every player whatever their stratum
GTT_MIN_RATING = 1500  # book 6.4.1.1: the GTT's entry condition (an event setting, R41)
SAME_BODY_COST = 400  # R44: both registered by the same affiliated body
FORBIDDEN_COST = 10_000  # R44: a forbidden pair when no matching avoids every one


class PairingError(ValueError):
    """The field cannot be paired (fewer than 2 players, a player twice, a bad history)."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """A participant as pairing sees them: rating at the start of the phase (R44, R45) and
    the affiliated body they are registered by (None: no body, never "the same")."""

    player_id: str
    rating: int
    body: str | None = None


@dataclass(frozen=True, slots=True)
class SidedPair:
    """Two entrants paired for a game, with their sides: ``i`` plays `I` (the first side), ``o``
    plays `O` (not play's ``Game``: nothing is played yet)."""

    i: str
    o: str

    @property
    def players(self) -> frozenset[str]:
        return frozenset((self.i, self.o))


@dataclass(frozen=True, slots=True)
class Round:
    """A paired round: its games (cheapest first, then by `I`'s id) and the bye, if any."""

    games: tuple[SidedPair, ...]
    bye: str | None
    cost: int  # the matching's total cost, penalties included
    forbidden_allowed: bool  # True when no matching avoided every forbidden pair


def eligible(rating: int, min_rating: int | None = GTT_MIN_RATING) -> bool:
    """Book 6.4.1.1 / R41: may a player rated ``rating`` at registration enter (None: open)?"""
    return min_rating is None or rating >= min_rating


def max_meetings(n: int) -> int:
    """R44: a pair that has met ceil(20 / (N - 1)) times may not meet again (N = 2: 20)."""
    if n < 2:
        raise PairingError("a Hettlandic phase needs at least 2 participants")
    return math.ceil(ROUNDS / (n - 1))


def pair_cost(a: Entrant, b: Entrant) -> int:
    """R44: |R_a - R_b| + 400 when both are registered by the same affiliated body."""
    cost = abs(a.rating - b.rating)
    if a.body is not None and a.body == b.body:
        cost += SAME_BODY_COST
    return cost


def choose_bye(field: Sequence[Entrant], byes: Mapping[str, int]) -> Entrant:
    """R44: the fewest byes, then the lowest rating, then the greatest player id."""
    return min(field, key=lambda e: (byes.get(e.player_id, 0), e.rating,
                                     _descending(e.player_id)))


def _descending(text: str) -> tuple[int, ...]:
    """A key that sorts strings in reverse (greatest first) inside an ascending ``min``."""
    return (*(-ord(c) for c in text), 0)


class History:
    """What earlier rounds decide about the next one: meetings, the last round's pairs, byes,
    games played and the side of each player's last game."""

    def __init__(self, rounds: Iterable[Round] = ()) -> None:
        self.meetings: Counter[frozenset[str]] = Counter()
        self.last_pairs: set[frozenset[str]] = set()
        self.byes: Counter[str] = Counter()
        self.games: Counter[str] = Counter()
        self.games_as_i: Counter[str] = Counter()
        self.last_side: dict[str, str] = {}
        self.rounds = 0
        for rnd in rounds:
            self.add(rnd)

    def add(self, rnd: Round) -> None:
        self.rounds += 1
        self.last_pairs = {g.players for g in rnd.games}
        if rnd.bye is not None:
            self.byes[rnd.bye] += 1
        for g in rnd.games:
            self.meetings[g.players] += 1
            self.games[g.i] += 1
            self.games[g.o] += 1
            self.games_as_i[g.i] += 1
            self.last_side[g.i] = "I"
            self.last_side[g.o] = "O"

    def is_forbidden(self, pair: frozenset[str], limit: int) -> bool:
        """R44: the same two players in consecutive rounds, or already met ``limit`` times."""
        return pair in self.last_pairs or self.meetings[pair] >= limit


def sides(a: Entrant, b: Entrant, history: History) -> SidedPair:
    """R44 side rule: the player with fewer games as `I` plays `I`; if equal, the one who was
    `O` in their last game; if equal, the higher rating; then (our addition, so the rule always
    decides) the smaller player id."""
    def key(e: Entrant) -> tuple:
        was_o = history.last_side.get(e.player_id) == "O"
        return (history.games_as_i[e.player_id], not was_o, -e.rating, e.player_id)

    first, second = sorted((a, b), key=key)
    return SidedPair(first.player_id, second.player_id)


def _matching(n: int, edges: list[tuple[int, int, int]]) -> set[tuple[int, int]]:
    """A maximum-weight matching among maximum-cardinality ones over ``edges`` (u, v, weight):
    perfect when the edges admit one."""
    graph = rx.PyGraph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(edges)
    return rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)


def _forbidden_pairs(players: Sequence[Entrant], history: History,
                     limit: int) -> set[tuple[int, int]]:
    """Index pairs (u < v) that R44 forbids this round: read from the history (a few
    thousand pairs at most) rather than tested for each of the N^2/2 pairs."""
    index = {e.player_id: k for k, e in enumerate(players)}
    out: set[tuple[int, int]] = set()
    for pair in history.last_pairs | {p for p, met in history.meetings.items() if met >= limit}:
        a, b = tuple(pair)
        if a in index and b in index:
            u, v = sorted((index[a], index[b]))
            out.add((u, v))
    return out


def pair_round(field: Sequence[Entrant], history: History | None = None) -> Round:
    """Pair the next round of phase 1 for ``field`` after the rounds in ``history`` (R44)."""
    history = history or History()
    ids = [e.player_id for e in field]
    if len(set(ids)) != len(ids):
        raise PairingError("a player is in the field twice")
    limit = max_meetings(len(field))
    players = list(field)
    bye = None
    if len(players) % 2:
        bye = choose_bye(players, history.byes)
        players = [e for e in players if e.player_id != bye.player_id]
    # indices in rating order, so ties in the matching break the same way every time
    players.sort(key=lambda e: (-e.rating, e.player_id))
    n = len(players)
    forbidden = _forbidden_pairs(players, history, limit)
    ratings = [e.rating for e in players]
    bodies = [e.body for e in players]

    def cost(u: int, v: int) -> int:  # pair_cost, on indices (this loop runs N^2/2 times)
        same = bodies[u] is not None and bodies[u] == bodies[v]
        c = abs(ratings[u] - ratings[v]) + (SAME_BODY_COST if same else 0)
        return c + FORBIDDEN_COST if (u, v) in forbidden else c

    # weight = big - cost: every perfect matching has n/2 edges, so the heaviest is the
    # cheapest; big exceeds every cost, so no weight is negative
    big = (max(ratings) - min(ratings) if ratings else 0) + SAME_BODY_COST + FORBIDDEN_COST + 1
    edges = [(u, v, big - cost(u, v)) for u in range(n) for v in range(u + 1, n)
             if (u, v) not in forbidden]
    matched = _matching(n, edges)
    allowed = False
    if 2 * len(matched) < n:  # no matching avoids every forbidden pair
        allowed = True
        edges += [(u, v, big - cost(u, v)) for u, v in forbidden]
        matched = _matching(n, edges)
    games = []
    total = 0
    for u, v in matched:
        u, v = min(u, v), max(u, v)
        c = cost(u, v)
        total += c
        games.append((c, sides(players[u], players[v], history)))
    games.sort(key=lambda cg: (cg[0], cg[1].i))
    return Round(tuple(g for _, g in games), None if bye is None else bye.player_id, total,
                 allowed)


def round_cost(field: Sequence[Entrant], history: History, games: Iterable[SidedPair]) -> int:
    """The R44 cost of a set of games in the next round (penalties included): what a checker
    compares with :func:`pair_round`'s."""
    by_id = {e.player_id: e for e in field}
    limit = max_meetings(len(field))
    total = 0
    for g in games:
        cost = pair_cost(by_id[g.i], by_id[g.o])
        if history.is_forbidden(g.players, limit):
            cost += FORBIDDEN_COST
        total += cost
    return total


def pair_phase(field: Sequence[Entrant], rounds: int = ROUNDS) -> list[Round]:
    """All the rounds of a phase paired one after another, as if every game were played (for
    simulations and benchmarks; a live event pairs each round after the last one's results)."""
    history = History()
    out = []
    for _ in range(rounds):
        rnd = pair_round(field, history)
        history.add(rnd)
        out.append(rnd)
    return out
