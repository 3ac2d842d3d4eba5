"""Talu behind the game protocol (``play.games.protocol``): its state, decisions and events.

The state is the rules engine (``TaluGame``) with the log's version and the game's options.
Deciding a step checks it on the engine without playing it (``TaluGame.check``); folding the
step event plays it. Events, as stored since the first release (their ``kind`` and ``data``
unchanged, so every stored log replays):

- ``step``: ``data`` is the step (``{"kind", "from", "to"}``), ``side`` the side that played it;
- ``decide``: the game decided off the board (R15), ``data`` ``{"winner", "detail"}``;
- ``warn``: R14, ``data`` ``{"side", "reason"}``, no acting side;
- ``note``: an announcement of the system, ``data`` ``{"message"}``; changes nothing;
- ``abort``: R37, the side to move (``side``) did not complete its opening turn in time; the
  game ends with no result;
- ``offer``: R38, a player offers to ``adjourn`` or ``resume`` (``data["what"]``);
- ``adjourn``: R38, the game is adjourned (``data["by"]``: ``agreement`` or ``arbiter``): the
  side to move now seals its turn; its steps are stored with that side's visibility only;
- ``seal``: the sealed turn is complete: the session ends, no clock runs;
- ``resume``: a new session begins; ``data["sealed"]`` reveals the sealed turn's steps.
- ``count``: R39 ``count_as_pass``, ``data`` ``{"turn", "side", "reason", "by"}``: a turn
  already played counts as a pass (R12), the passing conventions checked again at once;
- ``forfeit``: R39, ``data`` ``{"side", "reason", "by"}``: ``side`` loses by the arbiter;
- ``null``: R39, ``data`` ``{"reason", "by"}``: the game is null by the arbiter;
- ``addtime``: R39 ``add_time``, ``data`` ``{"side", "seconds", "reason", "by", "t"}``:
  ``seconds`` added to ``side``'s clock (``Clock.add``); the board does not change.

Timed games (R36) carry the clock in the log: every step and decision of a timed game has
``data["t"]``, the server's time of the decision (ms since the epoch), and a step may have
``data["lag"]``, the sender's measured lag; ``decide`` of a flag or resignation names its
``cause`` (R37: ``time``, ``resignation``). The clock (``play.games.clock``) is folded from
them, so a replay on any process has the same clocks.

An arbiter's ``warn`` is a ``warn`` event with ``by``. ``by`` names the arbiter (the record's
audit trail has the account; the session entry's ``arbiter`` item, R34, has the decision).

``follow_up`` is the automatic arbiter policy (R39 ``warn``, R14, R34): when a game becomes
flagged, both players are warned, by events stored with the step that caused them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from play.games.clock import (
    SECOND,
    Clock,
    TimeControlError,
    amount_text,
    check_addition,
    ms,
    parse,
)
from play.games.protocol import (
    ARBITER,
    SYSTEM,
    Actor,
    AddTime,
    Adjourn,
    Announce,
    BadCommand,
    ClaimAbsence,
    Command,
    CommandError,
    CountAsPass,
    DeclareNull,
    Event,
    Flag,
    Forfeit,
    GameOptions,
    GameOver,
    IllegalCommand,
    NotAllowed,
    NotYourTurn,
    PlayStep,
    Resign,
    Result,
    Resume,
    TooEarly,
    Warn,
)
from play.games.text import problem as text_problem

from . import adjournment
from .adjournment import Sessions
from .errors import GameOverError, IllegalStepError, StepFormatError, TaluError
from .game import TaluGame
from .outcome import Side, side_name
from .outcome import describe as describe_outcome
from .steps import Step
from .stgn import write_stgn
from .variants import VARIANTS

STEP, DECIDE, WARN, NOTE, ABORT = "step", "decide", "warn", "note", "abort"
COUNT, FORFEIT, NULL = "count", "forfeit", "null"  # the arbiter's (R39); kinds fit 8 chars
ADDTIME = "addtime"  # R39 add_time
EVENT_KINDS = (STEP, DECIDE, WARN, NOTE, ABORT, COUNT, FORFEIT, NULL, ADDTIME,
               *adjournment.KINDS)
ABORTED = "aborted"  # R37: the result reason of a game that never started
UNPLAYED = "unplayed"  # R41: the cause of an event game's opening turn not completed in time
MAX_MESSAGE = 500  # characters of an announcement
MAX_REASON = 500  # characters of an arbiter's reason


class TaluState:
    """A talu game as the server holds it: the engine, the log's version, the options, the
    clock (None: untimed) and why a decision was made (R37)."""

    __slots__ = ("aborted", "cause", "clock", "engine", "last_t", "options", "sessions",
                 "version")
    game = "talu"

    def __init__(self, engine: TaluGame, options: GameOptions, version: int = 0) -> None:
        self.engine = engine
        self.options = options
        self.version = version
        self.cause = ""
        self.aborted = False
        self.sessions = Sessions(started=options.started)
        self.last_t: int | None = None  # the time of the last event that had one
        try:
            tc = parse(options.time_control)
        except TimeControlError:  # pragma: no cover - stored controls were checked at start
            tc = parse("untimed")
        self.clock = Clock(tc, options.started) if tc.timed else None

    @property
    def result(self) -> Result | None:
        o = self.engine.outcome
        if o is None:
            return None
        if self.aborted:
            return Result(None, ABORTED, o.detail or "", ABORTED)
        return Result(o.winner.value if o.winner else None, o.reason.value, o.detail or "",
                      self.cause)


def _rule_error(err: TaluError) -> CommandError:
    """The protocol's refusal for an error of the rules core (its message unchanged)."""
    if isinstance(err, GameOverError):
        return GameOver(str(err))
    if isinstance(err, StepFormatError):
        return BadCommand(str(err))
    if isinstance(err, IllegalStepError):
        return IllegalCommand(str(err))
    return BadCommand(str(err))


