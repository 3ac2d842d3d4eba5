"""Registry services for the site's own games: players, the site's affiliated body, a new
game's registry entry and signed game entry (STGE), and the links to a game's records.

Live play reaches these through ``registry.play_directory`` (``play.ports``); a finished game is
archived by ``registry.archiving``. Record building and signing are the records core's
(``registry.records``); ``registry.recordkeeping`` supplies the site's key and settings to it.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.urls import reverse

from play.games.talu.protocol import RULES as TALU
from registry import recordkeeping
from registry.models import (
    AffiliatedBody,
    GameRecord,
    Player,
    RatingChange,
    RegistryGame,
)

log = logging.getLogger(__name__)


def keeps_book_records(game) -> bool:
    """Whether the site game ``game`` is talu's, whose registry entry, book records (STGE,
    STSE, STGN, STDGS) and ledger (R30) are this registry's; every other game's record and
    ratings are ``registry.other_games``'."""
    return is_book_game(getattr(game, "game", TALU.name))


def is_book_game(key: str) -> bool:
    """Whether the game keyed ``key`` is the book's (talu): its ratings are the ledger's."""
    return key == TALU.name


def player_of(user) -> Player:
    """The registered player of a site account (created on first need, R26)."""
    try:
        return user.player
    except Player.DoesNotExist:
        player, _ = Player.objects.get_or_create(user=user)
        user.player = player
        return player


def site_body() -> AffiliatedBody:
    """The site's own affiliated body, with its signing key in ``settings.TALU_KEYRING``."""
    body = AffiliatedBody.objects.filter(registrar_id=settings.TALU_REGISTRAR_ID).first()
    key = recordkeeping.site_key()
    if body is None:
        body, _ = AffiliatedBody.objects.get_or_create(
            registrar_id=settings.TALU_REGISTRAR_ID,
            defaults={"name": settings.TALU_BODY_NAME, "key_id": key.key_id,
                      "public_key": key.public_key},
        )
    if body.key_id != key.key_id:  # the keyring was replaced: record the key now in use
        body.key_id = key.key_id
        body.public_key = key.public_key
        body.save(update_fields=["key_id", "public_key"])
    return body


def _players_block(game) -> dict[str, dict[str, str]]:
    return {
        "I": {"id": player_of(game.player_i).player_id, "name": game.player_i.get_username()},
        "O": {"id": player_of(game.player_o).player_id, "name": game.player_o.get_username()},
    }


def write_game_entry(game) -> GameRecord:
    """When a live game starts: its registry game (status live) and signed game entry."""
    body = site_body()
    archived = RegistryGame.objects.create(
        game_id=game.uuid, live=game, body=body, variant=game.variant, rated=game.rated,
        scoring_model=body.scoring_model, source=RegistryGame.SITE,
        status=RegistryGame.PLAYING, player_i=player_of(game.player_i),
        player_o=player_of(game.player_o), played_at=game.created,
    )
    text, digest = recordkeeping.game_entry(
        game_id=str(game.uuid), variant=game.variant, players=_players_block(game),
        created=int(game.created.timestamp()),
        time_control=getattr(game, "time_control", "untimed"),
    )
    return GameRecord.objects.create(game=archived, kind=GameRecord.STGE, content=text,
                                     hash=digest)


def record_links(game) -> list[dict[str, Any]]:
    """Download links of the current records of a live ``play.Game``."""
    order = {"STGN": 0, "STGE": 1, "STSE": 2, "STDGS": 3}
    recs = sorted(GameRecord.objects.filter(game__live=game, superseded=False)
                  .only("kind", "session"),
                  key=lambda r: (order.get(r.kind, 9), r.session))
    return [{"kind": r.kind, "session": r.session or None,
             "url": reverse("game_record", args=[game.uuid, r.kind.lower(), r.session])}
            for r in recs]


def rating_changes_of(game) -> dict[str, dict[str, Any]]:
    out = {}
    for rc in RatingChange.objects.filter(game__live=game):
        out[rc.side] = {"model": rc.model, "old": rc.old_rating, "new": rc.new_rating,
                        "after": rc.rating_after, "promoted_to": rc.promoted_to}
    return out
