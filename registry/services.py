"""Registry services: players, the site's affiliated body, records and ratings of live games.

``play.services`` calls these at the two moments that matter: when a game starts (its registry
game, ``ArchivedGame``, and the signed game entry, STGE) and when it ends (the signed session
entry STSE, the slip STDGS, the STGN, the result and tally, and the ratings, which the ledger
writes exactly as for a submitted game or a recompute, R30).
Record building and signing are the records core's (``registry.records``); scoring is the
scoring core's (``registry.scoring``); ``registry.recordkeeping`` supplies the site's key and
settings to the records core.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from registry import ledger, recordkeeping
from registry.models import (
    AffiliatedBody,
    ArchivedGame,
    GameRecord,
    Player,
    RatingChange,
)

log = logging.getLogger(__name__)


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
    archived = ArchivedGame.objects.create(
        game_id=game.uuid, live=game, body=body, variant=game.variant, rated=game.rated,
        scoring_model=body.scoring_model, source=ArchivedGame.LIVE,
        status=ArchivedGame.PLAYING, player_i=player_of(game.player_i),
        player_o=player_of(game.player_o), played_at=game.created,
    )
    text, digest = recordkeeping.game_entry(
        game_id=str(game.uuid), variant=game.variant, players=_players_block(game),
        created=int(game.created.timestamp()),
    )
    return GameRecord.objects.create(game=archived, kind=GameRecord.STGE, content=text,
                                     hash=digest)


def finish_game(game, engine) -> None:
    """At the end of a live game: records (STSE, STDGS, STGN), the result, and the ratings.

    A failure of the records (e.g. the keyring is unusable) is logged and does not stop the
    game from ending or the ratings from moving: the records can be written again from the
    event log, a game stuck before its last step could not. Ratings go through the ledger,
    the same path as submitted games and recomputes (R30).
    """
    from registry.scoring.tally import tally_game

    archived = ArchivedGame.objects.select_for_update().filter(live=game).first()
    if archived is None:  # a game started before the registry kept games: archive it now
        write_game_entry(game)
        archived = ArchivedGame.objects.select_for_update().get(live=game)
    try:
        with transaction.atomic():
            write_final_records(archived, engine)
    except Exception:
        log.exception("the records of game %s could not be written", game.uuid)
    tally = tally_game(engine)
    archived.status = ArchivedGame.FINISHED
    archived.winner = game.winner
    archived.reason = game.reason
    archived.rounds = tally.rounds
    archived.tally = ledger.tally_to_json(tally)
    archived.stgn = engine.stgn()
    archived.played_at = game.finished or timezone.now()
    archived.save()
    ledger.rate_finished_game(archived)


def write_final_records(archived: ArchivedGame, engine) -> None:
    stge = GameRecord.objects.get(game=archived, kind=GameRecord.STGE, superseded=False)
    game_entry = recordkeeping.read(stge.content)
    stse_text, stse_hash, stse, replayed = recordkeeping.session_entry(
        game_entry=game_entry, place=settings.TALU_PLACE,
        start=int(archived.live.created.timestamp()), turns=engine.stgn_lines(),
        board=engine.board(), arbiter=[d.to_dict() for d in engine.arbiter],
    )
    GameRecord.objects.create(game=archived, kind=GameRecord.STSE, session=1,
                              content=stse_text, hash=stse_hash)
    GameRecord.objects.create(game=archived, kind=GameRecord.STGN, content=engine.stgn())
    GameRecord.objects.create(game=archived, kind=GameRecord.STDGS,
                              content=recordkeeping.slip(game_entry, [stse], replayed))


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