class TaluRules:
    """``GameRules`` of talu (book ch. 4, R1-R15)."""

    name = "talu"
    variants = tuple(VARIANTS)

    def new_state(self, variant: str, options: GameOptions | None = None) -> TaluState:
        return TaluState(TaluGame(variant), options or GameOptions())

    # --- deciding -----------------------------------------------------------------------------
    def decide(self, state: TaluState, actor: Actor, command: Command,
               now: datetime | None = None) -> list[Event]:
        """The events ``command`` of ``actor`` causes now, or a ``CommandError``; the state is
        not changed (``evolve`` folds the events in)."""
        at = ms(now) if now is not None and state.clock is not None else None
        if isinstance(command, PlayStep):
            clock = state.clock
            if (at is not None and clock is not None and actor.plays
                    and clock.running == actor.side and state.engine.outcome is None
                    and clock.out(at - clock.credit(actor.side, command.lag))):
                return [self._time_out(state, actor, at)]  # too late: the flag, not the step
            return [self._step(state, actor, command.step, at, command.lag)]
        if isinstance(command, Resign):
            return [self._resign(state, actor, at)]
        if isinstance(command, Flag):
            return [self._flag(state, actor, at)]
        if isinstance(command, ClaimAbsence):
            return [self._claim(state, actor, command, at)]
        at = ms(now) if now is not None else None  # sessions keep their times, timed or not
        if isinstance(command, Adjourn):
            return [adjournment.decide_adjourn(state.engine, state.sessions, actor, command, at)]
        if isinstance(command, Resume):
            return [adjournment.decide_resume(state.engine, state.sessions, actor, command, at)]
        if isinstance(command, Warn):
            return [self._warn(state, actor, command)]
        if isinstance(command, CountAsPass):
            return [self._count(state, actor, command)]
        if isinstance(command, (Forfeit, DeclareNull)):
            return [self._end(state, actor, command)]
        if isinstance(command, AddTime):
            return [self._add_time(state, actor, command, at)]
        if isinstance(command, Announce):
            return [self._announce(actor, command)]
        raise BadCommand(f"talu has no command {type(command).__name__}")

    def _step(self, state: TaluState, actor: Actor, raw: Any, at: int | None = None,
              lag: int = 0) -> Event:
        engine = state.engine
        if not actor.plays:
            raise NotAllowed(f"only the players play steps, not the {actor.kind}")
        side = engine.side_to_move
        if side is None:
            raise GameOver(f"the game is over ({engine._outcome_text()})")
        if side.value != actor.side:
            raise NotYourTurn(f"it is {side_name(side)}'s turn ({side.value}), not yours")
        if state.sessions.adjourned:
            raise IllegalCommand("the game is adjourned: play resumes when both players agree "
                                 "or the arbiter resumes it")
        try:
            step = engine.check(Step.from_dict(raw))
        except TaluError as err:
            raise _rule_error(err) from None
        data = step.to_dict()
        if at is not None:
            data["t"] = at
            if lag > 0:
                data["lag"] = int(lag)
        return Event(STEP, actor.side, data, str(step), actor.kind,
                     adjournment.sealed_visibility(state.sessions))

    def _flag(self, state: TaluState, actor: Actor, at: int | None) -> Event:
        """R37: the clock's flag at the deadline, or a player's claim, checked on the clock."""
        if state.engine.outcome is not None:
            raise GameOver(f"the game is over ({state.engine._outcome_text()})")
        clock = state.clock
        if clock is None:
            raise IllegalCommand("this game is untimed: there is no clock to flag")
        if clock.running is None:
            raise IllegalCommand("no clock is running")
        if at is None or not clock.out(at):
            left = clock.left(clock.running, at or clock.since)
            raise TooEarly(f"{clock.running}'s clock has not run out: {left / 1000:.1f} s left")
        return self._time_out(state, actor, at)

    def _claim(self, state: TaluState, actor: Actor, command: ClaimAbsence,
               at: int | None) -> Event:
        """R37: a claim against a player gone for the absence limit (live timed games)."""
        if not actor.plays:
            raise NotAllowed(f"only a player can claim a game, not the {actor.kind}")
        if state.engine.outcome is not None:
            raise GameOver(f"the game is over ({state.engine._outcome_text()})")
        clock = state.clock
        limit = clock.tc.absence_ms if clock is not None else None
        if limit is None:
            raise IllegalCommand("only live timed games can be claimed for absence; in "
                                 "correspondence the per-turn days decide")
        if state.sessions.paused:
            raise IllegalCommand("the game is adjourned: nobody is expected at the board")
        if command.result not in ("win", "null"):
            raise BadCommand("a claim asks for 'win' or 'null'")
        gone = Side(actor.side).other.value
        if command.absent_for is None:
            raise TooEarly(f"{gone} is connected")
        if command.absent_for < limit:
            raise TooEarly(f"{gone} has been gone {command.absent_for / 1000:.0f} s; you may "
                           f"claim after {limit / 1000:.0f} s")
        winner = actor.side if command.result == "win" else None
        data: dict[str, Any] = {"winner": winner, "cause": "abandonment",
                                "detail": f"{gone} left the game"}
        if at is not None:
            data["t"] = at
        return Event(DECIDE, actor.side, data, "abandoned", actor.kind)

    def _time_out(self, state: TaluState, actor: Actor, at: int) -> Event:
        """The running side's time is out at ``at``: in its opening turn, an abort (R36,
        R37), or in an event's game an unplayed game lost by that side (R41: a decision with
        cause ``unplayed``, not rated); else the other side wins by decision, cause ``time``
        (R37)."""
        assert state.clock is not None and state.clock.running is not None
        side = state.clock.running
        if state.clock.in_opening(side):
            detail = f"{side} did not complete the opening turn in time"
            if state.options.in_event:  # R41's exception to R36's abort
                return Event(DECIDE, side, {"winner": Side(side).other.value,
                                            "detail": detail, "cause": UNPLAYED, "t": at},
                             UNPLAYED, actor.kind)
            return Event(ABORT, side, {"t": at, "detail": detail}, "aborted", actor.kind)
        winner = Side(side).other.value
        return Event(DECIDE, side, {"winner": winner, "detail": f"{side} ran out of time",
                                    "cause": "time", "t": at}, "time", actor.kind)

    def _resign(self, state: TaluState, actor: Actor, at: int | None = None) -> Event:
        if not actor.plays:
            raise NotAllowed(f"only a player can resign, not the {actor.kind}")
        if state.engine.outcome is not None:
            raise GameOver(f"the game is over ({state.engine._outcome_text()})")
        winner = Side(actor.side).other.value
        detail = f"{actor.side} resigned"
        data: dict[str, Any] = {"winner": winner, "detail": detail, "cause": "resignation"}
        if at is not None:
            data["t"] = at
        return Event(DECIDE, actor.side, data, "resigns", actor.kind)

    def _warn(self, state: TaluState, actor: Actor, command: Warn) -> Event:
        if actor.kind not in (ARBITER, SYSTEM):
            raise NotAllowed(f"only an arbiter can warn a player, not the {actor.kind}")
        if command.side not in ("I", "O"):
            raise BadCommand(f"a warning names a side, I or O, not {command.side!r}")
        reason = _reason(command.reason, "a warning")
        _live(state)
        if Side(command.side) in state.engine.warned:
            raise IllegalCommand(f"{command.side} has been warned already")
        data = {"side": command.side, "reason": reason}
        if actor.kind == ARBITER:
            data["by"] = actor.name
        return Event(WARN, "", data, f"warn {command.side}", actor.kind)

    def _count(self, state: TaluState, actor: Actor, command: CountAsPass) -> Event:
        _arbiter_only(actor, "count a turn as a pass")
        if command.side not in ("", "I", "O"):
            raise BadCommand(f"a turn is I's or O's, not {command.side!r}")
        reason = _reason(command.reason, "counting a turn as a pass")
        _live(state)
        try:
            rec = state.engine.check_count_as_pass(command.turn)
        except TaluError as err:
            raise _rule_error(err) from None
        if command.side and command.side != rec.side.value:
            raise IllegalCommand(f"turn {rec.label} was played by {rec.side.value}, not by "
                                 f"{command.side}")
        return Event(COUNT, "", {"turn": rec.label, "side": rec.side.value, "reason": reason,
                                 "by": actor.name}, f"count {rec.label}", actor.kind)

    def _end(self, state: TaluState, actor: Actor, command: Forfeit | DeclareNull) -> Event:
        if isinstance(command, Forfeit):
            reason = _arbiter_action(state, actor, "declare a forfeit", command.reason,
                                     "a forfeit", command.side,
                                     "a forfeit names the side that loses")
            return Event(FORFEIT, "", {"side": command.side, "reason": reason,
                                       "by": actor.name}, f"forfeit {command.side}", actor.kind)
        reason = _arbiter_action(state, actor, "declare the game null", command.reason,
                                 "a null game")
        return Event(NULL, "", {"reason": reason, "by": actor.name}, "null", actor.kind)

    def _add_time(self, state: TaluState, actor: Actor, command: AddTime,
                  at: int | None) -> Event:
        """R39 ``add_time``: an arbiter adds seconds to one side's clock of a timed game (R36),
        with a reason; refused, with nothing changed, for an untimed or finished game, an
        amount out of range (``clock.check_addition``) or a clock that cannot take it now
        (``Clock.refuse_addition``: an opening turn, a clock already out, a cap)."""
        reason = _arbiter_action(state, actor, "add time to a clock", command.reason,
                                 "adding time", command.side,
                                 "add_time names the side whose clock gets the time")
        clock = state.clock
        if clock is None:
            raise IllegalCommand("this game is untimed: there is no clock to add time to")
        try:
            seconds = check_addition(clock.tc, command.seconds)
        except TimeControlError as err:
            raise BadCommand(str(err)) from None
        refusal = clock.refuse_addition(command.side, seconds * SECOND, at)
        if refusal:
            raise IllegalCommand(refusal)
        data: dict[str, Any] = {"side": command.side, "seconds": seconds, "reason": reason,
                                "by": actor.name}
        if at is not None:
            data["t"] = at
        return Event(ADDTIME, "", data, f"add {seconds} s to {command.side}", actor.kind)

    def _announce(self, actor: Actor, command: Announce) -> Event:
        if actor.kind != SYSTEM:
            raise NotAllowed(f"only the system makes announcements, not the {actor.kind}")
        message = command.message.strip()
        if not message or len(message) > MAX_MESSAGE:
            raise BadCommand(f"an announcement is 1 to {MAX_MESSAGE} characters")
        return Event(NOTE, "", {"message": message}, message[:40], actor.kind)

    # --- evolving -----------------------------------------------------------------------------
    def evolve(self, state: TaluState, event: Event) -> TaluState:
        """Fold ``event`` into ``state`` (in place) and count it. Raises the rules core's
        ``TaluError`` for an event this state cannot take, having changed nothing. The clock
        switches when a turn ended (never between the steps of a turn, R36) and stops when
        the game ended."""
        engine = state.engine
        turns = len(engine.turns)
        if event.kind in adjournment.KINDS:
            adjournment.evolve(engine, state.sessions, event, state.clock,
                               lambda: (engine.snapshot(), engine.stgn()))
            if isinstance(event.data.get("t"), int):
                state.last_t = event.data["t"]
            state.version += 1
            return state
        apply_event(engine, event.kind, event.data)
        if isinstance(event.data.get("t"), int):
            state.last_t = event.data["t"]
        if event.kind == DECIDE:
            state.cause = event.data.get("cause") or ""
        elif event.kind == ABORT:
            state.aborted = True
        clock, at = state.clock, event.data.get("t")
        if event.kind == ADDTIME and clock is not None:
            clock.add(event.data["side"], int(event.data["seconds"]) * SECOND)
        if clock is not None and isinstance(at, int):
            if engine.outcome is not None:
                clock.stop(at, flagged=event.side if state.cause == "time" else None)
            elif len(engine.turns) != turns:
                clock.end_turn(at, event.data.get("lag") or 0)
        state.version += 1
        return state

    def follow_up(self, state: TaluState) -> list[Event]:
        """What the game's standing policies do now: the automatic arbiter (R39 ``warn``)
        warns every unwarned side once the game is flagged (R14)."""
        engine = state.engine
        sealed = adjournment.follow_up(engine, state.sessions, state.last_t)
        if sealed:
            return sealed
        if state.sessions.paused:  # a warning now would tell of the sealed turn (R38); it
            return []  # comes with the first command after the resumption
        if not state.options.auto_warn or engine.outcome is not None or not engine.flagged:
            return []
        return [Event(WARN, "", {"side": s, "reason": "non-engagement"}, f"warn {s}", SYSTEM)
                for s in ("I", "O") if Side(s) not in engine.warned]

    # --- reading ------------------------------------------------------------------------------
    def snapshot(self, state: TaluState) -> dict[str, Any]:
        """The engine's snapshot, and for a timed game its ``clock``; a decided game's
        ``outcome`` names its ``cause`` (R37)."""
        sessions = state.sessions
        snap = state.engine.snapshot()
        if sessions.paused and sessions.public is not None and state.engine.outcome is None:
            # R38: everyone but the sealing side sees the position before the sealed turn;
            # the sealing side's own is beside it, for ``adjournment.viewer_state`` only.
            own = snap
            snap = dict(sessions.public)
            snap["sealed"] = {"side": sessions.sealing, "state": own}
            snap["adjournment"] = {"sealing": sessions.sealing, "adjourned": sessions.adjourned,
                                   "session": len(sessions.ended) + 1,
                                   "resume_at": sessions.resume_at}
        if sessions.offer is not None:
            snap["offer"] = {"what": sessions.offer[0], "side": sessions.offer[1]}
        if state.clock is not None:
            snap["clock"] = state.clock.snapshot()
        outcome = snap["outcome"]
        if outcome is not None and state.engine.arbiter:
            # A result resting on decisions (R34) in notation that replays (R15, issue 27).
            snap["notation"] = write_stgn(state.engine).splitlines()
        if outcome is not None and (state.cause or state.aborted):
            outcome["cause"] = ABORTED if state.aborted else state.cause
            if state.aborted:
                outcome["reason"], outcome["winner"] = ABORTED, None
                outcome["text"] = describe_outcome(None, ABORTED, outcome.get("detail", ""))
        return snap

    def side_to_move(self, state: TaluState) -> str:
        """The side to move; "" when over, and while adjourned (nobody is: R38)."""
        side = state.engine.side_to_move
        if side is None or state.sessions.adjourned:
            return ""
        return side.value

    def deadline(self, state: TaluState) -> int | None:
        """When the running clock runs out (ms since the epoch), or None: untimed, stopped,
        or the game is over. The server keeps it on the game's row for the worker."""
        if state.clock is None or state.engine.outcome is not None:
            return None
        return state.clock.deadline()

    def resume_at(self, state: TaluState) -> int | None:
        """R38: when an adjourned game resumes at the time its arbiter set (ms since the
        epoch), or None. The server keeps it on the game's row for the worker."""
        if state.engine.outcome is not None:
            return None
        return state.sessions.resume_at

    def turns(self, state: TaluState) -> int:
        return len(state.engine.turns)

    def notation(self, state: TaluState) -> str:
        """The game's STGN, which ``talu replay`` reads to the same result (a result resting
        on arbiter decisions written as decided off the board, R15: ``write_stgn``); while a
        turn is sealed, without it (R38: shown to nobody)."""
        if state.sessions.paused and state.sessions.public_stgn is not None:
            return state.sessions.public_stgn
        return write_stgn(state.engine)


