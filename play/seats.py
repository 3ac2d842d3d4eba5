"""Writing a game's seats (``play.models.Seat``) when it starts: who holds each of its
variant's seats, in playing order, and the rating they brought. A neutral seat gets a row
with nobody in it; the computer's account holds a computer seat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from play.computer.account import computer_ids
from play.games.registry import variant_of
from play.models import Game, Seat


class SeatError(ValueError):
    """The players given do not fill the variant's seats, in words."""


def seat_players(game: Game, players: Sequence[tuple[Any, int | None]]) -> list[Seat]:
    """Seat ``players`` (user, rating at the start) in ``game``'s played seats in order;
    neutral seats stay empty. Call inside the transaction that creates the game."""
    variant = variant_of(game.variant_key)
    played = [s for s in variant.seats if s.played]
    if len(players) != len(played):
        raise SeatError(f"{variant.title} seats {len(played)} players, not {len(players)}")
    computers = computer_ids()
    rows: list[Seat] = []
    held = iter(players)
    for order, spec in enumerate(variant.seats):
        if not spec.played:
            rows.append(Seat(game=game, seat=spec.id, order=order, kind=Seat.NEUTRAL))
            continue
        user, rating = next(held)
        kind = Seat.COMPUTER if user is not None and user.pk in computers else Seat.PERSON
        rows.append(Seat(game=game, seat=spec.id, order=order, kind=kind, user=user,
                         rating=rating))
    return Seat.objects.bulk_create(rows)
