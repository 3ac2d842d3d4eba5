"""Talu behind the game contract (``play.games.protocol.GameRules``): its seats, moves, own
commands and events; the match (``play.games.match``) runs everything around them.

The engine (``TaluGame``) is the game's state. Deciding a step checks it on the engine
without playing it (``TaluGame.check``); folding the step event plays it. Talu's events and
the match's, as stored since the first release (their ``kind`` and ``data`` unchanged, so
every stored log replays):

- talu's own: ``step`` (``data`` the step ``{"kind", "from", "to"}``, ``side`` the side that
  played it), ``warn`` (R14, ``data`` ``{"side", "reason"}``, no acting side), ``count``
  (R39 ``count_as_pass``, ``data`` ``{"turn", "side", "reason", "by"}``: a turn already played
  counts as a pass (R12), the passing conventions checked again at once);
- the match's, which talu records in its notation (``on_match``: R15, R34): ``decide`` (the
  game decided off the board, ``data`` ``{"winner", "detail", "cause"}``), ``abort`` (R37),
  ``forfeit`` and ``null`` (R39), ``addtime`` (R39), ``adjourn`` and ``resume`` (R38, an
  arbiter item naming the sealing side); ``note``, ``offer``, ``seal``, ``schedule`` and
  ``decline`` change nothing of talu's.

Talu's seats are the book's sides ``I`` and ``O`` (light and dark, issue 24), in that order:
I starts. ``follow_up`` is the automatic arbiter policy (R39 ``warn``, R14, R34): when a game
becomes flagged, both players are warned, by events stored with the step that caused them.
"""

from __future__ import annotations

from typing import Any

from play.games.clock import amount_text
from play.games.match import ABORT, ADDTIME, DECIDE, FORFEIT, NULL
from play.games.match.decisions import reason_words
from play.games.match.match import KINDS as MATCH_KINDS
from play.games.match.match import Match
from play.games.match.sessions import ADJOURN, RESUME
from play.games.protocol import (
    ARBITER,
    SYSTEM,
    Actor,
    BadCommand,
    Command,
    CommandError,
    Event,
    GameOptions,
    GameOver,
    IllegalCommand,
    NotAllowed,
    Result,
    SeatSpec,
)
from play.games.protocol import Variant as GameVariant

from .commands import ARBITER_COMMANDS, COMMANDS, CountAsPass, Warn
from .decisions import ArbiterDecision
from .errors import GameOverError, IllegalStepError, StepFormatError, TaluError
from .game import TaluGame
from .outcome import Side
from .outcome import describe as describe_outcome
from .steps import Step
from .stgn import write_stgn
from .variants import VARIANTS

STEP, WARN, COUNT = "step", "warn", "count"  # talu's own event kinds
EVENT_KINDS = (STEP, WARN, COUNT)
ABORTED = "aborted"  # R37: the result reason of a game that never started

