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

from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction

from play import ports, seats
from play.games import clock
from play.games.registry import DEFAULT_GAME, VARIANT_NAMES, variant_of
from play.models import Game
from play.store import log as event_log

Subscriber = Callable[[Game], Any]
_finished: list[tuple[str, Subscriber]] = []


class StartError(ValueError):
    """A game that cannot be started as asked (an unknown variant), in a user's words."""


def start_game(player_i, player_o, variant: str = "standard", rated: bool = True,
               auto_warn: bool = True, time_control: str = "untimed",
               in_event: bool = False) -> Game:
    """A talu game of ``player_i`` (light, I) against ``player_o`` (dark, O): ``start_table``
    with talu's variant (its bare name, as talu's rows and records have always said)."""
    if variant not in VARIANT_NAMES:
        raise StartError(f"unknown variant {variant!r}")
    return start_table(f"{DEFAULT_GAME}/{variant}", [player_i, player_o], rated=rated,
                       auto_warn=auto_warn, time_control=time_control, in_event=in_event)


def start_table(variant_key: str, players: Sequence[Any], rated: bool = True,
                auto_warn: bool = True, time_control: str = "untimed",
                in_event: bool = False, options: dict[str, Any] | None = None) -> Game:
    """Create a live game of any game at version 0, its seats held by ``players`` in the
    variant's playing order (neutral seats stay empty), and its registry entry (talu: the
    signed game entry, STGE). A timed game's first clock (the first seat's opening turn, R36)
    runs from its creation: the row carries that deadline for the worker. ``in_event``: an
    event's round creates it (R41: a missed opening turn is an unplayed loss, not an abort).
    A two-seat game's players are also its ``player_i``/``player_o``; talu's carry the
    ratings they bring (R23)."""
    try:
        variant = variant_of(variant_key)
    except KeyError as err:
        raise StartError(str(err.args[0])) from None
    if len(players) != len(variant.played):
        raise StartError(f"{variant.title} is played by {len(variant.played)} players, not "
                         f"{len(players)}")
    try:
        control = clock.parse(time_control)
    except clock.TimeControlError as err:
        raise StartError(str(err)) from None
    two = len(players) == 2
    with transaction.atomic():
        directory = ports.directory()
        ratings = directory.ratings(variant.game, variant.name, players)
        talu: dict[str, Any] = {}
        if directory.keeps_book_ratings(variant.game):  # the book's (R23): kept for S3
            talu = {"rating_i": ratings[0], "rating_o": ratings[1]}
        game = Game.objects.create(
            game=variant.game, variant=variant.name, options=options or {},
            player_i=players[0] if two else None, player_o=players[1] if two else None,
            rated=rated, auto_warn=auto_warn, time_control=str(control), in_event=in_event,
            to_move=variant.played[0], **talu)
        seats.seat_players(game, list(zip(players, ratings, strict=True)))
        if control.timed:
            first = clock.Clock(control, clock.ms(game.created), variant.played).deadline()
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
