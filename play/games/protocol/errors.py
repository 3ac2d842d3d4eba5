"""The refusals (``play.games.protocol``): a command the rules refuse changes nothing, and its
``code`` is the protocol's rejection code (docs/protocol.md)."""

from __future__ import annotations

from typing import ClassVar


class CommandError(ValueError):
    """A command the rules refuse; nothing changed. ``code`` is the protocol's rejection code
    (docs/protocol.md), the message says why in a player's words."""

    code: ClassVar[str] = "illegal"


class IllegalCommand(CommandError):
    """Well formed, but the rules do not allow it in this position."""

    code = "illegal"


class BadCommand(CommandError):
    """Malformed: an unknown step kind, a square that does not exist, a missing field."""

    code = "bad_step"


class NotYourTurn(CommandError):
    """A side's step while the other side is to move."""

    code = "not_your_turn"


class GameOver(CommandError):
    """A command that needs a game in play, after the game has ended."""

    code = "finished"


class TooEarly(CommandError):
    """A claim made before its time: a flag while the clock still runs, an absence claim
    before the limit (R37)."""

    code = "too_early"


class NotAllowed(CommandError):
    """This actor may not send this command (a spectator's step, a player's warning)."""

    code = "forbidden"
