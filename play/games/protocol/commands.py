"""The typed commands any actor may send any game (``play.games.protocol``), JSON-serialisable
(``to_json`` / ``command_from_json``): a seat's move, a resignation, the arbiter's actions
(R39), the clock's flag and an absence claim (R37), adjournment and resumption (R38), offers
between players. The match decides all but the move (``play.games.match``); a game adds its
own commands (talu's R14 ``warn`` and R39 ``count_as_pass``: ``play.games.talu.commands``),
parsed by the table it gives ``command_from_json``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

from play.games.protocol.errors import BadCommand
from play.games.protocol.seats import SEAT_ID


class Command:
    """Base of the typed commands. ``TYPE`` names it on the wire (``{"type": ...}``)."""

    TYPE: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE}


@dataclass(frozen=True, slots=True)
class PlayStep(Command):
    """One step of the turn in progress, as the game reads steps (for talu ``{"kind", "from",
    "to"}``; ending a turn and passing are steps too)."""

    TYPE: ClassVar[str] = "step"
    step: Any
    #: Network lag the server measured for this sender (ms), never read from the client: the
    #: clock credits some of it (R36, ``play.games.clock``).
    lag: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "step": self.step}


@dataclass(frozen=True, slots=True)
class Resign(Command):
    """The sender's seat gives up: in a two-seat game the other wins by decision; in a game of
    more, the seat leaves, ranked below those still playing, and the others play on."""

    TYPE: ClassVar[str] = "resign"


@dataclass(frozen=True, slots=True)
class Forfeit(Command):
    """R39: seat ``side`` loses by the arbiter's decision (in a game of more than two, it
    leaves, ranked last)."""

    TYPE: ClassVar[str] = "forfeit"
    side: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "side": self.side, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class DeclareNull(Command):
    """R39: the game is null by the arbiter's decision (no winner, no rating change)."""

    TYPE: ClassVar[str] = "null"
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class AddTime(Command):
    """R39 ``add_time``: ``seconds`` added to seat ``side``'s clock of a timed game (R36), by the
    arbiter's decision; a running clock's deadline moves with it."""

    TYPE: ClassVar[str] = "add_time"
    side: str
    seconds: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "side": self.side, "seconds": self.seconds,
                "reason": self.reason}


#: The match's arbiter commands on a game in play (R39): those only an arbiter sends, and with
#: them ``adjourn`` and ``resume`` (R38), which a player sends too (as an offer) but an arbiter
#: decides at once. A game adds its own (talu: ``warn``, ``count_as_pass``;
#: ``play.games.arbiter_only``). ``annul`` is the registry's (R30), after the game.
ARBITER_ONLY = ("forfeit", "null", "add_time")
ARBITER_COMMANDS = (*ARBITER_ONLY, "adjourn", "resume")


@dataclass(frozen=True, slots=True)
class Announce(Command):
    """A message of the system to everyone at the game; changes nothing on the board."""

    TYPE: ClassVar[str] = "announce"
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "message": self.message}


@dataclass(frozen=True, slots=True)
class Flag(Command):
    """The clock of the side to move has run out (R37): sent by the clock (the worker, at the
    deadline) or claimed by a player; the game checks it against its own clock and refuses an
    early claim. Ends the game on ``time``, or aborts it when the side had not completed its
    opening turn (R36)."""

    TYPE: ClassVar[str] = "flag"


@dataclass(frozen=True, slots=True)
class ClaimAbsence(Command):
    """R37: an opponent of a player whose every connection has been gone for the absence
    limit claims the game: ``result`` ``win`` (by decision, cause ``abandonment``; in a game
    of more than two seats the absent seat leaves, ranked last) or ``null``. ``seat`` is the
    absent seat (in a two-seat game the other one, the default); ``absent_for`` (ms) how long
    its player has been gone, measured by the server from its sockets (never read from the
    client); None: present."""

    TYPE: ClassVar[str] = "claim"
    result: str = "win"
    absent_for: int | None = None
    seat: str = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.TYPE, "result": self.result}
        if self.seat:
            data["seat"] = self.seat
        return data


@dataclass(frozen=True, slots=True)
class Adjourn(Command):
    """R38: adjourn the game between turns. From a player it is an offer, or the acceptance
    of the opponent's; from an arbiter it adjourns at once. The side to move then seals its
    turn (played as usual, shown to nobody else, its time charged) and the session ends."""

    TYPE: ClassVar[str] = "adjourn"
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Resume(Command):
    """R38: resume an adjourned game (a new session, beginning with the sealed turn). From a
    player an offer or the acceptance of the opponent's; from an arbiter at once, or, with
    ``at`` (ms since the epoch, later than now), at the time the arbiter sets: the worker
    then resumes it as the clock (``play.worker.clocks.resume_due``)."""

    TYPE: ClassVar[str] = "resume"
    reason: str = ""
    at: int | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.TYPE, "reason": self.reason}
        if self.at is not None:
            data["at"] = self.at
        return data


