"""Sessions and adjournment of a talu game (R38), pure: offers, the sealed turn, resumption.

A game is adjourned between turns, by agreement (one player offers, the other accepts) or by
an arbiter. The side to move then **seals** its next turn: it plays the turn as usual, but its
steps are stored with that side's visibility only (``Event.visibility``), and everyone else
keeps being shown the position before it (``public_snapshot``). When the sealed turn ends, a
``seal`` event closes the session: the clock stops, its time charged. ``resume`` opens the next
session; its data reveals the sealed turn to everyone.

An arbiter may instead set the time play resumes (``Resume`` with ``at``): a ``schedule``
event keeps it (``Sessions.resume_at``, on the game's row for the worker), and at that time
the clock's own ``resume`` (the worker, ``play.worker.clocks.resume_due``) opens the next
session, its clocks restarting then; the players may still resume sooner by agreement.

``Sessions`` keeps, per session that ended, what its record (STSE, book 6.5.2.2) needs: the
turns and arbiter decisions it holds (counts into the engine's lists), the board at its end
(before the sealed turn), the clocks then and when it started and ended; the registry's
archive builds one signed, chained entry per session from it (``registry.archiving``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from play.games.protocol import (
    ARBITER,
    CLOCK,
    EVERYONE,
    SYSTEM,
    Actor,
    Adjourn,
    BadCommand,
    Event,
    GameOver,
    IllegalCommand,
    NotAllowed,
    Resume,
    TooEarly,
)
from play.games.text import problem as text_problem

from .decisions import ArbiterDecision
from .game import TaluGame
from .outcome import Side

OFFER, ADJOURN, SEAL, RESUME, SCHEDULE = "offer", "adjourn", "seal", "resume", "schedule"
KINDS = (OFFER, ADJOURN, SEAL, RESUME, SCHEDULE)
#: How far ahead an arbiter may set a resumption (R38 sets no bound; a season of events).
SCHEDULE_MAX = 90 * 86_400_000


@dataclass
class SessionEnd:
    """Where one session ended: ``turns`` and ``arbiter`` are the lengths of the engine's
    turn and decision lists then, ``board`` the position (before the sealed turn), ``clocks``
    each side's time left (ms, None untimed), ``start``/``end`` ms since the epoch."""

    turns: int
    arbiter: int
    board: dict[str, list[str]]
    clocks: dict[str, int] | None
    start: int | None
    end: int | None = None


@dataclass
class Sessions:
    """The adjournment state of a game: a pending offer, the sealing side, whether it is
    adjourned now, and the sessions that ended."""

    offer: tuple[str, str] | None = None  # (what, side)
    sealing: str | None = None  # the side sealing its turn (from adjourn to resume)
    adjourned: bool = False  # the sealed turn is complete; no clock runs
    public: dict[str, Any] | None = None  # the snapshot everyone else sees meanwhile
    public_stgn: str | None = None
    ended: list[SessionEnd] = field(default_factory=list)
    started: int | None = None  # when the current session began (ms)
    resume_at: int | None = None  # when the arbiter set play to resume (ms), R38
    schedule_reason: str = ""  # the arbiter's words when setting it

    @property
    def paused(self) -> bool:
        """Between the adjournment and the resumption (the sealed turn hidden)."""
        return self.sealing is not None


def _side_other(side: str) -> str:
    return "O" if side == "I" else "I"


def _check_reason(reason: str) -> None:
    """An offer's or an adjournment's reason is shown to the opponent and kept in the records
    (R34, R38): one printable line, or none (issue 27: a NUL was refused by PostgreSQL's JSON,
    a line break by the record builder, a bidirectional control reordered what is shown)."""
    wrong = text_problem(reason, max_length=200)  # emoji joined by U+200D are words (issue 41)
    if wrong:
        raise BadCommand("a reason is one line of at most 200 printable characters (no "
                         f"control or bidirectional-control character): it {wrong}")


def decide_adjourn(engine: TaluGame, s: Sessions, actor: Actor, command: Adjourn,
                   at: int | None) -> Event:
    """An offer, an acceptance, or an arbiter's adjournment; refused during a turn."""
    _check_reason(command.reason)
    if engine.outcome is not None:
        raise GameOver(f"the game is over ({engine._outcome_text()})")
    if s.paused:
        raise IllegalCommand("the game is already adjourned")
    if not (actor.plays or actor.kind == ARBITER):
        raise NotAllowed(f"only the players or an arbiter adjourn a game, not the {actor.kind}")
    mover = engine.side_to_move.value if engine.side_to_move else ""
    if engine.steps_used:
        raise IllegalCommand(f"a game is adjourned between turns: {mover} is in the middle of "
                             "a turn")
    data: dict[str, Any] = {"reason": command.reason.strip()}
    if at is not None:
        data["t"] = at
    if actor.kind == ARBITER:
        data["by"] = "arbiter"
        return Event(ADJOURN, "", data, "adjourn", actor.kind)
    if s.offer == (ADJOURN, _side_other(actor.side)):
        data["by"] = "agreement"
        return Event(ADJOURN, actor.side, data, "adjourn", actor.kind)
    if s.offer == (ADJOURN, actor.side):
        raise IllegalCommand("you have offered an adjournment already; your opponent decides")
    return Event(OFFER, actor.side, {"what": ADJOURN, **data}, "offers adjournment",
                 actor.kind)


