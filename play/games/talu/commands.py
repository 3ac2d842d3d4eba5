"""Talu's own commands, beside the match's (``play.games.protocol.commands``): R14's warning
and R39's ``count_as_pass``, which only talu's passing conventions give a meaning. An arbiter
(or the automatic arbiter, the system) sends them; ``COMMANDS`` parses them off the wire for
``command_from_json``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from play.games.protocol import BadCommand, Command
from play.games.protocol.commands import reason_of, seat_of


@dataclass(frozen=True, slots=True)
class Warn(Command):
    """R14: from now on ``side``'s non-engaging turns count as passes (an arbiter's action, or
    the automatic arbiter policy)."""

    TYPE: ClassVar[str] = "warn"
    side: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "side": self.side, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class CountAsPass(Command):
    """R39: ``turn`` ("014 O"), a turn already played, counts as a pass (R12) from now on;
    ``side``, when given, must be the side that played it."""

    TYPE: ClassVar[str] = "count_as_pass"
    turn: str
    reason: str
    side: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "turn": self.turn, "side": self.side, "reason": self.reason}


def _warn(data: dict[str, Any]) -> Warn:
    side, reason = data.get("side"), data.get("reason")
    if side not in ("I", "O") or not isinstance(reason, str):
        raise BadCommand("a warning names a side (I or O) and a reason")
    return Warn(side, reason)


def _count(data: dict[str, Any]) -> CountAsPass:
    turn = data.get("turn")
    if not isinstance(turn, str):
        raise BadCommand("count_as_pass names a turn already played, like '014 O' ('turn')")
    return CountAsPass(turn, reason_of(data, "count_as_pass"),
                       seat_of(data, "count_as_pass", required=False))


COMMANDS = {Warn.TYPE: _warn, CountAsPass.TYPE: _count}
#: Both are the arbiter's only (R39): a player's socket may not send them.
ARBITER_COMMANDS = (Warn.TYPE, CountAsPass.TYPE)
