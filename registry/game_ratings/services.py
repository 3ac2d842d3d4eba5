"""The one writer of the other games' ratings: ``rate_finished``, once per finished game.

Called by the archive of a finished game (the seat model's, issue 36) with the game's ranks.
Idempotent: a game is rated once, whoever calls and however often, because every change is a
``GameRatingChange`` unique per (game, player), written in the transaction that moves the
ratings. Two workers rating the same game (or two games of one player) at once are serialised
by the players' rating rows, locked in one order (``select_for_update``; on SQLite the
database's one writer does it); the second then finds the first's changes and writes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from play.computer.account import computer_ids
from registry.game_ratings import catalog, rating
from registry.game_ratings.models import GameRating, GameRatingChange


class GameRatingError(ValueError):
    """A call that cannot be rated (an unknown game, a bad rank): the caller's mistake."""


def rate_finished(game_id: int, game: str, variant: str,
                  seats: Sequence[tuple[int | None, int]], at: datetime) -> list[GameRatingChange]:
    """Rate the finished game ``game_id`` (play's game id) of ``game`` (a key of the catalogue;
    ``variant`` is "" when the game rates across its variants) from its ``seats``: (user id or
    None, rank) per seat, rank 1 the best, equal ranks a tie. Seats without a person (None:
    neutral seats, the computer) are left out, and so is the computer's account; a game with
    fewer than two rated persons changes nothing. ``at`` is when the game ended (its history's
    date).

    Returns the game's rating changes, in the order of ``seats``: those this call wrote, or,
    when the game was rated before, those written then (nothing is written twice)."""
    _check(game_id, game, variant, seats, at)
    robots = computer_ids()
    ranks: dict[int, int] = {}
    for user_id, rank in seats:
        if user_id is None or user_id in robots:
            continue
        if user_id in ranks:
            raise GameRatingError(f"user {user_id} holds two seats of game {game_id}: "
                                  "a person is rated once per game")
        ranks[user_id] = rank
    if len(ranks) < 2:
        return []
    earlier = list(GameRatingChange.objects.filter(game_id=game_id))
    if earlier:  # rated before (the usual repeat): one read, nothing written
        return _in_order(earlier, list(ranks))
    missing = set(ranks) - set(get_user_model().objects.filter(pk__in=list(ranks))
                               .values_list("pk", flat=True))
    if missing:
        raise GameRatingError(f"no such user: {', '.join(map(str, sorted(missing)))}")
    try:
        with transaction.atomic():
            return _rate(game_id, game, variant, ranks, at)
    except IntegrityError:
        # Another writer rated this game between our check and our insert (the unique
        # constraint caught it, the transaction was rolled back): theirs stands.
        return _written(game_id, list(ranks))


def _check(game_id: int, game: str, variant: str, seats: Sequence[tuple[int | None, int]],
           at: datetime) -> None:
    if isinstance(game_id, bool) or not isinstance(game_id, int) or game_id < 1:
        raise GameRatingError(f"a game id is a whole number from 1, not {game_id!r}")
    if not isinstance(game, str) or catalog.game_name(game) is None:
        known = ", ".join(catalog.rated_games())
        raise GameRatingError(f"no rated game {game!r} (rated here: {known}; talu's ratings "
                              "are the ledger's)")
    if not isinstance(variant, str) or (variant and not catalog.is_key(variant)):
        raise GameRatingError(f"a variant is '' or a short lower-case key, not {variant!r}")
    if not isinstance(at, datetime) or at.tzinfo is None:
        raise GameRatingError(f"'at' is an aware datetime, not {at!r}")
    for seat in seats:
        if not (isinstance(seat, tuple) and len(seat) == 2):
            raise GameRatingError(f"a seat is (user id or None, rank), not {seat!r}")
        user_id, rank = seat
        if user_id is not None and (isinstance(user_id, bool) or not isinstance(user_id, int)):
            raise GameRatingError(f"a seat's user is an id or None, not {user_id!r}")
        if isinstance(rank, bool) or not isinstance(rank, int) or rank < 1:
            raise GameRatingError(f"a seat's rank is a whole number from 1, not {rank!r}")


def _rate(game_id: int, game: str, variant: str, ranks: dict[int, int],
          at: datetime) -> list[GameRatingChange]:
    users = list(ranks)
    # Every player's row exists (a newcomer's at the start rating), then all are locked in
    # the order of their ids: two games of one player wait for each other, never deadlock.
    GameRating.objects.bulk_create(
        [GameRating(user_id=u, game=game, variant=variant, mu=rating.MU, sigma=rating.SIGMA,
                    updated=at) for u in users], ignore_conflicts=True)
    rows = {r.user_id: r for r in GameRating.objects.select_for_update()
            .filter(game=game, variant=variant, user_id__in=users).order_by("user_id")}
    # Checked again under the locks: a writer that rated this game first, and whose locks
    # we waited for, has committed by now (PostgreSQL reads its rows in this new statement).
    if GameRatingChange.objects.filter(game_id=game_id).exists():
        return _written(game_id, users)
    before = {u: rows[u].value for u in users}
    after = rating.rate(ranks, before)
    changes = []
    for u in users:
        row, old, new = rows[u], before[u], after[u]
        row.mu, row.sigma, row.games, row.updated = new.mu, new.sigma, row.games + 1, at
        changes.append(GameRatingChange(
            game_id=game_id, user_id=u, game=game, variant=variant, rank=ranks[u],
            seats=len(users), mu_before=old.mu, sigma_before=old.sigma, mu_after=new.mu,
            sigma_after=new.sigma, display_before=old.display, display_after=new.display,
            at=at))
    GameRatingChange.objects.bulk_create(changes)
    GameRating.objects.bulk_update(list(rows.values()), ["mu", "sigma", "games", "updated"])
    return changes


def _written(game_id: int, users: list[int]) -> list[GameRatingChange]:
    """The game's changes written earlier, in the order of ``users``."""
    return _in_order(list(GameRatingChange.objects.filter(game_id=game_id)), users)


def _in_order(changes: list[GameRatingChange], users: list[int]) -> list[GameRatingChange]:
    found = {c.user_id: c for c in changes}
    return [found[u] for u in users if u in found]
