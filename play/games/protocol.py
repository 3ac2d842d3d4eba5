"""The game protocol: who may do what to a game, as typed values, and the events that follow.

Every input to a game, whatever its source, is a **command** from an **actor** (R40): a player
(a side), an arbiter, the clock, the computer opponent, or the system. A game's rules *decide*
a command against the current state: they refuse it with a ``CommandError`` (nothing changes)
or answer with the **events** it causes; the state is the fold of those events (*evolve*). The
server stores the events, numbered, before anyone hears of them (``play.store.log``) and a
replay of the stored events is the state again. lila's round (every input a typed message) and
event-sourcing's decide/evolve are the models.

Pure: no Django, no database, no clock but the ``now`` passed in, so the same decisions are
made by a test, a replay, the server on any process, the worker or the computer's search. The
game itself plugs in behind ``GameRules`` (``play.games.registry`` maps variant names to
games), so the server path never names talu.

Commands and events are JSON-serialisable (``to_json`` / ``from_json``), for the wire, the
log and the records.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar, Protocol

# --- actors -----------------------------------------------------------------------------------

PLAYER, ARBITER, CLOCK, COMPUTER, SYSTEM = "player", "arbiter", "clock", "computer", "system"
ACTOR_KINDS = (PLAYER, ARBITER, CLOCK, COMPUTER, SYSTEM)


@dataclass(frozen=True, slots=True)
class Actor:
    """Who sends a command: ``kind`` is one of ``ACTOR_KINDS``; ``side`` is the side a player or
    the computer plays ("I" / "O", else ""); ``name`` says who for the record (an arbiter's
    account, a test's name for its system actor)."""

    kind: str
    side: str = ""
    name: str = ""

    def __post_init__(self) -> None:
        if self.kind not in ACTOR_KINDS:
            raise ValueError(f"unknown actor kind {self.kind!r}")
        if self.kind in (PLAYER, COMPUTER) and self.side not in ("I", "O"):
            raise ValueError(f"a {self.kind} plays a side, I or O, not {self.side!r}")

    @property
    def plays(self) -> bool:
        """Whether this actor sits at the board (a player or the computer)."""
        return self.kind in (PLAYER, COMPUTER)


def player(side: str) -> Actor:
    return Actor(PLAYER, side)


def computer(side: str) -> Actor:
    return Actor(COMPUTER, side)


def arbiter(name: str) -> Actor:
    return Actor(ARBITER, name=name)


CLOCK_ACTOR = Actor(CLOCK, name="clock")


def system(name: str = "system") -> Actor:
    return Actor(SYSTEM, name=name)


# --- commands ---------------------------------------------------------------------------------


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
    """The sender's side gives up: the other side wins by decision."""

    TYPE: ClassVar[str] = "resign"


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


@dataclass(frozen=True, slots=True)
class Forfeit(Command):
    """R39: ``side`` loses by the arbiter's decision."""

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
    """R39 ``add_time``: ``seconds`` added to ``side``'s clock of a timed game (R36), by the
    arbiter's decision; a running clock's deadline moves with it."""

    TYPE: ClassVar[str] = "add_time"
    side: str
    seconds: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "side": self.side, "seconds": self.seconds,
                "reason": self.reason}


#: The arbiter's commands on a game in play (R39): those only an arbiter sends, and with them
#: ``adjourn`` and ``resume`` (R38), which a player sends too (as an offer) but an arbiter
#: decides at once. ``annul`` is the registry's (R30), after the game.
ARBITER_ONLY = ("warn", "count_as_pass", "forfeit", "null", "add_time")
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
    """R37: the opponent of a player whose every connection has been gone for the absence
    limit claims the game: ``result`` ``win`` (by decision, cause ``abandonment``) or
    ``null``. ``absent_for`` (ms) is how long the other player has been gone, measured by the
    server from its sockets (never read from the client); None: present."""

    TYPE: ClassVar[str] = "claim"
    result: str = "win"
    absent_for: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "result": self.result}


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


