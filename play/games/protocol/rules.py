"""The game contract (``play.games.protocol``): what a game gives the site, for any number of
seats, and the options a game is created with.

A game is its rules and nothing else: its variants and seats, which seat may act, what a
seat's move does, when a turn ends, the result as ranks of seats, what a seat or a spectator
may see, its notation. Everything players and arbiters do around the rules (resign, clocks,
flags, absence claims, adjournment with a sealed turn, offers, the arbiter's decisions,
announcements) is the **match**'s, written once for every game (``play.games.match``), which
turns a ``GameRules`` into what the server runs.

Games keep their own state (``E``, talu: its ``TaluGame``) and fold their own events into it
in place (``evolve``: states are owned, the server's engine cache lends one to one caller at
a time, ``play.store.engines``). Every other function is pure.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from play.games.protocol.actors import Actor
from play.games.protocol.commands import Command
from play.games.protocol.events import Event
from play.games.protocol.result import Result
from play.games.protocol.seats import Variant

E = TypeVar("E")


@dataclass(frozen=True, slots=True)
class GameOptions:
    """The settings a game is created with, beside its variant: ``auto_warn`` is talu's
    automatic arbiter policy (R39 ``warn``; casual games have it, an event may switch it
    ``off``), ``extra`` the game's own options (its ``Variant.options``), and the time control
    with the moment the clocks start."""

    auto_warn: bool = True
    extra: dict[str, Any] = field(default_factory=dict)
    #: R36's time control, as its canonical text (``play.games.clock.parse``).
    time_control: str = "untimed"
    #: When the game began (ms since the epoch): the first clock runs from then.
    started: int | None = None
    #: The game is an event's (R41): a seat that does not complete its opening turn in time
    #: loses it as an unplayed game, where a casual game is aborted (R36, R37).
    in_event: bool = False
    #: A casual game (not rated, not an event's): its players may take back turns by
    #: agreement (issue 39, ``play.games.match.takebacks``).
    takebacks: bool = False


class State(Protocol):
    """A game's state as the server holds it (``play.games.match.MatchState``): ``game``
    names its rules (``play.games.registry``), ``version`` is the number of events folded
    into it (the log's version)."""

    game: str
    version: int

    @property
    def result(self) -> Result | None: ...


class GameRules(Protocol[E]):
    """The contract a game implements (talu: ``play.games.talu.rules``; a tiny three-seat game
    in ``tests/match/tinygame.py`` shows the least a game needs).

    ``E`` is the game's own state. Event kinds are the game's words, stored forever; they
    must not be the match's (``play.games.match.KINDS``). A game's own commands beyond a move
    (talu's R14 ``warn`` and R39 ``count_as_pass``) are parsed by ``commands`` and decided by
    ``decide_command``."""

    # The game's constants, read only (a game declares them as plain class attributes, of
    # these types or narrower: a dict of its variants, a tuple of two commands).
    @property
    def key(self) -> str:
        """The game's key ("talu"), the first part of its variants' keys."""
        ...

    @property
    def title(self) -> str: ...

    @property
    def variants(self) -> Mapping[str, Variant]:
        """The game's variants by name ("standard"); keys are ``f"{key}/{name}"``."""
        ...

    @property
    def commands(self) -> Mapping[str, Callable[[dict[str, Any]], Command]]:
        """The game's own commands: wire type -> a parser of its JSON (``BadCommand`` if
        wrong)."""
        ...

    @property
    def arbiter_commands(self) -> tuple[str, ...]:
        """Which of ``commands`` only an arbiter (or the system) sends."""
        ...

    def new_engine(self, variant: Variant, options: GameOptions) -> E:
        """The state of a new game of ``variant``."""
        ...

    def to_act(self, e: E) -> tuple[str, ...]:
        """The seats that may act now, in order: one for a game played turn by turn, several
        for one that is not; () when the game is over."""
        ...

    def decide_move(self, e: E, seat: str, move: Any) -> list[Event]:
        """The events of ``seat``'s move (the wire's ``step``: the game's own form), or a
        ``CommandError`` in a player's words; ``e`` unchanged. The match has checked that the
        game is live, not adjourned, and that ``seat`` may act. Each event's ``data`` is a
        new dict, the caller's: the match adds the time of a timed game's move to it."""
        ...

    def decide_command(self, e: E, actor: Actor, command: Command) -> list[Event]:
        """The events of one of the game's own ``commands``; ``CommandError`` otherwise."""
        ...

    def evolve(self, e: E, event: Event) -> None:
        """Fold one of the game's own events into ``e`` (in place)."""
        ...

    def on_match(self, e: E, event: Event, result: Result | None) -> None:
        """The match folded one of its own events (``play.games.match.KINDS``): a decision
        off the board (``result``: how the game ended by it), an arbiter's decision, an
        adjournment. A game that records them in its notation (talu: R15, R34) does so here;
        a seat that left a game of more than two (``leave``, ``data["seat"]``; told so after
        the arbiter's ``forfeit`` too) must no longer be asked to act. Most games need
        nothing."""
        ...

    def follow_up(self, e: E, options: GameOptions) -> list[Event]:
        """Events the game's standing policies add after every command (talu: the automatic
        arbiter's warnings, R39); usually none."""
        ...

    def turns(self, e: E) -> int:
        """Turns completed so far. When it grows the turn has ended: the clock switches and
        the server refreshes the game's notation."""
        ...

    def between_turns(self, e: E) -> bool:
        """Whether no turn is in progress (a game is adjourned only between turns, R38)."""
        ...

    def result(self, e: E) -> Result | None:
        """The result on the board (or as the game recorded a decision off it), None while
        the game goes on."""
        ...

    def view(self, e: E, seat: str | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) sees of the game: the board renderer's input.
        The match adds the clocks, offers and adjournment beside it."""
        ...

    def notation(self, e: E) -> str:
        """The game's record of play so far in its own notation (talu: STGN)."""
        ...

    def last_turn(self, e: E) -> tuple[str, str]:
        """The last turn completed, as its label and its notation ("012 O", its line); ("",
        "") before the first. A resumption reveals the sealed turn so (R38)."""
        ...

    def mark(self, e: E) -> dict[str, Any]:
        """What the game's records keep of the position where a session ends (R38; talu: the
        board and the count of arbiter decisions, for its session entries); {} if nothing."""
        ...

    def describe(self, result: Result) -> str:
        """A result in a person's words ("Dark won: light resigned")."""
        ...

