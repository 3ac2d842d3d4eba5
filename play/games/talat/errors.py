"""Talat's refusals in a player's words, naming the action and the ruling ("12:b2-c3: 12 is
frozen: nobody moves on it (A7)"); nothing changed when one is raised."""

from __future__ import annotations


class TalatError(ValueError):
    """Anything the Talat rules refuse."""


class IllegalAction(TalatError):
    """A well-formed action the rules do not allow here. ``action`` is the action as
    written, ``reason`` why, ``rule`` the ruling."""

    def __init__(self, action: str, reason: str, rule: str = "") -> None:
        self.action, self.reason, self.rule = action, reason, rule
        self.words = f"{reason} ({rule})" if rule else reason
        super().__init__(f"{action}: {self.words}" if action else self.words)


class MalformedAction(IllegalAction):
    """Text that is not an action at all (A10)."""


class GameFinished(TalatError):
    """An action after the end of the game."""


class RecordError(TalatError):
    """A game record (A10) that does not replay: ``turn`` counts turns from 1, 0 for a fault
    of the header."""

    def __init__(self, turn: int, error: str) -> None:
        super().__init__(error)
        self.turn, self.error = turn, error
