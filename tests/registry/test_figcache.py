"""Stored per-game figures give back exactly the scoring core's figures (R30 recomputes
read them instead of recomputing from the tally)."""

from __future__ import annotations

import json

import pytest

from benchmarks.synthetic import example_tallies
from registry import figcache
from registry.scoring.figures import figures_from_tally


@pytest.mark.parametrize("variant, tally", example_tallies())
def test_round_trip(variant, tally):
    exact = figures_from_tally(figcache.tally_from_json(tally))
    back = figcache.from_json(json.loads(json.dumps(figcache.to_json(exact))))
    assert back.sides == exact.sides
    assert (back.winner, back.reason, back.rounds, back.success_k) == (
        exact.winner, exact.reason, exact.rounds, exact.success_k)
    for side in "IO":
        assert back.exact_power(side) == exact.exact_power(side)
        assert back.sides[side].pc == exact.sides[side].pc
    assert figcache.is_current(figcache.to_json(exact))
    assert not figcache.is_current({}) and not figcache.is_current([1])
