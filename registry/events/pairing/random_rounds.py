"""Random Swiss rounds with every kind of extra (pure): a late entry, a withdrawal, byes asked
(H and Z), as the checks against bbpPairings (``benchmarks/check_pairings.py``) and the tests
of the absolute criteria (``tests/events/test_swiss.py``) pair them. One generator, so both
measure the same kind of tournament."""

from __future__ import annotations

import random
from dataclasses import replace

from registry.events.pairing.model import Entrant, Tournament


def before_round(t: Tournament, rng: random.Random, rn: int, late: str = "L"
                 ) -> tuple[Tournament, dict[str, str]]:
    """Before round ``rn``: maybe a late entry (named ``{late}{rn}``), maybe a withdrawal,
    maybe byes asked; the tournament and the absent players' byes (key -> "H" or "Z")."""
    if rn > 1 and rng.random() < 0.2:
        t = t.with_late_entrant(Entrant(f"{late}{rn}", rating=rng.randint(1000, 2500)))
    if rn > 1 and rng.random() < 0.2:
        i = rng.randrange(len(t.entrants))
        if t.entrants[i].withdrawn_after is None and t.entrants[i].joined_round < rn:
            t.entrants[i] = replace(t.entrants[i], withdrawn_after=rn - 1)
    absent: dict[str, str] = {}
    for _ in range(rng.choice([0, 0, 1, 2])):
        e = rng.choice(t.entrants)
        if e.active_in(rn):
            absent[e.key] = rng.choice("HZ")
    return t, absent
