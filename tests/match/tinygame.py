"""A tiny game for the match's tests (issue 36): "race to N", three seats, pure.

The least a game gives the match (``play.games.protocol.GameRules``), and no more: its seats
play in turn; a move adds 1 or 2 to the mover's counter (``{"add": 1}``), and with
``"again": true`` the turn goes on (so a game can be caught in the middle of a turn, where
it may not be adjourned). A seat whose counter reaches the target wins; ``{"stop": true}``
ends the game at once. Either way the result ranks the seats by their counters, equal
counters sharing a rank (1, 1, 3). Seats that left (the match's ``leave``) are skipped.

Variants: ``race`` (seats 1, 2, 3; a draw by agreement), ``duel`` (two seats; a null game or
a draw) and ``neutral`` (two players and a neutral seat ``z`` that nobody holds and that
never acts; no agreements).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from play.games.protocol import (
    NEUTRAL,
    Actor,
    BadCommand,
    Command,
    Event,
    GameOptions,
    GameRules,
    Result,
    SeatSpec,
    Variant,
)

ADD, STOP = "add", "stop"  # the game's own event kinds
ONE, TWO, THREE = SeatSpec("1", "one"), SeatSpec("2", "two"), SeatSpec("3", "three")
VARIANTS = {
    "race": Variant("tiny", "race", "Race", (ONE, TWO, THREE), {"target": 10}, ("draw",)),
    "duel": Variant("tiny", "duel", "Duel", (ONE, TWO), {"target": 10}, ("null", "draw")),
    "neutral": Variant("tiny", "neutral", "Race by a neutral seat",
                       (ONE, SeatSpec("z", "zero", NEUTRAL), TWO), {"target": 10}),
}


@dataclass
class Race:
    """The game's state: the played seats in turn order, each one's counter, the turns ended
    (one notation line each), whose turn it is, and what the match told the game."""

    order: tuple[str, ...]
    target: int
    counters: dict[str, int]
    lines: list[str] = field(default_factory=list)
    mover: str = ""
    in_turn: str = ""  # the adds of the turn in progress ("+1+2"), "" between turns
    stopped: bool = False
    left: set[str] = field(default_factory=set)
    over: bool = False  # the match ended the game off the board

    def finished(self) -> bool:
        return self.over or self.stopped or max(self.counters.values()) >= self.target

    def next_seat(self) -> str:
        """The seat after the mover still playing (the mover itself if it is the last)."""
        i = self.order.index(self.mover)
        rest = [s for s in self.order[i + 1:] + self.order[:i + 1] if s not in self.left]
        return rest[0] if rest else self.mover


class TinyRules:
    """``GameRules`` of the race."""

    key = "tiny"
    title = "Tiny race"
    variants: Mapping[str, Variant] = VARIANTS
    commands: Mapping[str, Callable[[dict[str, Any]], Command]] = {}
    arbiter_commands: tuple[str, ...] = ()
    event_kinds = (ADD, STOP)

    def new_engine(self, variant: Variant, options: GameOptions) -> Race:
        target = int(options.extra.get("target", variant.options["target"]))
        played = variant.played
        return Race(played, target, dict.fromkeys(played, 0), mover=played[0])

    def to_act(self, e: Race) -> tuple[str, ...]:
        return () if e.finished() else (e.mover,)

    def decide_move(self, e: Race, seat: str, move: Any) -> list[Event]:
        if isinstance(move, dict) and move.get("stop") is True:
            return [Event(STOP, seat, {}, "stop")]
        add = move.get("add") if isinstance(move, dict) else None
        if add not in (1, 2) or isinstance(add, bool):
            raise BadCommand("a move is {'add': 1 or 2} (with 'again': true to go on) or "
                             "{'stop': true}")
        again = isinstance(move, dict) and move.get("again") is True
        return [Event(ADD, seat, {"add": add, "again": again}, f"+{add}")]

    def decide_command(self, e: Race, actor: Actor, command: Command) -> list[Event]:
        raise BadCommand(f"the race has no command {command.TYPE!r}")

    def evolve(self, e: Race, event: Event) -> None:
        if event.kind == STOP:
            e.stopped, e.in_turn = True, f"{e.in_turn} stop"
        elif event.kind == ADD:
            e.counters[event.side] += event.data["add"]
            e.in_turn += f"+{event.data['add']}"
            if event.data["again"] and not e.finished():
                return
        else:
            raise ValueError(f"the race has no event {event.kind!r}")
        e.lines.append(f"{event.side} {e.in_turn.strip()}")
        e.in_turn, e.mover = "", e.next_seat()

    def on_match(self, e: Race, event: Event, result: Result | None) -> None:
        """A seat that left is skipped from now on; a decision off the board ends the game."""
        if event.kind == "leave":
            seat = event.data["seat"]
            e.left.add(seat)
            if e.mover == seat:
                e.in_turn, e.mover = "", e.next_seat()
        if result is not None:
            e.over = True

    def follow_up(self, e: Race, options: GameOptions) -> list[Event]:
        return []

    def turns(self, e: Race) -> int:
        return len(e.lines)

    def between_turns(self, e: Race) -> bool:
        return not e.in_turn

    def result(self, e: Race) -> Result | None:
        if e.over or not e.finished():
            return None
        staying = [s for s in e.order if s not in e.left]
        points = sorted({e.counters[s] for s in staying}, reverse=True)
        return Result.by_order([[s for s in staying if e.counters[s] == p] for p in points],
                               STOP if e.stopped else "target")

    def view(self, e: Race, seat: str | None) -> dict[str, Any]:
        return {"counters": dict(e.counters), "target": e.target, "turns": len(e.lines),
                "to_act": list(self.to_act(e)), "left": sorted(e.left)}

    def notation(self, e: Race) -> str:
        return "\n".join(e.lines)

    def last_turn(self, e: Race) -> tuple[str, str]:
        return (f"{len(e.lines):03d}", e.lines[-1]) if e.lines else ("", "")

    def mark(self, e: Race) -> dict[str, Any]:
        return {"counters": dict(e.counters)}

    def describe(self, result: Result) -> str:
        if result.winner:
            return f"{result.winner} won ({result.reason})"
        if not result.ranks:
            return f"no result ({result.reason})"
        order = sorted(result.ranks.items(), key=lambda item: (item[1], item[0]))
        return "ranks " + ", ".join(f"{s}: {r}" for s, r in order) + f" ({result.reason})"


#: mypy checks here that the race satisfies the contract (tests/test_types.py).
_: GameRules[Race] = TinyRules()
