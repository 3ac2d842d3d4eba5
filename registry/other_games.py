"""The archive of a finished game of another game than talu (issue 36): its signed record
(``registry.game_records.keep_record``) and, for a rated game, its players' ratings for that
game (``registry.game_ratings.services.rate_finished``). Talu's games keep the book's records
and ledger (``registry.archiving``); this subscriber leaves them alone.

A subscriber of "game finished" (``play.lifecycle``), run by the worker after the game's end
and idempotent like every subscriber: a second run finds the record kept and the game rated.
"""

from __future__ import annotations

from django.db.models import Model

from play.games.match.match import KINDS as MATCH_KINDS
from play.games.protocol import COMPUTER, PLAYER, Event, Result
from play.games.registry import parts_of, rating_variant, variant_of
from play.models import Game, GameEvent, Seat
from registry.game_ratings.services import rate_finished
from registry.game_records import keep_record
from registry.records.game_record import GameFacts, RecordSeat, public_events
from registry.services import keeps_book_records


def _holder(seat: Seat) -> tuple[str | None, str | None]:
    user: Model | None = seat.user
    if user is None:
        return None, None
    name = user.get_username()  # type: ignore[attr-defined]
    return name, name


def facts_of(game: Game) -> GameFacts:
    """The record's facts of the finished ``game``, from its row, seats and log."""
    variant = variant_of(game.variant_key)
    seats = []
    for seat in game.seats.select_related("user").order_by("order"):
        player, account = _holder(seat)
        seats.append(RecordSeat(seat.seat, variant.label(seat.seat), seat.kind, player,
                                account, seat.rating))
    log = [(row.version, Event(row.kind, row.side, row.data, row.text, row.actor,
                               row.visibility))
           for row in GameEvent.objects.filter(game=game).order_by("version")]
    result = Result(game.ranks or {}, game.reason, game.detail, game.cause)
    return GameFacts(game_id=game.uuid, game=game.game, variant=game.variant_key, seats=seats,
                     result=result, started=game.created, finished=game.finished or
                     game.created, notation=game.stgn, options=game.options,
                     time_control=game.time_control, events=public_events(log))


def _a_seat_never_moved(game: Game) -> bool:
    """A9 (Talat, ``GameParts.rated_if_every_seat_moved``): a played seat that made no move of
    its own (its player's, or the computer's for it; the rules' automatic passes are not its
    moves) leaves the game unrated."""
    if not parts_of(game.game).rated_if_every_seat_moved:
        return False
    played = set(variant_of(game.variant_key).played)
    moved = set(GameEvent.objects.filter(game=game, actor__in=(PLAYER, COMPUTER))
                .exclude(kind__in=MATCH_KINDS).values_list("side", flat=True))
    return not played <= moved


def archive_other_game(game: Game) -> None:
    """Keep the record of a finished non-talu game and rate it (rated games with a result)."""
    if keeps_book_records(game) or game.is_live:
        return
    keep_record(facts_of(game))
    if game.rated and game.ranks and not _a_seat_never_moved(game):
        seats = [(s.user_id if s.kind == Seat.PERSON else None, s.rank)
                 for s in game.seats.order_by("order") if s.rank is not None]
        rate_finished(game.pk, game.game, rating_variant(game.game, game.variant), seats,
                      game.finished or game.created)
