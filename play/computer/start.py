"""Play the computer: a freeplay game against the computer's account, started at once.

Games against the computer are never rated (R47). The game is an ordinary game (records,
archive, the command path); a ``ComputerGame`` row says which side the computer plays at which
level. If the computer plays I, the worker is woken so that it opens the game at once.

A game against the computer is untimed or on a live clock (R36: fischer, byoyomi); the computer
budgets its thinking from its own time left (``search.clock_seconds``) and is flagged by the
worker like anyone. Correspondence is refused: days per turn against an opponent that answers in
seconds is only a slower untimed game, and its reminders and "one day left" notices would be
sent about a game nobody waits on.
"""

from __future__ import annotations

import random

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Exists, OuterRef

from play.computer.account import computer_user
from play.games import clock
from play.games.registry import computer_for, variant_of
from play.lifecycle import start_table
from play.models import ComputerGame, Game
from talu_site import ratelimit


class ComputerGameError(ValueError):
    """A request for a game against the computer refused, in words a user can read."""


def play_the_computer(user, variant: str = "standard", level: int = 3, side: str = "random",
                      time_control: str | None = None, rng: random.Random | None = None) -> Game:
    """Start a game of ``user`` against the computer at ``level``; ``side`` is the user's seat
    (talu: ``I``, ``O``) or ``random``; ``time_control`` (R36) untimed (the default) or live.
    Only a two-seat game whose package gives a computer (``play.games.registry.computer_for``)
    is played against it."""
    try:
        spec = variant_of(variant)
        player = computer_for(variant)
    except KeyError:
        raise ComputerGameError(f"unknown variant {variant!r}") from None
    seats = spec.played
    if player is None or len(seats) != 2:
        raise ComputerGameError(f"the computer does not play {spec.title}")
    levels = player.levels
    if not isinstance(level, int) or level not in levels:
        raise ComputerGameError(f"the computer's level is a number from {min(levels)} to "
                                f"{max(levels)}")
    # the lobby's form says I and O for the first and the second seat of any game (talu's
    # light and dark; its labels name the chosen variant's seats: static/play/lobby.js)
    if side in ("I", "O") and side not in seats:
        side = seats[0] if side == "I" else seats[1]
    if side not in ("random", *seats):
        raise ComputerGameError(f"side must be random, {' or '.join(seats)}")
    try:
        control = clock.parse(time_control or clock.UNTIMED)
    except clock.TimeControlError as err:
        raise ComputerGameError(str(err)) from None
    if control.kind == clock.CORRESPONDENCE:
        raise ComputerGameError("the computer plays untimed or on a live clock (like 3+2 or "
                                "10+5), not by correspondence")
    if side == "random":
        side = (rng or random.SystemRandom()).choice(list(seats))
    computer = computer_user()
    if computer.pk == user.pk:
        raise ComputerGameError("the computer does not play itself here")
    players = [user, computer] if side == seats[0] else [computer, user]
    _within_rate(user)
    with transaction.atomic():
        # One player's starts take turns (their account's row locked), so the cap holds
        # against requests at the same moment.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        _within_cap(user)
        game = start_table(spec.key, players, rated=False, time_control=str(control))
        ComputerGame.objects.create(game=game, side=seats[1] if side == seats[0] else seats[0],
                                    level=level)
    return game


def _within_cap(user) -> None:
    """One player may not queue everyone's computer games behind their own (issue 27, the
    fault of finding 4 in this door): at most ``TALU_MAX_COMPUTER_GAMES`` in progress."""
    cap = settings.TALU_MAX_COMPUTER_GAMES
    if in_progress(user) >= cap:
        raise ComputerGameError(f"you have {cap} games against the computer in progress: "
                                "finish or resign one first (My games lists them)")


def in_progress(user) -> int:
    """How many live games ``user`` plays against the computer (a table of three with two
    computer seats counts once, issue 37)."""
    return (Game.objects.filter(status=Game.LIVE, seats__user=user)
            .filter(Exists(ComputerGame.objects.filter(game=OuterRef("pk"))))
            .distinct().count())


def _within_rate(user) -> None:
    """And a rate of starting them (``talu_site.ratelimit`` "computer_game")."""
    refusal = ratelimit.limit("computer_game").hit(str(user.pk))
    if refusal is not None:
        raise ComputerGameError(refusal.message("games against the computer started"))
