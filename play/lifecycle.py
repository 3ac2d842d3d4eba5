"""A game's beginning and end: creating it, and telling the rest of the site it finished.

Starting a game is one transaction: the row at version 0, the players' ratings at the start
(R23) and the registry's entry and signed game entry (``ports.directory().game_started``).

A game ends inside the command path, by the append that stores its last events: that same
transaction writes a ``finished`` row in the outbox (``play.store.log``). Nothing else happens
under the game's write. After the commit the worker (``play.worker``) claims the row and runs
every subscriber of ``finished`` in order: the registry archives the game (records, signatures,
tally, ratings), and later tournaments and the matchmaking pool will subscribe the same way
(lila's ``Finisher`` publishes game end and other modules subscribe). A subscriber must be
idempotent: after a crash between its work and the row's ``done`` it runs again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction

from play import ports, seats
from play.games import clock
from play.games.registry import VARIANT_NAMES
from play.models import Game
from play.store import log as event_log

Subscriber = Callable[[Game], Any]
_finished: list[tuple[str, Subscriber]] = []


class StartError(ValueError):
    """A game that cannot be started as asked (an unknown variant), in a user's words."""


def start_game(player_i, player_o, variant: str = "standard", rated: bool = True,
               auto_warn: bool = True, time_control: str = "untimed",
               in_event: bool = False) -> Game:
    """Create a live game at version 0 and its registry entry (signed game entry, STGE).
    A timed game's first clock (I's opening turn, R36) runs from its creation: the row
    carries that deadline for the worker. ``in_event``: an event's round creates it (R41: a
    missed opening turn is an unplayed loss, not an abort)."""
    if variant not in VARIANT_NAMES:
        raise StartError(f"unknown variant {variant!r}")
    try:
        control = clock.parse(time_control)
    except clock.TimeControlError as err:
        raise StartError(str(err)) from None
    with transaction.atomic():
        rating_i, rating_o = ports.directory().ratings(player_i, player_o)
        game = Game.objects.create(player_i=player_i, player_o=player_o, variant=variant,
                                   rated=rated, auto_warn=auto_warn, rating_i=rating_i,
                                   rating_o=rating_o, time_control=str(control),
                                   in_event=in_event)
        seats.seat_players(game, [(player_i, rating_i), (player_o, rating_o)])
        if control.timed:
            first = clock.Clock(control, clock.ms(game.created)).deadline()
            game.deadline = event_log.deadline_at(first)
            Game.objects.filter(pk=game.pk).update(deadline=game.deadline)
        ports.directory().game_started(game)
    return game


def subscribe_finished(name: str, subscriber: Subscriber) -> None:
    """Run ``subscriber(game)`` for every finished game, once committed (idempotent: it may
    run again for the same game after a crash). Subscribing again under a name replaces."""
    for i, (known, _) in enumerate(_finished):
        if known == name:
            _finished[i] = (name, subscriber)
            return
    _finished.append((name, subscriber))


def finished_subscribers() -> list[tuple[str, Subscriber]]:
    return list(_finished)


_adjourned: list[tuple[str, Subscriber]] = []


def subscribe_adjourned(name: str, subscriber: Subscriber) -> None:
    """Run ``subscriber(game)`` for a game adjourned with its turn sealed (R38: its session
    has ended; the registry writes the session entry). Idempotent, like ``finished``'s: the
    worker calls it again until the game resumes."""
    _adjourned[:] = [(n, s) for n, s in _adjourned if n != name] + [(name, subscriber)]


def adjourned_subscribers() -> list[tuple[str, Subscriber]]:
    return list(_adjourned)