SEATS = (SeatSpec("I", "light"), SeatSpec("O", "dark"))
#: Talu's variants as the site offers them (R3): seats I and O, a null game by agreement.
GAME_VARIANTS = {name: GameVariant("talu", name, name.replace("-", " ").capitalize(), SEATS,
                                   offers=("null",))
                 for name in VARIANTS}


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

    key = "talu"
    title = "Talu"
    variants = GAME_VARIANTS
    commands = COMMANDS
    arbiter_commands = ARBITER_COMMANDS
    event_kinds = EVENT_KINDS

    def new_engine(self, variant: GameVariant, options: GameOptions) -> TaluGame:
        return TaluGame(variant.name)

    def to_act(self, e: TaluGame) -> tuple[str, ...]:
        side = e.side_to_move
        return () if side is None else (side.value,)

    # --- deciding -----------------------------------------------------------------------------
    def decide_move(self, e: TaluGame, seat: str, move: Any) -> list[Event]:
        try:
            step = e.check(Step.from_dict(move))
        except TaluError as err:
            raise _rule_error(err) from None
        return [Event(STEP, seat, step.to_dict(), str(step))]

    def decide_command(self, e: TaluGame, actor: Actor, command: Command) -> list[Event]:
        if isinstance(command, Warn):
            return [self._warn(e, actor, command)]
        if isinstance(command, CountAsPass):
            return [self._count(e, actor, command)]
        raise BadCommand(f"talu has no command {type(command).__name__}")

    def _warn(self, e: TaluGame, actor: Actor, command: Warn) -> Event:
        if actor.kind not in (ARBITER, SYSTEM):
            raise NotAllowed(f"only an arbiter can warn a player, not the {actor.kind}")
        if command.side not in ("I", "O"):
            raise BadCommand(f"a warning names a side, I or O, not {command.side!r}")
        reason = reason_words(command.reason, "a warning")
        _live(e)
        if Side(command.side) in e.warned:
            raise IllegalCommand(f"{command.side} has been warned already")
        data = {"side": command.side, "reason": reason}
        if actor.kind == ARBITER:
            data["by"] = actor.name
        return Event(WARN, "", data, f"warn {command.side}", actor.kind)

    def _count(self, e: TaluGame, actor: Actor, command: CountAsPass) -> Event:
        if actor.kind != ARBITER:
            raise NotAllowed(f"only an arbiter can count a turn as a pass, not the {actor.kind}")
        if command.side not in ("", "I", "O"):
            raise BadCommand(f"a turn is I's or O's, not {command.side!r}")
        reason = reason_words(command.reason, "counting a turn as a pass")
        _live(e)
        try:
            rec = e.check_count_as_pass(command.turn)
        except TaluError as err:
            raise _rule_error(err) from None
        if command.side and command.side != rec.side.value:
            raise IllegalCommand(f"turn {rec.label} was played by {rec.side.value}, not by "
                                 f"{command.side}")
        return Event(COUNT, "", {"turn": rec.label, "side": rec.side.value, "reason": reason,
                                 "by": actor.name}, f"count {rec.label}", actor.kind)

    # --- evolving -----------------------------------------------------------------------------
    def evolve(self, e: TaluGame, event: Event) -> None:
        """Fold a talu event; raises the rules core's ``TaluError`` for an event this state
        cannot take, having changed nothing."""
        apply_event(e, event.kind, event.data)

    def on_match(self, e: TaluGame, event: Event, result: Result | None) -> None:
        """Record the match's decisions in the engine, for the notation (R15: a decision off
        the board; R34: the arbiter's items, adjournment and resumption naming the side that
        seals its turn)."""
        kind, data = event.kind, event.data
        if kind == ADJOURN:
            sealing = e.side_to_move
            reason = data.get("reason") or f"adjourned by {data.get('by') or 'agreement'}"
            e.arbiter.append(ArbiterDecision(e._last_label(), "adjourn", sealing, reason))
        elif kind == RESUME:
            sealer = e.turns[-1].side if e.turns else None
            reason = data.get("reason") or f"resumed by {data.get('by') or 'agreement'}"
            label = data.get("sealed") or e._last_label()
            e.arbiter.append(ArbiterDecision(label, "resume", sealer, reason))
        elif kind in (DECIDE, ABORT, FORFEIT, NULL, ADDTIME):
            apply_event(e, kind, data)

    def follow_up(self, e: TaluGame, options: GameOptions) -> list[Event]:
        """The automatic arbiter (R39 ``warn``) warns every unwarned side once the game is
        flagged (R14)."""
        if not options.auto_warn or e.outcome is not None or not e.flagged:
            return []
        return [Event(WARN, "", {"side": s, "reason": "non-engagement"}, f"warn {s}", SYSTEM)
                for s in ("I", "O") if Side(s) not in e.warned]

    # --- reading ------------------------------------------------------------------------------
    def turns(self, e: TaluGame) -> int:
        return len(e.turns)

    def between_turns(self, e: TaluGame) -> bool:
        return not e.steps_used

    def result(self, e: TaluGame) -> Result | None:
        o = e.outcome
        if o is None:
            return None
        return Result.won(o.winner.value if o.winner else None, ("I", "O"), o.reason.value,
                          o.detail or "")

    def view(self, e: TaluGame, seat: str | None) -> dict[str, Any]:
        """The engine's snapshot; a result resting on decisions (R34) with the notation that
        replays (R15, issue 27)."""
        snap = e.snapshot()
        if snap["outcome"] is not None and e.arbiter:
            snap["notation"] = write_stgn(e).splitlines()
        return snap

    def notation(self, e: TaluGame) -> str:
        """The game's STGN, which ``talu replay`` reads to the same result (a result resting
        on arbiter decisions written as decided off the board, R15: ``write_stgn``)."""
        return write_stgn(e)

    def last_turn(self, e: TaluGame) -> tuple[str, str]:
        if not e.turns:
            return "", ""
        return e.turns[-1].label, e.stgn_lines()[-1]

    def mark(self, e: TaluGame) -> dict[str, Any]:
        """The board (before the sealed turn) and the count of arbiter decisions: what the
        session entries (STSE) of an adjourned game need (R38)."""
        return {"board": e.board(), "arbiter": len(e.arbiter)}

    def describe(self, result: Result) -> str:
        return describe_outcome(result.winner, result.reason, result.detail)


def _live(e: TaluGame) -> None:
    if e.outcome is not None:
        raise GameOver(f"the game is over ({e._outcome_text()})")


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
    elif kind == COUNT:
        engine.count_as_pass(data["turn"], data.get("side") or None, data.get("reason") or "")
    elif kind == FORFEIT:
        engine.arbiter_end("forfeit", data["side"], data.get("reason") or "")
    elif kind == NULL:
        engine.arbiter_end("null", None, data.get("reason") or "")
    elif kind == ADDTIME:
        engine.add_time(data["side"], int(data["seconds"]), data.get("reason") or "")
    elif kind in MATCH_KINDS:
        pass  # the match's (adjournment and offers, notes): nothing of the engine's
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


RULES = Match(TaluRules())
