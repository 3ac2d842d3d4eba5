"""The engine's exceptions: every rejection a user can see is one of these, never a traceback.

Modelled on python-chess: syntax problems and legality problems are distinct ``ValueError``
subclasses, and messages name the input and the position in a player's words.
"""

from __future__ import annotations


class TaluError(ValueError):
    """Base of every error the rules core raises on bad input."""


class UnknownVariantError(TaluError):
    """A variant name that is not one of R3's."""


class SquareError(TaluError):
    """A square name that does not exist on the board (e.g. "I9" in standard talu)."""


class StepFormatError(TaluError):
    """A step description that is malformed (wrong kind, missing squares)."""


class IllegalStepError(TaluError):
    """A well-formed step that the rules do not allow in the current position."""


class GameOverError(IllegalStepError):
    """A step or turn offered after the game has been decided."""


class NotationError(TaluError):
    """A line of STGN that cannot be read or replayed; ``line`` counts from 1 (blank lines too)."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


class NotationSyntaxError(NotationError):
    """The line does not follow the STGN grammar (R15)."""


class NotationRuleError(NotationError):
    """The line is well formed but a step in it is illegal, or the result it claims is wrong."""
