"""SX, mixed games: each player rated by their own model from the same record (6.3.2, R25).

The game is the same whatever the strata; only the evaluation differs. This module is the one
entry point that scores both sides of a game, whichever models they use, so the CLI, the site
and the cascade agree on what a game did to two ratings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from registry.scoring.categories import SIDES, other
from registry.scoring.s1 import S1Result, score_s1
from registry.scoring.s2 import S2Result, score_s2
from registry.scoring.s3 import S3Result, score_s3
from registry.scoring.tally import Tally

MODELS: tuple[str, ...] = ("S1", "S2", "S3")

SideResult = S1Result | S2Result | S3Result


def parse_model(text: str) -> str:
    """``"S1"``/``"s1"``/``"1"`` -> ``"S1"``; ValueError naming the choices otherwise."""
    name = text.strip().upper()
    if not name.startswith("S"):
        name = "S" + name
    if name not in MODELS:
        raise ValueError(f"unknown scoring model {text!r}: use S1, S2 or S3")
    return name


def score_side(tally: Tally, side: str, model: str, old: int, opponent_rating: int) -> SideResult:
    """Rate one side of ``tally`` with ``model`` (R21, R22 or R23)."""
    if old < 0 or opponent_rating < 0:
        raise ValueError("ratings cannot be negative")
    if model == "S1":
        return score_s1(tally, side, old)
    if model == "S2":
        return score_s2(tally, side, old)
    if model == "S3":
        return score_s3(tally, side, old, opponent_rating)
    raise ValueError(f"unknown scoring model {model!r}: use S1, S2 or S3")


@dataclass(frozen=True, slots=True)
class GameScore:
    """Both sides' results for one game (keyed "I" and "O")."""

    winner: str | None
    reason: str | None
    sides: dict[str, SideResult]

    @property
    def rated(self) -> bool:
        return self.winner is not None

    def __getitem__(self, side: str) -> SideResult:
        return self.sides[side]


def score_game(tally: Tally, models: Mapping[str, str], ratings: Mapping[str, int]) -> GameScore:
    """R25: score both sides of ``tally``, each with its own model, from game-start ratings.

    ``models`` and ``ratings`` are keyed "I" and "O". An event that fixes the model (book 6.4)
    just passes the same model for both sides.
    """
    sides = {
        side: score_side(tally, side, models[side], ratings[side], ratings[other(side)])
        for side in SIDES
    }
    return GameScore(winner=tally.winner, reason=tally.reason, sides=sides)
