"""Takebacks in casual games, by agreement (issue 39), for every game.

A player of a casual game (not rated, not an event's: ``GameOptions.takebacks``) asks to take
back their last turn; when every other seat still playing agrees (the offer mechanism of
null games and draws, ``decisions.offer``), a ``takeback`` event returns the game to the
start of that turn. If others have played since, their turns go too, as on lichess: the
requester is to act again. A turn the requester has begun but not finished goes with them.

How it is folded: the match keeps, for a casual game only, the game's own events and the
match events the game was told of (``MatchState.history``, with each one's log version and
the turns before it), and rebuilds the game's state from the variant's start without the
taken-back ones. Every game's ``evolve`` is deterministic, so nothing is asked of a game.
Rated games keep no history: they pay nothing for this.

The log keeps everything (R40: events are never deleted): the taken-back events stay, and the
``takeback`` event names the first version it undid (``undo_from``), so a reader that replays
the log with its own engine (a game's review) drops them with ``standing``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from play.games.protocol import Event, IllegalCommand

from .state import TAKEBACK, MatchState

#: The offer's word (``Offer.what``) and the event's kind.
WHAT = TAKEBACK


def refusal(state: MatchState) -> str:
    """Why this game allows no takeback, in words; "" when it does."""
    if state.options.takebacks:
        return ""
    if state.options.in_event:
        return "takebacks are for casual games only: this is an event's game"
    return "takebacks are for casual games only: this game is rated"


def target(state: MatchState, seat: str) -> tuple[int, int]:
    """Where taking back ``seat``'s last turn returns the game: (the turns completed then, the
    log version of the first event undone); ``IllegalCommand`` when there is nothing to take
    back or an adjournment lies in between (its sealed turn and sessions are the records'
    (R38), not to be rewritten)."""
    history = state.history or []
    done = state.rules.turns(state.engine)
    turn = max((before for _, own, event, before in history
                if own and event.side == seat and before < done), default=None)
    if turn is None:
        raise IllegalCommand("you have no turn to take back yet")
    if any(end.turns > turn for end in state.sessions.ended):
        raise IllegalCommand("the game was adjourned after that turn: a turn before an "
                             "adjournment cannot be taken back")
    first = next(version for version, own, _, before in history if own and before >= turn)
    return turn, first


def accepted(state: MatchState, requester: str, actor: Any, at: int | None) -> Event:
    """The event that takes back ``requester``'s last turn (every other seat agreed)."""
    turn, first = target(state, requester)
    data: dict[str, Any] = {"seat": requester, "turns": turn, "undo_from": first}
    if at is not None:
        data["t"] = at
    return Event(TAKEBACK, actor.seat, data, f"takes back to turn {turn + 1}", actor.kind)


def fold(state: MatchState, event: Event) -> None:
    """Rebuild the game's state without the events from ``undo_from`` on; the offer is done;
    a running clock is charged to now and passes to the seat that acts again (no increment:
    no turn was completed)."""
    rules, history = state.rules, state.history if state.history is not None else []
    undo_from = int(event.data["undo_from"])
    kept = [entry for entry in history if entry[0] < undo_from]
    engine = rules.new_engine(state.variant, state.options)
    for _, own, past, extra in kept:
        if own:
            rules.evolve(engine, past)
        else:
            rules.on_match(engine, past, extra)
    state.engine = engine
    state.history = kept
    state.sessions.clear_offer()
    at, clock = event.data.get("t"), state.clock
    if clock is not None and isinstance(at, int) and clock.running is not None:
        clock.stop(at)
        to_act = rules.to_act(engine)
        if to_act:
            clock.resume(to_act[0], at)


def standing(events: Iterable[tuple[int, str, dict[str, Any]]]) -> list[tuple[str, Any]]:
    """The (kind, data) of a log's events (version, kind, data) in order, without those a
    takeback undid and without the takebacks: what a reader with its own engine replays."""
    kept: list[tuple[int, str, Any]] = []
    for version, kind, data in events:
        if kind == TAKEBACK and isinstance(data, dict):
            undo_from = data.get("undo_from")
            if isinstance(undo_from, int):
                kept = [e for e in kept if e[0] < undo_from]
            continue
        kept.append((version, kind, data))
    return [(kind, data) for _, kind, data in kept]