COMMANDS: dict[str, type[Command]] = {c.TYPE: c for c in (
    PlayStep, Resign, Warn, CountAsPass, Forfeit, DeclareNull, Announce, Flag, ClaimAbsence,
    Adjourn, Resume, AddTime)}


def _reason(data: dict[str, Any], what: str) -> str:
    reason = data.get("reason")
    if not isinstance(reason, str):
        raise BadCommand(f"{what} needs a reason in words ('reason')")
    return reason


def _side(data: dict[str, Any], what: str, required: bool = True) -> str:
    side = data.get("side")
    if side in (None, "") and not required:
        return ""
    if side not in ("I", "O"):
        raise BadCommand(f"{what} names a side, I or O, not {side!r}")
    return side


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


def command_from_json(data: Any) -> Command:
    """A command from its JSON form; ``BadCommand`` naming what is wrong."""
    if not isinstance(data, dict):
        raise BadCommand("a command must be an object with a 'type'")
    cls = COMMANDS.get(data.get("type"))  # type: ignore[arg-type]
    if cls is None:
        raise BadCommand(f"unknown command {data.get('type')!r}")
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
        return cls(reason)  # type: ignore[call-arg]
    if cls is ClaimAbsence:
        result = data.get("result", "win")
        if result not in ("win", "null"):
            raise BadCommand("a claim asks for 'win' or 'null'")
        return ClaimAbsence(result)
    if cls is Warn:
        side, reason = data.get("side"), data.get("reason")
        if side not in ("I", "O") or not isinstance(reason, str):
            raise BadCommand("a warning names a side (I or O) and a reason")
        return Warn(side, reason)
    if cls is CountAsPass:
        turn = data.get("turn")
        if not isinstance(turn, str):
            raise BadCommand("count_as_pass names a turn already played, like '014 O' ('turn')")
        return CountAsPass(turn, _reason(data, "count_as_pass"),
                           _side(data, "count_as_pass", required=False))
    if cls is Forfeit:
        return Forfeit(_side(data, "a forfeit"), _reason(data, "a forfeit"))
    if cls is DeclareNull:
        return DeclareNull(_reason(data, "a null game"))
    if cls is AddTime:
        seconds = data.get("seconds")
        if isinstance(seconds, bool) or not isinstance(seconds, int):
            raise BadCommand(f"add_time names the seconds to add, a whole number ('seconds'), "
                             f"not {seconds!r}")
        return AddTime(_side(data, "add_time"), seconds, _reason(data, "add_time"))
    message = data.get("message")
    if not isinstance(message, str):
        raise BadCommand("an announcement needs a 'message'")
    return Announce(message)


# --- events -----------------------------------------------------------------------------------