def _arbiter_only(actor: Actor, what: str) -> None:
    if actor.kind != ARBITER:
        raise NotAllowed(f"only an arbiter can {what}, not the {actor.kind}")


def _arbiter_action(state: TaluState, actor: Actor, what: str, reason: Any, for_reason: str,
                    side: str | None = None, names_side: str = "") -> str:
    """The checks of an arbiter's action, in order (R39): only an arbiter sends it; the side
    it names (``side``, when it names one) is I or O; it has a reason in words; the game is
    in play. The reason, trimmed; else the refusal, nothing changed."""
    _arbiter_only(actor, what)
    if side is not None and side not in ("I", "O"):
        raise BadCommand(f"{names_side}, I or O, not {side!r}")
    words = _reason(reason, for_reason)
    _live(state)
    return words


def _reason(reason: Any, what: str) -> str:
    """R39: every arbiter action names its reason in words."""
    words = reason.strip() if isinstance(reason, str) else ""
    if not words:
        raise BadCommand(f"{what} needs a reason in words")
    # The one check of external text: one line, no control or bidirectional-control
    # character; emoji joined by U+200D are words like any (issue 41, finding 11).
    wrong = text_problem(words, max_length=MAX_REASON)
    if wrong:
        raise BadCommand(f"a reason is 1 to {MAX_REASON} characters of one line: it {wrong}")
    return words


