"""The pure game cores and the protocol the server speaks to them. No Django import here.

``decide``, ``evolve`` and ``follow_up`` are the protocol (``play.games.protocol``) dispatched
to the game a state belongs to (``play.games.registry``); ``play.games.talu`` is talu's rules.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from play.games.protocol import Actor, Command, Event, GameOptions, State
from play.games.registry import VARIANT_NAMES, new_state, rules_for, rules_of


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
    rules = rules_of(state)
    events = rules.decide(state, actor, command, now)
    for event in events:
        rules.evolve(state, event)
    while more := rules.follow_up(state):
        for event in more:
            rules.evolve(state, event)
        events.extend(more)
    return events


def snapshot(state: State) -> dict[str, Any]:
    return rules_of(state).snapshot(state)


def side_to_move(state: State) -> str:
    """The side to move now ("" when none): the player whose turn it is."""
    return rules_of(state).side_to_move(state)


def deadline(state: State) -> int | None:
    """When the running clock of ``state`` runs out (ms since the epoch), or None."""
    return rules_of(state).deadline(state)


__all__ = ["VARIANT_NAMES", "Actor", "Command", "Event", "GameOptions", "deadline", "decide",
           "evolve", "follow_up", "new_state", "rules_for", "run", "side_to_move", "snapshot"]


def resume_at(state: State) -> int | None:
    """When the adjourned ``state`` resumes at the time its arbiter set (ms), or None (R38)."""
    return rules_of(state).resume_at(state)
