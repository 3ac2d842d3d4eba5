"""One wave of the quick-pairing pool (R47), pure: no Django, no clock, no database.

The waiting players of one pool (variant x time control x rated) are matched by a minimum-cost
matching with cost |R_a - R_b| among the pairs both players accept: as many games as the
acceptable pairs allow, and among those the cheapest in total rating difference. The matching
is rustworkx's blossom ``max_weight_matching`` (as ``registry.events.pairing.hettlandic``; lichess
runs its own blossom matching for its pools), with weight = big - cost under
``max_cardinality``: every maximum matching has the same number of games, so the heaviest one is
the cheapest.

A pair is acceptable when
- each player's rating lies inside the other's range, which widens with the waves that player has
  waited (:func:`acceptable_range`): a newcomer is first offered near equals, a long wait buys a
  wider search (R47);
- they are not the two players who just played each other (R47: no instant rematch through the
  pool);
- neither has asked never to be paired below their PSF (R27, an S3 player's opt-in) with the
  other below it: that bound never widens, however long they wait (R47).

For speed on a large pool each player is offered only their :data:`NEIGHBOURS` nearest
acceptable players above them in rating order (the cheapest partners), and a pool of more than
:data:`PARTITION` players is matched in rating bands (``pair_wave``): a pool of up to
NEIGHBOURS + 1 players is matched exactly, a larger one nearly so (``benchmarks/bench_pool.py``).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

import rustworkx as rx

#: R47: the range of a player who has waited no wave, in rating points either side.
BASE_RANGE = 100
#: R47: what each wave waited adds to the range.
WIDEN_PER_WAVE = 50
#: PSF is a float (R27: 1800 x (2/1.2 - 1) is 1200.0000000000002): an opponent at the floor
#: exactly (APc = 1, no loss) is not below it.
FLOOR_SLACK = 1e-6
#: Candidate partners per player above them in rating order (see the module's docstring).
NEIGHBOURS = 12
#: Players matched at once at most: a larger pool is matched in rating bands (``pair_wave``).
PARTITION = 120


class PoolPairingError(ValueError):
    """A pool that cannot be paired as given (the same player twice)."""


@dataclass(frozen=True, slots=True)
class Seeker:
    """A waiting player as the pairing sees them.

    ``floor`` is the PSF below which they asked never to be paired (R27/R47), None when they did
    not opt in (or are not S3); ``last_opponent`` the key of the player of their last game.
    """

    key: str
    rating: int
    waves: int = 0
    floor: float | None = None
    last_opponent: str | None = None


@dataclass(frozen=True, slots=True)
class Wave:
    """A wave's pairs (keys, lower rating first, then by key) and their total cost."""

    pairs: tuple[tuple[str, str], ...]
    cost: int

    def paired(self) -> set[str]:
        return {k for pair in self.pairs for k in pair}


def acceptable_range(waves: int) -> int:
    """R47: the rating distance a player accepts after waiting ``waves`` waves."""
    return BASE_RANGE + WIDEN_PER_WAVE * max(0, waves)


def cost(a: Seeker, b: Seeker) -> int:
    """R47: the cost of pairing ``a`` with ``b``."""
    return abs(a.rating - b.rating)


def accepts(a: Seeker, b: Seeker) -> bool:
    """Whether ``a`` and ``b`` may be paired in this wave (both ranges, PSF, last game)."""
    if a.key == b.key or a.last_opponent == b.key or b.last_opponent == a.key:
        return False
    if a.floor is not None and b.rating < a.floor - FLOOR_SLACK:
        return False
    if b.floor is not None and a.rating < b.floor - FLOOR_SLACK:
        return False
    return cost(a, b) <= min(acceptable_range(a.waves), acceptable_range(b.waves))


def in_range(me: Seeker, others: Sequence[Seeker]) -> int:
    """How many of ``others`` ``me`` could be paired with now (the lobby's "in your range")."""
    return sum(1 for o in others if o.key != me.key and accepts(me, o))


def _edges(players: Sequence[Seeker]) -> list[tuple[int, int, int]]:
    """(u, v, cost) for the acceptable pairs, ``players`` sorted by rating: each player's
    nearest acceptable partners above them, scanning no farther than their range (a pair is
    found from its lower-rated player; the other's range is checked by :func:`accepts`)."""
    ratings = [p.rating for p in players]
    edges = []
    for u, a in enumerate(players):
        hi = bisect.bisect_right(ratings, a.rating + acceptable_range(a.waves), lo=u + 1)
        found = 0
        for v in range(u + 1, hi):
            b = players[v]
            if accepts(a, b):
                edges.append((u, v, b.rating - a.rating))
                found += 1
                if found >= NEIGHBOURS:
                    break
    return edges


def _match(players: Sequence[Seeker]) -> list[tuple[int, int]]:
    """The minimum-cost maximum matching of ``players`` (sorted by rating), as index pairs."""
    edges = _edges(players)
    if not edges:
        return []
    big = max(c for _, _, c in edges) + 1  # every weight positive
    graph = rx.PyGraph()
    graph.add_nodes_from(range(len(players)))
    graph.add_edges_from([(u, v, big - c) for u, v, c in edges])
    matched = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    return [(min(u, v), max(u, v)) for u, v in matched]


def pair_wave(pool: Sequence[Seeker]) -> Wave:
    """R47: the pairs of one wave: a maximum number of acceptable pairs, of minimum total cost.
    Every player is in at most one pair; the unpaired wait for the next wave.

    A pool larger than :data:`PARTITION` is matched in rating bands of that many players (the
    blossom matching is cubic: 2,000 players at once take seconds), then the players each band
    left unpaired are matched together, so a pair across a band's edge is still found."""
    keys = [p.key for p in pool]
    if len(set(keys)) != len(keys):
        raise PoolPairingError("a player is in the pool twice")
    players = sorted(pool, key=lambda p: (p.rating, p.key))
    found: list[tuple[Seeker, Seeker]] = []
    if len(players) <= PARTITION:
        found = [(players[u], players[v]) for u, v in _match(players)]
    else:
        left: list[Seeker] = []
        for start in range(0, len(players), PARTITION):
            band = players[start:start + PARTITION]
            pairs = _match(band)
            found += [(band[u], band[v]) for u, v in pairs]
            taken = {k for pair in pairs for k in pair}
            left += [p for k, p in enumerate(band) if k not in taken]
        found += [(left[u], left[v]) for u, v in _match(left)]
    found.sort(key=lambda ab: (ab[0].rating, ab[0].key))
    return Wave(tuple((a.key, b.key) for a, b in found),
                sum(cost(a, b) for a, b in found))