def _live(state: TaluState) -> None:
    if state.engine.outcome is not None:
        raise GameOver(f"the game is over ({state.engine._outcome_text()})")


def apply_event(engine: TaluGame, kind: str, data: dict[str, Any]) -> None:
    """Fold one stored event into ``engine`` (the replay of a log; R40)."""
    if kind == STEP:
        engine.play(Step.from_dict(data))
    elif kind == DECIDE:
        engine.decide(data.get("winner"), data.get("detail") or "decision")
    elif kind == WARN:
        engine.warn(data["side"], data.get("reason") or "non-engagement")
    elif kind == ABORT:
        engine.decide(None, data.get("detail") or ABORTED)
    elif kind in (NOTE, *adjournment.KINDS):
        pass
    elif kind == COUNT:
        engine.count_as_pass(data["turn"], data.get("side") or None, data.get("reason") or "")
    elif kind == FORFEIT:
        engine.arbiter_end("forfeit", data["side"], data.get("reason") or "")
    elif kind == NULL:
        engine.arbiter_end("null", None, data.get("reason") or "")
    elif kind == ADDTIME:
        engine.add_time(data["side"], int(data["seconds"]), data.get("reason") or "")
    else:
        raise TaluError(f"unknown event kind {kind!r}")


_NAMES = {"I": "light", "O": "dark"}


def describe(kind: str, data: dict[str, Any]) -> str:
    """An arbiter's event in words, as the board shows it ("Arbiter: light is warned for
    non-engagement"); "" for any other event."""
    side = _NAMES.get(str(data.get("side") or ""), "")
    reason = data.get("reason") or ""
    if kind == WARN:
        return f"Arbiter: {side} is warned for {reason}"
    if kind == COUNT:
        return f"Arbiter: {side}'s turn {data.get('turn')} counts as a pass ({reason})"
    if kind == FORFEIT:
        return f"Arbiter: {side} forfeits ({reason})"
    if kind == NULL:
        return f"Arbiter: the game is null ({reason})"
    if kind == ADDTIME:
        return (f"Arbiter: {amount_text(int(data.get('seconds') or 0))} added to {side}'s "
                f"clock ({reason})")
    return ""


RULES = TaluRules()