def decide_resume(engine: TaluGame, s: Sessions, actor: Actor, command: Resume,
                  at: int | None) -> Event:
    """An offer, an acceptance, or an arbiter's resumption of an adjourned game; an arbiter's
    time for the resumption (``command.at``), and the clock's resumption at that time."""
    _check_reason(command.reason)
    if engine.outcome is not None:
        raise GameOver(f"the game is over ({engine._outcome_text()})")
    if not (actor.plays or actor.kind in (ARBITER, CLOCK)):
        raise NotAllowed(f"only the players or an arbiter resume a game, not the {actor.kind}")
    if not s.paused:
        raise IllegalCommand("the game is not adjourned")
    if command.at is not None:
        return _schedule(s, actor, command, at)
    if actor.kind == CLOCK:  # the worker, at the time the arbiter set (R38)
        if s.resume_at is None:
            raise IllegalCommand("no time is set for this game to resume")
        if at is None or at < s.resume_at:
            raise TooEarly(f"play resumes at the time the arbiter set, "
                           f"{(s.resume_at - (at or 0)) / 1000:.0f} s from now")
    if not s.adjourned:
        raise IllegalCommand(f"{s.sealing} has not sealed the turn yet")
    data: dict[str, Any] = {"reason": command.reason.strip()}
    if at is not None:
        data["t"] = at
    if actor.kind == CLOCK:
        data["by"] = "arbiter"  # the arbiter's decision, carried out at its time
        data["reason"] = s.schedule_reason or "resumed at the time the arbiter set"
    if actor.kind in (ARBITER, CLOCK) or s.offer == (RESUME, _side_other(actor.side)):
        data.setdefault("by", "arbiter" if actor.kind == ARBITER else "agreement")
        sealed = engine.turns[-1] if engine.turns else None
        data["sealed"] = sealed.label if sealed else ""
        data["text"] = engine.stgn_lines()[-1] if sealed else ""
        return Event(RESUME, actor.side, data, "resume", actor.kind)
    if s.offer == (RESUME, actor.side):
        raise IllegalCommand("you have offered to resume already; your opponent decides")
    return Event(OFFER, actor.side, {"what": RESUME, **data}, "offers to resume", actor.kind)


def _schedule(s: Sessions, actor: Actor, command: Resume, at: int | None) -> Event:
    """R38: the arbiter sets the time play resumes (later than now, within
    ``SCHEDULE_MAX``); setting it again replaces it. Players resume by agreement instead."""
    if actor.kind != ARBITER:
        raise NotAllowed("only an arbiter sets the time play resumes (R38); players resume "
                         "by agreement, both present")
    when = command.at
    if at is not None and when <= at:  # type: ignore[operator]
        raise IllegalCommand("the resumption time has passed: set a later time, or resume "
                             "now without one")
    if at is not None and when - at > SCHEDULE_MAX:  # type: ignore[operator]
        raise BadCommand(f"a resumption is set at most {SCHEDULE_MAX // 86_400_000} days "
                         "ahead")
    data: dict[str, Any] = {"resume_at": when, "reason": command.reason.strip(),
                            "by": "arbiter"}
    if at is not None:
        data["t"] = at
    return Event(SCHEDULE, "", data, "resume at", actor.kind)


def sealed_visibility(s: Sessions) -> str:
    """Who may see a step now: the sealing side only while it seals (R38)."""
    return s.sealing if s.sealing and not s.adjourned else EVERYONE


def follow_up(engine: TaluGame, s: Sessions, last_t: int | None) -> list[Event]:
    """The ``seal`` that ends the session once the sealing side's turn is over."""
    if s.sealing and not s.adjourned and engine.outcome is None and \
            engine.side_to_move is not None and engine.side_to_move.value != s.sealing:
        data = {"t": last_t} if last_t is not None else {}
        return [Event(SEAL, "", data, "sealed", SYSTEM)]
    return []


def evolve(engine: TaluGame, s: Sessions, event: Event, clock: Any, public: Any) -> None:
    """Fold an adjournment event into ``s`` (and the engine's arbiter list, R34; the clock).
    ``public`` gives the snapshot and notation everyone else sees while the turn is sealed."""
    kind, data = event.kind, event.data
    at = data.get("t")
    if kind == OFFER:
        s.offer = (data.get("what") or ADJOURN, event.side)
    elif kind == ADJOURN:
        s.offer = None
        s.sealing = engine.side_to_move.value if engine.side_to_move else None
        reason = data.get("reason") or f"adjourned by {data.get('by') or 'agreement'}"
        # R34's item names a side: the one that seals its turn
        engine.arbiter.append(ArbiterDecision(engine._last_label(), "adjourn",
                                              Side(s.sealing) if s.sealing else None, reason))
        s.public, s.public_stgn = public()
        s.ended.append(SessionEnd(len(engine.turns), len(engine.arbiter), engine.board(),
                                  None, s.started, at))
    elif kind == SEAL:
        s.adjourned = True
        if clock is not None and isinstance(at, int):
            clock.stop(at)
        if s.ended:
            s.ended[-1].end = at
            if clock is not None:
                s.ended[-1].clocks = {side: clock.budget(side) for side in ("I", "O")}
    elif kind == SCHEDULE:
        s.resume_at = data.get("resume_at")
        s.schedule_reason = data.get("reason") or ""
    elif kind == RESUME:
        s.offer = None
        s.resume_at, s.schedule_reason = None, ""
        sealer = Side(s.sealing) if s.sealing else None
        s.sealing, s.adjourned, s.public, s.public_stgn = None, False, None, None
        s.started = at
        reason = data.get("reason") or f"resumed by {data.get('by') or 'agreement'}"
        label = data.get("sealed") or engine._last_label()
        engine.arbiter.append(ArbiterDecision(label, "resume", sealer, reason))
        if clock is not None and isinstance(at, int) and engine.side_to_move is not None:
            clock.resume(engine.side_to_move.value, at)

