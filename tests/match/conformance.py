"""Every game's rules satisfy the game contract, each with its own state as ``E``: checked by
mypy in the test run (``tests/test_types.py``), not at run time. The tiny test game states its
own beside its rules (``tests/match/tinygame.py``)."""

from __future__ import annotations

from play.games.protocol import GameRules
from play.games.talu.game import TaluGame
from play.games.talu.protocol import TaluRules

TALU: GameRules[TaluGame] = TaluRules()
