"""Sessions and adjournment (R38), for every game: offers, the sealed turn, resumption.

A game is adjourned between turns, by agreement (one player offers, every other accepts) or
by an arbiter. The seat to move then **seals** its next turn: it plays the turn as usual, but
its events are stored with that seat's visibility only (``Event.visibility``), and everyone
else keeps being shown the position before it (``Sessions.public``). When the sealed turn
ends, a ``seal`` event closes the session: the clock stops, its time charged. ``resume``
opens the next session; its data reveals the sealed turn to everyone.

An arbiter may instead set the time play resumes (``Resume`` with ``at``): a ``schedule``
event keeps it (``Sessions.resume_at``, on the game's row for the worker), and at that time
the clock's own ``resume`` (the worker, ``play.worker.clocks.resume_due``) opens the next
session, its clocks restarting then; the players may still resume sooner by agreement.

``Sessions`` keeps, per session that ended, what a game's records need (talu's STSE, book
6.5.2.2): the turns it holds, the game's own ``mark`` of the position then (talu: the board
before the sealed turn and the count of arbiter decisions), the clocks then and when it
started and ended.

Offers between players live here too: adjourn and resume (R38), and a null game or a draw
where the variant allows (``Variant.offers``). An offer is accepted when every seat still
playing has made it; a null or draw offer lapses when a seat that did not make it moves.
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
    IllegalCommand,
    NotAllowed,
    Resume,
    TooEarly,
)
from play.games.text import problem as text_problem

OFFER, ADJOURN, SEAL, RESUME, SCHEDULE = "offer", "adjourn", "seal", "resume", "schedule"
KINDS = (OFFER, ADJOURN, SEAL, RESUME, SCHEDULE)
#: How far ahead an arbiter may set a resumption (R38 sets no bound; a season of events).
SCHEDULE_MAX = 90 * 86_400_000


@dataclass
class SessionEnd:
    """Where one session ended: ``turns`` the turns completed then, ``mark`` the game's own
    note of the position (``GameRules.mark``; talu: ``board`` before the sealed turn and
    ``arbiter``, the count of its decisions), ``clocks`` each seat's time left (ms, None
    untimed), ``start``/``end`` ms since the epoch."""

    turns: int
    mark: dict[str, Any]
    clocks: dict[str, int] | None
    start: int | None
    end: int | None = None


@dataclass
class Sessions:
    """The adjournment state of a game and the offer standing: the offer (what, the seat
    that made it) and the seats that agree to it, the sealing seat, whether it is adjourned
    now, and the sessions that ended."""

    offer: tuple[str, str] | None = None  # (what, seat)
    agreed: set[str] = field(default_factory=set)  # the seats that made or accepted it
    sealing: str | None = None  # the seat sealing its turn (from adjourn to resume)
    adjourned: bool = False  # the sealed turn is complete; no clock runs
    public: dict[str, Any] | None = None  # the view everyone else sees meanwhile
    public_notation: str | None = None
    ended: list[SessionEnd] = field(default_factory=list)
    started: int | None = None  # when the current session began (ms)
    resume_at: int | None = None  # when the arbiter set play to resume (ms), R38
    schedule_reason: str = ""  # the arbiter's words when setting it

    @property
    def paused(self) -> bool:
        """Between the adjournment and the resumption (the sealed turn hidden)."""
        return self.sealing is not None

    def accepts(self, what: str, seat: str, seats: tuple[str, ...]) -> bool:
        """Whether ``seat`` making offer ``what`` completes it: every other seat still
        playing made it already."""
        return self.offer is not None and self.offer[0] == what and \
            all(s in self.agreed for s in seats if s != seat)

    def offered_by(self, what: str, seat: str) -> bool:
        return self.offer is not None and self.offer[0] == what and seat in self.agreed

    def clear_offer(self) -> None:
        self.offer, self.agreed = None, set()


def check_reason(reason: str) -> None:
    """An offer's or an adjournment's reason is shown to the opponents and kept in the records
    (R34, R38): one printable line, or none (issue 27: a NUL was refused by PostgreSQL's JSON,
    a line break by the record builder, a bidirectional control reordered what is shown)."""
    wrong = text_problem(reason, max_length=200)  # emoji joined by U+200D are words (issue 41)
    if wrong:
        raise BadCommand("a reason is one line of at most 200 printable characters (no "
                         f"control or bidirectional-control character): it {wrong}")


def decide_adjourn(s: Sessions, actor: Actor, command: Adjourn, at: int | None,
                   mover: str, between_turns: bool, seats: tuple[str, ...]) -> Event:
    """An offer, an acceptance, or an arbiter's adjournment; refused during a turn. ``mover``
    is the seat to move, ``seats`` those still playing. The game is live (the caller's)."""
    if s.paused:
        raise IllegalCommand("the game is already adjourned")
    if not (actor.plays or actor.kind == ARBITER):
        raise NotAllowed(f"only the players or an arbiter adjourn a game, not the {actor.kind}")
    if not between_turns:
        raise IllegalCommand(f"a game is adjourned between turns: {mover} is in the middle of "
                             "a turn")
    data: dict[str, Any] = {"reason": command.reason.strip()}
    if at is not None:
        data["t"] = at
    if actor.kind == ARBITER:
        data["by"] = "arbiter"
        return Event(ADJOURN, "", data, "adjourn", actor.kind)
    if s.accepts(ADJOURN, actor.seat, seats) and not s.offered_by(ADJOURN, actor.seat):
        data["by"] = "agreement"
        return Event(ADJOURN, actor.seat, data, "adjourn", actor.kind)
    if s.offered_by(ADJOURN, actor.seat):
        raise IllegalCommand("you have offered an adjournment already; your opponent decides")
    return Event(OFFER, actor.seat, {"what": ADJOURN, **data}, "offers adjournment",
                 actor.kind)


def decide_resume(s: Sessions, actor: Actor, command: Resume, at: int | None,
                  seats: tuple[str, ...], sealed: tuple[str, str]) -> Event:
    """An offer, an acceptance, or an arbiter's resumption of an adjourned game; an arbiter's
    time for the resumption (``command.at``), and the clock's resumption at that time.
    ``sealed`` is the sealed turn's label and notation (``GameRules.last_turn``), which the
    resumption reveals. The game is live (the caller's)."""
    if not (actor.plays or actor.kind in (ARBITER, CLOCK)):
        raise NotAllowed(f"only the players or an arbiter resume a game, not the {actor.kind}")
    if not s.paused:
        raise IllegalCommand("the game is not adjourned")
    if command.at is not None:
        return _schedule(actor, command, at)
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
    if actor.kind in (ARBITER, CLOCK) or (s.accepts(RESUME, actor.seat, seats)
                                          and not s.offered_by(RESUME, actor.seat)):
        data.setdefault("by", "arbiter" if actor.kind == ARBITER else "agreement")
        data["sealed"], data["text"] = sealed
        return Event(RESUME, actor.seat, data, "resume", actor.kind)
    if s.offered_by(RESUME, actor.seat):
        raise IllegalCommand("you have offered to resume already; your opponent decides")
    return Event(OFFER, actor.seat, {"what": RESUME, **data}, "offers to resume", actor.kind)


def _schedule(actor: Actor, command: Resume, at: int | None) -> Event:
    """R38: the arbiter sets the time play resumes (later than now, within
    ``SCHEDULE_MAX``); setting it again replaces it. Players resume by agreement instead."""
    if actor.kind != ARBITER:
        raise NotAllowed("only an arbiter sets the time play resumes (R38); players resume "
                         "by agreement, both present")
    when = command.at
    assert when is not None
    if at is not None and when <= at:
        raise IllegalCommand("the resumption time has passed: set a later time, or resume "
                             "now without one")
    if at is not None and when - at > SCHEDULE_MAX:
        raise BadCommand(f"a resumption is set at most {SCHEDULE_MAX // 86_400_000} days "
                         "ahead")
    data: dict[str, Any] = {"resume_at": when, "reason": command.reason.strip(),
                            "by": "arbiter"}
    if at is not None:
        data["t"] = at
    return Event(SCHEDULE, "", data, "resume at", actor.kind)


def sealed_visibility(s: Sessions) -> str:
    """Who may see a seat's move now: the sealing seat only while it seals (R38)."""
    return s.sealing if s.sealing and not s.adjourned else EVERYONE


def seal_due(s: Sessions, live: bool, to_act: tuple[str, ...], last_t: int | None
             ) -> list[Event]:
    """The ``seal`` that ends the session once the sealing seat's turn is over."""
    if s.sealing and not s.adjourned and live and to_act and s.sealing not in to_act:
        data = {"t": last_t} if last_t is not None else {}
        return [Event(SEAL, "", data, "sealed", SYSTEM)]
    return []
