"""The pure game cores and the protocol the server speaks to them. No Django import here.

``decide``, ``evolve`` and ``follow_up`` are the protocol (``play.games.protocol``) dispatched
to the match of the game a state belongs to (``play.games.registry``, ``play.games.match``).
The server path calls these and names no game.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from play.games.match.match import Settled
from play.games.protocol import Actor, Command, Event, GameOptions, State
from play.games.registry import GAMES, VARIANT_NAMES, new_state, rules_for, rules_of

#: The commands only an arbiter sends, in any game (R39: the match's and every game's own),
#: and with them adjourn and resume, which an arbiter decides at once (R38): what a socket
#: routes to the arbiter's path and the API's arbiter actions name. Each game refuses the
#: others' (``parse_command``).
ARBITER_ONLY: tuple[str, ...] = tuple(dict.fromkeys(
    c for m in GAMES.values() for c in m.arbiter_only))
ARBITER_COMMANDS: tuple[str, ...] = (*ARBITER_ONLY, "adjourn", "resume")


def decide(state: State, actor: Actor, command: Command, now: datetime | None = None
           ) -> list[Event]:
    """The events ``command`` of ``actor`` causes in ``state`` now, or a ``CommandError``."""
    return rules_of(state).decide(state, actor, command, now)


def evolve(state: State, event: Event) -> State:
    """``state`` with ``event`` folded in (in place; the state is the caller's alone)."""
    return rules_of(state).evolve(state, event)


def follow_up(state: State) -> list[Event]:
    """The events the game's standing policies add now (talu: the automatic arbiter)."""
    return rules_of(state).follow_up(state)


def run(state: State, actor: Actor, command: Command, now: datetime | None = None
        ) -> list[Event]:
    """Decide ``command`` and fold its events, then the follow-ups, into ``state``: the events
    of one command as the log stores them, in order. On a ``CommandError`` the state is
    unchanged."""
    return rules_of(state).run(state, actor, command, now)  # type: ignore[arg-type]


def settle(state: State, actor: Actor, command: Command, now: datetime | None = None
           ) -> Settled:
    """``run``, with what the game's row keeps after it: the result, the notation when a turn
    ended, the seat to move, the clock's deadline and the time of resumption (``Settled``)."""
    return rules_of(state).settle(state, actor, command, now)  # type: ignore[arg-type]


def snapshot(state: State) -> dict[str, Any]:
    return rules_of(state).snapshot(state)


def side_to_move(state: State) -> str:
    """The (first) seat to act now ("" when none): the player whose turn it is."""
    return rules_of(state).side_to_move(state)


def to_act(state: State) -> tuple[str, ...]:
    """The seats that may act now (none when over or adjourned)."""
    return rules_of(state).to_act(state)  # type: ignore[arg-type]


def parse_command(variant: str, data: Any) -> Command:
    """A command off the wire for a game of ``variant``: the match's or the game's own
    (``BadCommand`` naming what is wrong)."""
    return rules_for(variant).parse(data)


def arbiter_only(variant: str) -> tuple[str, ...]:
    """The commands only an arbiter sends in a game of ``variant`` (R39 and the game's)."""
    return rules_for(variant).arbiter_only


def deadline(state: State) -> int | None:
    """When the running clock of ``state`` runs out (ms since the epoch), or None."""
    return rules_of(state).deadline(state)


__all__ = ["ARBITER_COMMANDS", "ARBITER_ONLY", "VARIANT_NAMES", "Actor", "Command", "Event",
           "GameOptions", "Settled", "arbiter_only",
           "deadline", "decide", "evolve", "follow_up", "new_state", "parse_command",
           "rules_for", "run", "settle", "side_to_move", "snapshot", "to_act"]


def resume_at(state: State) -> int | None:
    """When the adjourned ``state`` resumes at the time its arbiter set (ms), or None (R38)."""
    return rules_of(state).resume_at(state)
