"""The game interface (``play.games.protocol``): what a game gives the server (``GameRules``),
its state and result, and the options a game is created with. Talu is one game behind it
(``play.games.talu.protocol``); a second game of the tafl family plugs in beside it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from play.games.protocol.actors import Actor
from play.games.protocol.commands import Command
from play.games.protocol.events import Event


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
