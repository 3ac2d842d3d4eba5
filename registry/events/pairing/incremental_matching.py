"""bbpPairings' incremental weighted matching under caissify-pairings' exact Dutch engine.

Why: caissify-pairings 0.5.0 is our exact engine for the FIDE Dutch rules in force from 2026
(R43; it agrees with bbpPairings 6, which implements them), and its ``_pair_iterative_mwm`` is
bbpPairings' ``computeMatching`` step by step; but at every decision it rebuilds the whole
graph and runs ``networkx.max_weight_matching`` from scratch, n^3.2 overall (round 7 of a
500-player Swiss near ten minutes, docs/events.md). bbpPairings is fast because its matching
is incremental: after some weights change it repairs the previous optimum. ``py4swiss``
(MIT) ships that very matching, compiled from bbpPairings' C++ (Apache-2.0), with weights of
any width (``ComputerDutchOptimality`` over ``DynamicUint``). Its own Dutch engine is not
ours: it implements the rules in force until January 2026 (it pairs bbpPairings' 2025 C5
case, tests/events/data/dutch_2025_C5.trf, differently, and differs from bbpPairings 6 on
about one round in seven of random tournaments with byes and forfeits, BENCHMARKS.md). So we
keep caissify's engine and give it bbpPairings' matching:

- the engine's edge weights live in ``Weights``, a dict that forwards every change to one
  incremental matching computer, which repairs its optimum when the engine asks;
- the one-off preliminary matching (who would get the bye) goes through ``_nx``, a stand-in
  for the two networkx calls the method makes.

The method's own code is the library's: ``patched_pair_iterative_mwm`` takes its source from
the pinned caissify-pairings and changes exactly the three places below (each must occur
once, or the import fails loudly rather than pairing with a half-changed engine).
"""

from __future__ import annotations

import inspect
import textwrap
from collections import Counter
from collections.abc import Callable

from py4swiss.dynamicuint import DynamicUint
from py4swiss.matching_computer import ComputerDutchOptimality

_MARGIN_BITS = 64  # room above the widest weight seen, before the computer is rebuilt


class _Converter:
    """Python ints of up to ``bits`` bits to ``DynamicUint`` of one width (the computer needs
    every weight, and its maximum, in the same number of 32-bit parts)."""

    def __init__(self, bits: int) -> None:
        self.bits = bits
        self.maximum = DynamicUint(1)
        self.maximum.shift_grow(bits + 1)  # 2^(bits+1) grows the parts it needs
        self._parts = (bits + 1) // 32 + 1
        self.maximum >>= 1
        self.maximum -= (self.maximum & 0) | 1  # all ones over ``bits`` bits
        self.zero = self.maximum & 0
        self._cache: dict[int, DynamicUint] = {}

    def __call__(self, value: int) -> DynamicUint:
        cached = self._cache.get(value)
        if cached is not None:
            return cached
        out = DynamicUint(self.zero)
        for k in range(self._parts - 1, -1, -1):
            out <<= 32
            out |= (value >> (32 * k)) & 0xFFFFFFFF
        if len(self._cache) < 4096:
            self._cache[value] = out
        return out


class Weights(dict):
    """The engine's ``{(i, j): weight}`` (i < j), every change also sent to the computer."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.n = n
        self._computer: ComputerDutchOptimality | None = None
        self._convert: _Converter | None = None
        self._pending: dict[tuple[int, int], int] = {}

    def __setitem__(self, key: tuple[int, int], weight: int) -> None:
        if self.get(key, 0) == weight:
            return
        super().__setitem__(key, weight)
        self._pending[key] = weight

    def _build(self, bits: int) -> None:
        self._convert = _Converter(bits + _MARGIN_BITS)
        self._computer = ComputerDutchOptimality(self.n, self._convert.maximum)
        for _ in range(self.n):
            self._computer.add_vertex()
        self._pending = {k: w for k, w in self.items() if w}

    def matching(self) -> list[int]:
        """matching[i] = partner of i (i itself if unmatched), the maximum weight matching."""
        widest = max((w.bit_length() for w in self._pending.values()), default=0)
        if self._convert is None or widest > self._convert.bits:
            self._build(max([widest] + [w.bit_length() for w in self.values()]))
        assert self._computer is not None and self._convert is not None
        convert, computer = self._convert, self._computer
        # The computer repairs its optimum around the vertex named first in each change: in
        # O(k n^2) for k such vertices. Most changes are one player's edges (a pair fixed, a
        # player's opponents ranked), so each edge is charged to its busier end.
        ends = Counter(v for key in self._pending for v in key)
        for (i, j), w in self._pending.items():
            if ends[j] > ends[i]:
                i, j = j, i
            computer.set_edge_weight(i, j, convert(w))
        self._pending = {}
        computer.compute_matching()
        return list(computer.get_matching())


class _Graph:
    """The part of ``networkx.Graph`` the preliminary matching uses."""

    def __init__(self) -> None:
        self.nodes: list[int] = []
        self.edges: dict[tuple[int, int], int] = {}

    def add_node(self, v: int) -> None:
        self.nodes.append(v)

    def add_edge(self, u: int, v: int, weight: int) -> None:
        self.edges[(min(u, v), max(u, v))] = weight


class _nx:  # stands in for the networkx module the library's code imports
    Graph = _Graph

    @staticmethod
    def max_weight_matching(graph: _Graph, maxcardinality: bool = True) -> set[tuple[int, int]]:
        weights = Weights(len(graph.nodes))
        for key, w in graph.edges.items():
            weights[key] = w
        matched = weights.matching()
        return {(u, v) for u, v in enumerate(matched) if u < v}


_CHANGES = (
    ("import networkx as nx\n", "nx = _nx\n"),
    ("edge_weights: Dict[Tuple[int, int], int] = {}\n", "edge_weights = _Weights(n)\n"),
    ("""        G = nx.Graph()
        for i in range(n):
            G.add_node(i)
        for (i, j), w in edge_weights.items():
            if w > 0:
                G.add_edge(i, j, weight=w)
        m = nx.max_weight_matching(G, maxcardinality=True)
        result = list(range(n))  # self-matched = unmatched
        for u, v in m:
            result[u] = v
            result[v] = u
        return result
""", "        return edge_weights.matching()\n"),
)


def patched_pair_iterative_mwm(engine_class: type) -> Callable:
    """``engine_class._pair_iterative_mwm`` with its matchings done by bbpPairings'
    incremental computer (the three changes above, nothing else)."""
    method = engine_class._pair_iterative_mwm
    source = textwrap.dedent(inspect.getsource(method))
    for old, new in _CHANGES:
        if source.count(old) != 1:
            raise ImportError("caissify-pairings' _pair_iterative_mwm is not the one "
                              f"incremental_matching.py patches (looking for {old[:40]!r})")
        source = source.replace(old, new)
    namespace = dict(method.__globals__, _nx=_nx, _Weights=Weights)
    exec(compile(source, inspect.getsourcefile(method) or "<caissify>", "exec"), namespace)
    return namespace["_pair_iterative_mwm"]