EVERYONE, ARBITERS = "all", "arbiters"
VISIBILITIES = (EVERYONE, "I", "O", ARBITERS)


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened to a game, as stored in its numbered log (R40).

    ``kind`` is the game's word for it (talu: ``step``, ``decide``, ``warn``, ``note``);
    ``side`` the side that acted ("" when no side did); ``data`` what the game needs to evolve
    its state; ``text`` a short human form ("A2-A3", "resigns"); ``actor`` the kind of actor
    whose command caused it; ``visibility`` who may be told of it: everyone, one side only
    (a sealed turn, R38) or the arbiters (an arbiter's note). Numbering is the store's.
    """

    kind: str
    side: str
    data: dict[str, Any]
    text: str
    actor: str = PLAYER
    visibility: str = EVERYONE

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "side": self.side, "data": self.data, "text": self.text,
                "actor": self.actor, "visibility": self.visibility}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        return cls(data["kind"], data.get("side") or "", data.get("data") or {},
                   data.get("text") or "", data.get("actor") or PLAYER,
                   data.get("visibility") or EVERYONE)

    def visible_to(self, side: str | None, arbiter: bool = False) -> bool:
        """Whether a viewer playing ``side`` (None: a spectator) may be told of this event."""
        v = self.visibility
        return v == EVERYONE or (v == ARBITERS and arbiter) or (side is not None and v == side) \
            or (arbiter and v in ("I", "O"))


def viewer_state(state: dict[str, Any] | None, side: str | None) -> dict[str, Any] | None:
    """A game's snapshot as a viewer playing ``side`` (None: a spectator) may see it. A
    snapshot may carry ``sealed``: ``{"side", "state"}``, the position only that side may see
    (its sealed turn, R38), beside everyone else's; that side gets its own (with the clocks
    and session keys of the shared one), everyone else the shared one without it."""
    if not state or "sealed" not in state:
        return state
    sealed = state["sealed"]
    if side is not None and side == sealed["side"]:
        own = dict(sealed["state"])
        for key in ("clock", "adjournment", "offer"):
            if key in state:
                own[key] = state[key]
        return own
    return {k: v for k, v in state.items() if k != "sealed"}


# --- refusals ---------------------------------------------------------------------------------


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


# --- outcome and the game interface -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended: ``winner`` "I", "O" or None (no winner), ``reason`` the game's word
    for why (talu: elimination, invasion, forfeit, null, decision; ``aborted``, R37, for a
    game that never started), ``detail`` in words, ``cause`` why a decision was made (R37:
    ``time``, ``resignation``, ``abandonment``; "" for a result on the board)."""

    winner: str | None
    reason: str
    detail: str = ""
    cause: str = ""


class State(Protocol):
    """A game's state as its rules keep it. ``game`` names its rules (``play.games.registry``),
    ``version`` is the number of events folded into it (the log's version); the rest is the
    game's own."""

    game: str
    version: int

    @property
    def result(self) -> Result | None: ...


class GameRules(Protocol):
    """What a game (talu, later tablut) gives the server. Every function is pure apart from
    ``evolve``, which folds the event into the state it is given (states are owned: the
    server's engine cache lends one to one caller at a time, ``play.store.engines``)."""

    name: str

    def new_state(self, variant: str, options: GameOptions) -> State: ...

    def decide(self, state: State, actor: Actor, command: Command,
               now: datetime | None) -> list[Event]: ...

    def evolve(self, state: State, event: Event) -> State: ...

    def follow_up(self, state: State) -> list[Event]: ...

    def snapshot(self, state: State) -> dict[str, Any]: ...

    def turns(self, state: State) -> int:
        """Turns completed so far: the server refreshes a game's notation when it grows."""
        ...

    def notation(self, state: State) -> str:
        """The game's record of play so far (talu: STGN), kept on the game's row."""
        ...

    def side_to_move(self, state: State) -> str:
        """The side whose turn it is ("" when the game is over)."""
        ...

    def deadline(self, state: State) -> int | None:
        """When the running clock runs out (ms since the epoch), None when none runs (R36):
        the server keeps it on the game's row so the worker flags the game then."""
        ...

    def resume_at(self, state: State) -> int | None:
        """When an adjourned game resumes at a time its arbiter set (ms since the epoch), None
        when no such time is set (R38): kept on the game's row for the worker."""
        ...


@dataclass(frozen=True, slots=True)
class GameOptions:
    """The settings a game is created with, beside its variant: ``auto_warn`` is the automatic
    arbiter policy (R39 ``warn``; casual games have it, an event may switch it ``off``), and
    the time control with the moment the clocks start."""

    auto_warn: bool = True
    extra: dict[str, Any] = field(default_factory=dict)
    #: R36's time control, as its canonical text (``play.games.clock.parse``).
    time_control: str = "untimed"
    #: When the game began (ms since the epoch): the first clock runs from then.
    started: int | None = None
    #: The game is an event's (R41): a side that does not complete its opening turn in time
    #: loses it as an unplayed game, where a casual game is aborted (R36, R37).
    in_event: bool = False
