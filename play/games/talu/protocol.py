"""Talu behind the game protocol (``play.games.protocol``): its state, decisions and events.

The state is the rules engine (``TaluGame``) with the log's version and the game's options.
Deciding a step checks it on the engine without playing it (``TaluGame.check``); folding the
step event plays it. Events, as stored since the first release (their ``kind`` and ``data``
unchanged, so every stored log replays):

- ``step``: ``data`` is the step (``{"kind", "from", "to"}``), ``side`` the side that played it;
- ``decide``: the game decided off the board (R15), ``data`` ``{"winner", "detail"}``;
- ``warn``: R14, ``data`` ``{"side", "reason"}``, no acting side;
- ``note``: an announcement of the system, ``data`` ``{"message"}``; changes nothing;
- ``count``: R39 ``count_as_pass``, ``data`` ``{"turn", "side", "reason", "by"}``: a turn
  already played counts as a pass (R12), the passing conventions checked again at once;
- ``forfeit``: R39, ``data`` ``{"side", "reason", "by"}``: ``side`` loses by the arbiter;
- ``null``: R39, ``data`` ``{"reason", "by"}``: the game is null by the arbiter.

An arbiter's ``warn`` is a ``warn`` event with ``by``. ``by`` names the arbiter (the record's
audit trail has the account; the session entry's ``arbiter`` item, R34, has the decision).

``follow_up`` is the automatic arbiter policy (R39 ``warn``, R14, R34): when a game becomes
flagged, both players are warned, by events stored with the step that caused them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from play.games.protocol import (
    ARBITER,
    SYSTEM,
    Actor,
    Announce,
    BadCommand,
    Command,
    CommandError,
    CountAsPass,
    DeclareNull,
    Event,
    Forfeit,
    GameOptions,
    GameOver,
    IllegalCommand,
    NotAllowed,
    NotYourTurn,
    PlayStep,
    Resign,
    Result,
    Warn,
)

from .errors import GameOverError, IllegalStepError, StepFormatError, TaluError
from .game import TaluGame
from .outcome import Side
from .steps import Step
from .variants import VARIANTS

STEP, DECIDE, WARN, NOTE = "step", "decide", "warn", "note"
COUNT, FORFEIT, NULL = "count", "forfeit", "null"  # the arbiter's (R39); kinds fit 8 chars
EVENT_KINDS = (STEP, DECIDE, WARN, NOTE, COUNT, FORFEIT, NULL)
MAX_MESSAGE = 500  # characters of an announcement
MAX_REASON = 500  # characters of an arbiter's reason


class TaluState:
    """A talu game as the server holds it: the engine, the log's version, the options."""

    __slots__ = ("engine", "options", "version")
    game = "talu"

    def __init__(self, engine: TaluGame, options: GameOptions, version: int = 0) -> None:
        self.engine = engine
        self.options = options
        self.version = version

    @property
    def result(self) -> Result | None:
        o = self.engine.outcome
        if o is None:
            return None
        return Result(o.winner.value if o.winner else None, o.reason.value, o.detail or "")


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
        if isinstance(command, PlayStep):
            return [self._step(state, actor, command.step)]
        if isinstance(command, Resign):
            return [self._resign(state, actor)]
        if isinstance(command, Warn):
            return [self._warn(state, actor, command)]
        if isinstance(command, CountAsPass):
            return [self._count(state, actor, command)]
        if isinstance(command, (Forfeit, DeclareNull)):
            return [self._end(state, actor, command)]
        if isinstance(command, Announce):
            return [self._announce(actor, command)]
        raise BadCommand(f"talu has no command {type(command).__name__}")

    def _step(self, state: TaluState, actor: Actor, raw: Any) -> Event:
        engine = state.engine
        if not actor.plays:
            raise NotAllowed(f"only the players play steps, not the {actor.kind}")
        side = engine.side_to_move
        if side is None:
            raise GameOver(f"the game is over ({engine._outcome_text()})")
        if side.value != actor.side:
            raise NotYourTurn(f"it is {side.value}'s turn, not yours")
        try:
            step = engine.check(Step.from_dict(raw))
        except TaluError as err:
            raise _rule_error(err) from None
        return Event(STEP, actor.side, step.to_dict(), str(step), actor.kind)

    def _resign(self, state: TaluState, actor: Actor) -> Event:
        if not actor.plays:
            raise NotAllowed(f"only a player can resign, not the {actor.kind}")
        if state.engine.outcome is not None:
            raise GameOver(f"the game is over ({state.engine._outcome_text()})")
        winner = Side(actor.side).other.value
        detail = f"{actor.side} resigned"
        return Event(DECIDE, actor.side, {"winner": winner, "detail": detail}, "resigns",
                     actor.kind)

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
            _arbiter_only(actor, "declare a forfeit")
            if command.side not in ("I", "O"):
                raise BadCommand(f"a forfeit names the side that loses, I or O, not "
                                 f"{command.side!r}")
            reason = _reason(command.reason, "a forfeit")
            _live(state)
            return Event(FORFEIT, "", {"side": command.side, "reason": reason,
                                       "by": actor.name}, f"forfeit {command.side}", actor.kind)
        _arbiter_only(actor, "declare the game null")
        reason = _reason(command.reason, "a null game")
        _live(state)
        return Event(NULL, "", {"reason": reason, "by": actor.name}, "null", actor.kind)

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
        ``TaluError`` for an event this state cannot take, having changed nothing."""
        apply_event(state.engine, event.kind, event.data)
        state.version += 1
        return state

    def follow_up(self, state: TaluState) -> list[Event]:
        """What the game's standing policies do now: the automatic arbiter (R39 ``warn``)
        warns every unwarned side once the game is flagged (R14)."""
        engine = state.engine
        if not state.options.auto_warn or engine.outcome is not None or not engine.flagged:
            return []
        return [Event(WARN, "", {"side": s, "reason": "non-engagement"}, f"warn {s}", SYSTEM)
                for s in ("I", "O") if Side(s) not in engine.warned]

    # --- reading ------------------------------------------------------------------------------
    def snapshot(self, state: TaluState) -> dict[str, Any]:
        return state.engine.snapshot()

    def turns(self, state: TaluState) -> int:
        return len(state.engine.turns)

    def notation(self, state: TaluState) -> str:
        return state.engine.stgn()


def _arbiter_only(actor: Actor, what: str) -> None:
    if actor.kind != ARBITER:
        raise NotAllowed(f"only an arbiter can {what}, not the {actor.kind}")


def _reason(reason: Any, what: str) -> str:
    """R39: every arbiter action names its reason in words."""
    text = reason.strip() if isinstance(reason, str) else ""
    if not text:
        raise BadCommand(f"{what} needs a reason in words")
    if len(text) > MAX_REASON or not text.isprintable():
        raise BadCommand(f"a reason is 1 to {MAX_REASON} printable characters")
    return text


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
    elif kind == NOTE:
        pass
    elif kind == COUNT:
        engine.count_as_pass(data["turn"], data.get("side") or None, data.get("reason") or "")
    elif kind == FORFEIT:
        engine.arbiter_end("forfeit", data["side"], data.get("reason") or "")
    elif kind == NULL:
        engine.arbiter_end("null", None, data.get("reason") or "")
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
    return ""


RULES = TaluRules()
