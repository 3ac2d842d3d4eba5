"""A computer for the match's tiny race (tests/match/tinygame.py), in the tests only (issue
37): the race has no computer part of its own, and the tables' and the pool for three's tests
need one to give seats to. It always adds 2 to its counter, at any level."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from play.games.protocol import Event, GameOptions
from tests.match.tinygame import VARIANTS, Race, TinyRules


class TinyComputer:
    levels = (1, 2, 3)
    reserve = 0.1

    def seconds(self, level: int) -> float:
        if level not in self.levels:
            raise ValueError(f"the race's computer has no level {level}")
        return 0.01

    def wall_seconds(self, thinking: float, left: float | None = None,
                     reserve: float | None = None) -> float:
        return 1.0

    def turn_moves(self, variant: str) -> int:
        return 1

    def replay(self, variant: str, events: Iterable[tuple[str, dict[str, Any]]]) -> Race:
        rules = TinyRules()
        race = rules.new_engine(VARIANTS[variant], GameOptions())
        for kind, data in events:
            if kind in rules.event_kinds:
                rules.evolve(race, Event(kind, race.mover, data, ""))
        return race

    def think(self, engine: Race, level: int, **_: Any) -> dict[str, Any]:
        if engine.finished():
            return {"steps": [], "resign": False, "nodes": 0, "side": None, "score": 0}
        return {"steps": [{"add": 2}], "resign": False, "nodes": 1, "side": engine.mover,
                "score": 0, "seconds": 0.0, "cpu": 0.0, "wall": 0.0}


@pytest.fixture
def tiny_computer(tiny):
    """The tiny game in the catalogue with this computer as its part, for one test."""
    from play.games import registry
    from play.games.protocol.parts import GameParts

    registry.PARTS["tiny"] = GameParts(computer=TinyComputer())
    yield tiny
    registry.PARTS.pop("tiny", None)
