"""bbpPairings' incremental matching under caissify-pairings' Dutch engine
(registry/events/pairing/incremental_matching.py): the same maximum weight matchings as
networkx on weights far wider than 64 bits, after many changes, and the same pairings as the
library's own networkx run on random tournaments (R43)."""

from __future__ import annotations

import random

import networkx
import pytest
from caissify_pairings.engines.dutch import DutchEngine

from registry.events.pairing import swiss
from registry.events.pairing.incremental_matching import Weights, patched_pair_iterative_mwm
from registry.events.pairing.model import Entrant, PairingError, Tournament


def networkx_weight(weights: dict, n: int) -> int:
    graph = networkx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_weighted_edges_from((i, j, w) for (i, j), w in weights.items() if w)
    return sum(weights[(min(u, v), max(u, v))]
               for u, v in networkx.max_weight_matching(graph))


@pytest.mark.parametrize("seed", range(6))
def test_incremental_matchings_are_maximum_after_every_change(seed):
    rng = random.Random(seed)
    n = rng.randint(6, 24)
    weights = Weights(n)
    plain: dict = {}
    for i in range(n):
        for j in range(i + 1, n):
            if rng.random() < 0.6:
                weights[(i, j)] = plain[(i, j)] = rng.getrandbits(200)
    for step in range(12):
        matched = weights.matching()
        assert all(matched[matched[v]] == v for v in range(n))
        got = sum(plain.get((min(v, u), max(v, u)), 0) for v, u in enumerate(matched) if v < u)
        assert got == networkx_weight(plain, n)
        # one player's edges change (a pair fixed), then the widest weight grows past the
        # computer's width, which is rebuilt
        v = rng.randrange(n)
        for u in range(n):
            if u != v:
                key = (min(u, v), max(u, v))
                weights[key] = plain[key] = rng.getrandbits(200 + 40 * step) * (rng.random() < .7)


def test_the_patched_engine_refuses_another_library_version():
    class Other(DutchEngine):
        def _pair_iterative_mwm(self, all_players, bye_candidates=None):
            return [], list(all_players)

    with pytest.raises(ImportError, match="is not the one"):
        patched_pair_iterative_mwm(Other)


@pytest.mark.parametrize("seed", range(4))
def test_the_same_pairings_as_the_librarys_networkx_run(seed, monkeypatch):
    rng = random.Random(seed)
    t = Tournament([Entrant(f"K{i:02d}", rating=rng.randint(1000, 2500))
                    for i in range(rng.randint(9, 20))], total_rounds=6)
    for _ in range(6):
        outcomes = []
        for engine in (swiss._Dutch._pair_iterative_mwm, DutchEngine._pair_iterative_mwm):
            with monkeypatch.context() as m:
                m.setattr(swiss._Dutch, "_pair_iterative_mwm", engine)
                try:
                    outcomes.append(swiss.pair_round(t))
                except PairingError as exc:  # a small field run out of opponents: both say so
                    outcomes.append(str(exc))
        assert outcomes[0] == outcomes[1]
        if isinstance(outcomes[0], str):
            break
        for g in outcomes[0].games:
            g.result = rng.choice(["1-0", "0-1", "=", "1-0", "+-"])
        t.rounds.append(outcomes[0])
