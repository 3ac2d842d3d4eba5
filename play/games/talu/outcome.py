"""Sides and the explicit outcome of a game (who won, and why)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Side(StrEnum):
    """I plays light and moves first (home row rank 1); O plays dark (R1)."""

    I = "I"  # noqa: E741
    O = "O"  # noqa: E741

    @property
    def other(self) -> Side:
        return Side.O if self is Side.I else Side.I

    @property
    def index(self) -> int:
        return 0 if self is Side.I else 1

    @classmethod
    def parse(cls, text: str) -> Side:
        """R15: readers accept the digit 0 for O."""
        t = text.strip().upper()
        if t == "0":
            t = "O"
        return cls(t)

    def __str__(self) -> str:
        return self.value


SIDES = (Side.I, Side.O)


class Termination(StrEnum):
    """Why a game ended (CLI contract: ``result.reason``)."""

    ELIMINATION = "elimination"  # R11 (1)
    INVASION = "invasion"  # R10, R11 (2) and (3)
    FORFEIT = "forfeit"  # R12: three own turns counting as passes
    NULL = "null"  # R12: three turns of the game in a row counting as passes
    DECISION = "decision"  # off the board: resignation, time, arbiter (R15)

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Outcome:
    winner: Side | None
    reason: Termination
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "finished": True,
            "winner": self.winner.value if self.winner else None,
            "reason": self.reason.value,
            "detail": self.detail,
        }

    @property
    def result_text(self) -> str:
        """The STGN result symbol: I, O or '-' for no winner (R15)."""
        return self.winner.value if self.winner else "-"