#: What players may offer each other besides adjournment (R38): a null game (talu) or a draw
#: as a variant allows (``Variant.offers``), a takeback in casual games (issue 39).
OFFERS = ("null", "draw", "takeback")


@dataclass(frozen=True, slots=True)
class Offer(Command):
    """A player offers the others a ``null`` game or a ``draw`` (what the variant allows),
    asks for a ``takeback`` (casual games), or accepts the offer standing: when every seat
    still playing agrees, it is done. An offer stands until a seat declines it or another
    seat moves."""

    TYPE: ClassVar[str] = "offer"
    what: str

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "what": self.what}


@dataclass(frozen=True, slots=True)
class Decline(Command):
    """A player declines the offer standing (a null game, a draw, an adjournment or a
    resumption), or withdraws their own."""

    TYPE: ClassVar[str] = "decline"


COMMANDS: dict[str, type[Command]] = {c.TYPE: c for c in (
    PlayStep, Resign, Forfeit, DeclareNull, Announce, Flag, ClaimAbsence, Adjourn, Resume,
    AddTime, Offer, Decline)}

#: A game's own commands: wire type -> parser of the message (``BadCommand`` if wrong).
Parsers = Mapping[str, Callable[[dict[str, Any]], Command]]


def reason_of(data: dict[str, Any], what: str) -> str:
    reason = data.get("reason")
    if not isinstance(reason, str):
        raise BadCommand(f"{what} needs a reason in words ('reason')")
    return reason


def seat_of(data: dict[str, Any], what: str, required: bool = True) -> str:
    """The seat a command names (``side`` on the wire, as talu's clients send it; ``seat``
    beside it), checked for its form; the match checks that the game has it."""
    seat = data.get("seat", data.get("side"))
    if seat in (None, "") and not required:
        return ""
    if not isinstance(seat, str) or not SEAT_ID.match(seat):
        raise BadCommand(f"{what} names a seat ('side'), not {seat!r}")
    return seat


def resume_time(value: Any) -> int:
    """R38: the time an arbiter sets for a resumption, as ms since the epoch: a whole number
    of ms, or an ISO 8601 date and time with its offset ("2026-11-25T14:00:00+00:00", "Z"
    allowed); ``BadCommand`` naming the form otherwise."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value <= 0:
            raise BadCommand("a resumption time is a moment after 1970 ('at')")
        return value
    if isinstance(value, str) and len(value) <= 40:
        try:
            when = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            pass
        else:
            if when.tzinfo is None:
                raise BadCommand("a resumption time needs its offset from UTC, e.g. "
                                 "'2026-11-25T14:00:00+00:00' ('at')")
            return int(when.timestamp() * 1000)
    raise BadCommand("a resumption time ('at') is ms since the epoch or an ISO 8601 date "
                     "and time with its offset, e.g. '2026-11-25T14:00:00+00:00'")


def command_from_json(data: Any, game_commands: Parsers | None = None) -> Command:
    """A command from its JSON form, one of the match's or of the game's own
    (``game_commands``, ``GameRules.commands``); ``BadCommand`` naming what is wrong."""
    if not isinstance(data, dict):
        raise BadCommand("a command must be an object with a 'type'")
    kind = data.get("type")
    if game_commands and isinstance(kind, str) and kind in game_commands:
        return game_commands[kind](data)
    cls = COMMANDS.get(kind)  # type: ignore[arg-type]
    if cls is None:
        raise BadCommand(f"unknown command {kind!r}")
    if cls is PlayStep:
        return PlayStep(data.get("step"))
    if cls is Resign:
        return Resign()
    if cls is Flag:
        return Flag()
    if cls in (Adjourn, Resume):
        reason = data.get("reason", "")
        if not isinstance(reason, str) or len(reason) > 200:
            raise BadCommand("a reason is text of at most 200 characters")
        if cls is Resume and data.get("at") is not None:
            return Resume(reason, resume_time(data["at"]))
        return cls(reason)
    if cls is ClaimAbsence:
        result = data.get("result", "win")
        if result not in ("win", "null"):
            raise BadCommand("a claim asks for 'win' or 'null'")
        return ClaimAbsence(result, seat=seat_of(data, "a claim", required=False))
    if cls is Offer:
        what = data.get("what")
        if what not in OFFERS:
            raise BadCommand(f"an offer is of a {', a '.join(OFFERS)} ('what'), not {what!r}")
        return Offer(what)
    if cls is Decline:
        return Decline()
    if cls is Forfeit:
        return Forfeit(seat_of(data, "a forfeit"), reason_of(data, "a forfeit"))
    if cls is DeclareNull:
        return DeclareNull(reason_of(data, "a null game"))
    if cls is AddTime:
        seconds = data.get("seconds")
        if isinstance(seconds, bool) or not isinstance(seconds, int):
            raise BadCommand(f"add_time names the seconds to add, a whole number ('seconds'), "
                             f"not {seconds!r}")
        return AddTime(seat_of(data, "add_time"), seconds, reason_of(data, "add_time"))
    message = data.get("message")
    if not isinstance(message, str):
        raise BadCommand("an announcement needs a 'message'")
    return Announce(message)
