"""Talat behind the site's game contract (``play.games.protocol.GameRules``): variants
``three`` (seats 1, 2, 3) and ``two`` (seats 1, 2 and the neutral Zihin ``Z``, A11); no
offers (Talat has no draws).

The wire (the renderer is written against it):

- a step: ``{"action": "@23:c5 M6"}``, ``{"action": "12:b2-c3"}``, ``{"action":
  "31:d4xd5"}``: A10's action text; the seat is the actor's, a Zihin tower is known by its
  square (A11);
- the game's one event kind ``turn`` (``data["action"]``, the action's text); a seat that
  has no move or capture passes at once (A4): ``follow_up`` adds its ``pass`` turn to the
  same batch, with the time of the turn before it, so the clock never waits for it;
- ``view``: the towers by square, the towers each seat has still to place, scores,
  captured towers, frozen boards (A7), the phase, the seat to act and **its legal actions**
  (A10 text, for the renderer to show on selection), the last turn and the record.

A seat that leaves (A8: resigned, lost on time; the match's ``leave``) keeps its towers on
the boards and takes no more turns; the match ranks it last.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from play.games.protocol import (
    NEUTRAL,
    SYSTEM,
    Actor,
    BadCommand,
    Command,
    Event,
    GameOptions,
    GameOver,
    GameRules,
    IllegalCommand,
    NotYourTurn,
    Result,
    SeatSpec,
    Variant,
)

from .board import KINDS, board_names
from .errors import IllegalAction, MalformedAction
from .game import TalatGame
from .notation import parse_action, seat_token, write_action
from .position import PASS
from .records import write_record

TURN = "turn"  # the game's one event kind
EVENT_KINDS = (TURN,)  # the match refuses a game whose kinds are its own (Match.__init__)
ONE, TWO, THREE = (SeatSpec(s, f"seat {s}") for s in "123")
VARIANTS = {
    "three": Variant("talat", "three", "Talat", (ONE, TWO, THREE)),
    "two": Variant("talat", "two", "Talat for two", (ONE, TWO, SeatSpec("Z", "Zihin", NEUTRAL))),
}
REASON_WORDS = {"frozen": "two boards are frozen", "no_moves": "no seat could move",
                "decision": "decided off the board"}


class TalatState:
    """One game on the site: the game, the match's decision if it made one (R37: a
    resignation or time in the two-seat game, an arbiter's), and the time of the last event
    seen (an automatic pass takes it, so the clocks switch at that moment)."""

    def __init__(self, game: TalatGame) -> None:
        self.game = game
        self.decision: Result | None = None
        self.last_t: int | None = None

    def saw(self, event: Event) -> None:
        t = event.data.get("t")
        if isinstance(t, int) and not isinstance(t, bool):
            self.last_t = t


class TalatRules:
    """``GameRules`` of Talat (A1-A11)."""

    key = "talat"
    title = "Talat"
    variants: Mapping[str, Variant] = VARIANTS
    commands: Mapping[str, Callable[[dict[str, Any]], Command]] = {}
    arbiter_commands: tuple[str, ...] = ()
    event_kinds = EVENT_KINDS

    def new_engine(self, variant: Variant, options: GameOptions) -> TalatState:
        if options.extra:
            raise ValueError(f"Talat has no options ({', '.join(map(str, options.extra))})")
        return TalatState(TalatGame(variant.name))

    def to_act(self, e: TalatState) -> tuple[str, ...]:
        seat = e.game.to_move()
        return () if seat is None or e.decision is not None else (seat,)

    # --- deciding -----------------------------------------------------------------------------
    def decide_move(self, e: TalatState, seat: str, move: Any) -> list[Event]:
        g = e.game
        if g.finished or e.decision is not None:
            raise GameOver("the game is over")
        if not isinstance(move, dict) or set(move) != {"action"} or \
                not isinstance(move["action"], str) or not move["action"].isprintable():
            raise BadCommand('a Talat step is {"action": "12:b2-c3"}: a placement like '
                             '@23:c5 M6, a move like 12:b2-c3 or a capture like 31:d4xd5')
        mover = g.to_move()
        if seat != mover:
            raise NotYourTurn(f"it is seat {mover}'s turn, not seat {seat}'s")
        try:
            action = parse_action(g.pos, move["action"][:40])
        except MalformedAction as err:
            raise BadCommand(str(err)) from None
        except IllegalAction as err:
            raise IllegalCommand(str(err)) from None
        text = write_action(g.pos, action)
        return [Event(TURN, seat, {"action": text},
                      f"{seat_token(g.pos, action)} {text}")]

    def decide_command(self, e: TalatState, actor: Actor, command: Command) -> list[Event]:
        raise BadCommand(f"Talat has no command {command.TYPE!r}")

    def evolve(self, e: TalatState, event: Event) -> None:
        """Fold a turn (the rules' ``TalatError`` for one this state cannot take, nothing
        changed)."""
        if event.kind != TURN:
            raise ValueError(f"Talat has no event {event.kind!r}")
        e.game.act(event.side, event.data["action"])
        e.saw(event)

    def on_match(self, e: TalatState, event: Event, result: Result | None) -> None:
        """A8: a seat that leaves takes no more turns; a decision off the board ends the
        game with the match's ranks."""
        e.saw(event)
        if event.kind == "leave":
            e.game.leave(event.data["seat"])
        if result is not None and not e.game.finished:
            e.decision = result
            e.game.decided = dict(result.ranks)

    def follow_up(self, e: TalatState, options: GameOptions) -> list[Event]:
        """A4: the seat to act that has no move or capture passes, at once."""
        g = e.game
        if g.finished or e.decision is not None or not g.pos.must_pass():
            return []
        seat = g.pos.seats[g.pos.to_move]
        data: dict[str, Any] = {"action": "pass"}
        if e.last_t is not None:
            data["t"] = e.last_t
        return [Event(TURN, seat, data, f"{seat} pass", SYSTEM)]

    # --- reading ------------------------------------------------------------------------------
    def turns(self, e: TalatState) -> int:
        return len(e.game.lines)

    def between_turns(self, e: TalatState) -> bool:
        return True

    def result(self, e: TalatState) -> Result | None:
        g = e.game
        scores: dict[str, float] = {s: float(v) for s, v in g.scores().items()}
        if e.decision is not None:
            return replace(e.decision, scores=scores)
        ranks = g.ranks()
        if ranks is None or g.reason is None:
            return None
        return Result(ranks, g.reason, REASON_WORDS.get(g.reason, g.reason), scores=scores)

    def view(self, e: TalatState, seat: str | None) -> dict[str, Any]:
        g = e.game
        pos = g.pos
        to_act = self.to_act(e)
        result = self.result(e)
        lines = g.lines
        return {
            "game": "talat", "variant": g.variant, "seats": list(pos.seats),
            "players": list(g.players), "boards": list(board_names(g.variant)),
            "phase": "finished" if g.finished else pos.phase,
            "towers": g.towers(),
            "to_place": {s: [KINDS[k] for k in range(9) if pos.hand[i][k]]
                         for i, s in enumerate(pos.seats)},
            "placing": pos.seats[pos.placing] if pos.phase == "placement" else None,
            "scores": g.scores(), "captured": g.captured(),
            "off": [f"{pos.seats[t // 9]}:{KINDS[t % 9]}" for t in pos.off],
            "frozen": g.frozen(), "left": [s for s, _ in g.left_at],
            "to_act": list(to_act), "to_move": to_act[0] if to_act else None,
            "legal": g.legal() if to_act else [],
            "must_pass": bool(to_act) and pos.legal() == [PASS],
            "turns": len(lines),
            "last": {"number": len(lines), "line": lines[-1]} if lines else None,
            "moves": [f"{i}. {line}" for i, line in enumerate(lines, 1)],
            "result": None if result is None else {
                "ranks": dict(result.ranks), "reason": result.reason,
                "scores": dict(result.scores or {})},
        }

    def notation(self, e: TalatState) -> str:
        return write_record(e.game)

    def last_turn(self, e: TalatState) -> tuple[str, str]:
        n = len(e.game.lines)
        return (str(n), f"{n}. {e.game.lines[-1]}") if n else ("", "")

    def mark(self, e: TalatState) -> dict[str, Any]:
        return {"towers": e.game.towers(), "scores": e.game.scores()}

    def describe(self, result: Result) -> str:
        if not result.ranks:
            return f"No result ({result.reason})"
        scores = result.scores or {}
        places = []
        for rank in sorted(set(result.ranks.values())):
            group = [s for s, r in result.ranks.items() if r == rank]
            who = " and ".join(f"seat {s}" for s in group)
            points = f" ({int(scores[group[0]])} points)" if group[0] in scores else ""
            places.append(f"{rank}. {who}{points}")
        words = REASON_WORDS.get(result.reason, result.detail or result.reason)
        if result.cause:
            words = f"{words}: {result.cause}"
        return f"{', '.join(places)}: {words}"


#: mypy checks here that Talat satisfies the contract (tests/test_types.py).
_: GameRules[TalatState] = TalatRules()
