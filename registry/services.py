"""Registry services: players, the site's affiliated body, records and ratings of live games.

``play.services`` calls these at the two moments that matter: when a game starts (the signed
game entry, STGE) and when it ends (the signed session entry STSE, the slip STDGS, the STGN, and
for rated games the rating changes of both players, each by their own stratum's model, SX).
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

from registry import recordkeeping
from registry.models import (
    AffiliatedBody,
    GameRecord,
    Player,
    RatingChange,
)
from registry.scoring.strata import is_promotion_due, promoted_base

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
    """Build and sign the game entry (STGE) when the game starts."""
    site_body()
    text, digest = recordkeeping.game_entry(
        game_id=str(game.uuid), variant=game.variant, players=_players_block(game),
        created=int(game.created.timestamp()),
    )
    return GameRecord.objects.create(game=game, kind=GameRecord.STGE, content=text, hash=digest)


def finish_game(game, engine) -> None:
    """At the end of a game: records (STSE, STDGS, STGN) and, when rated, the ratings.

    A failure of the records (e.g. the keyring is unusable) is logged and does not stop the
    game from ending or the ratings from moving: the records can be written again from the
    event log, a game stuck before its last step could not.
    """
    try:
        with transaction.atomic():
            write_final_records(game, engine)
    except Exception:
        log.exception("the records of game %s could not be written", game.uuid)
    if game.rated and game.winner in ("I", "O"):
        rate_game(game, engine)


def write_final_records(game, engine) -> None:
    stge = GameRecord.objects.get(game=game, kind=GameRecord.STGE)
    stse_text, stse_hash = recordkeeping.session_entry(
        game_entry_text=stge.content, place=settings.TALU_PLACE,
        start=int(game.created.timestamp()), turns=engine.stgn_lines(), board=engine.board(),
        arbiter=[d.to_dict() for d in engine.arbiter],
    )
    GameRecord.objects.create(game=game, kind=GameRecord.STSE, session=1, content=stse_text,
                              hash=stse_hash)
    GameRecord.objects.create(game=game, kind=GameRecord.STGN, content=engine.stgn())
    GameRecord.objects.create(game=game, kind=GameRecord.STDGS,
                              content=recordkeeping.slip(stge.content, [stse_text]))


def rate_game(game, engine) -> list[RatingChange]:
    """SX (R25): each player rated by their own stratum's model; promotion (R26) applied.

    Null games change no rating (R12). Ratings used are those the players hold now, with the
    row lock held, so two games ending at once cannot lose an update.
    """
    from registry.scoring.sx import score_side
    from registry.scoring.tally import tally_game

    tally = tally_game(engine)
    if not tally.rateable:
        return []
    with transaction.atomic():
        players = {
            "I": Player.objects.select_for_update().get(user_id=game.player_i_id),
            "O": Player.objects.select_for_update().get(user_id=game.player_o_id),
        }
        ratings = {s: p.rating for s, p in players.items()}
        changes = []
        for side, p in players.items():
            other = "O" if side == "I" else "I"
            model = f"S{p.stratum}"
            res = score_side(tally, side, model, ratings[side], ratings[other])
            figures: dict[str, Any] = {"model": model, "tally": tally.codes[side],
                                       "captures": tally.captures[side], "rounds": tally.rounds,
                                       "opponent_rating": ratings[other],
                                       "coefficient": res.coefficient, "points": res.points}
            figures.update(_jsonable(res.detail()))
            won = tally.winner == side
            stratum = p.stratum
            p.rating = res.new
            p.stratum_games += 1
            p.stratum_wins += int(won)
            promoted = None
            if is_promotion_due(p.stratum, p.stratum_games, p.stratum_wins, p.rating):  # R26
                p.rating = promoted_base(p.stratum)
                p.stratum += 1
                p.stratum_games = 0
                p.stratum_wins = 0
                promoted = p.stratum
            p.save(update_fields=["rating", "stratum", "stratum_games", "stratum_wins"])
            changes.append(RatingChange.objects.create(
                player=p, game=game, side=side, model=model, stratum=stratum,
                old_rating=ratings[side], new_rating=res.new, rating_after=p.rating, won=won,
                promoted_to=promoted, figures=figures,
            ))
    return changes


def _jsonable(value: Any) -> Any:
    from fractions import Fraction

    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, Fraction):
        return float(value)
    return value


def record_links(game) -> list[dict[str, Any]]:
    order = {"STGN": 0, "STGE": 1, "STSE": 2, "STDGS": 3}
    recs = sorted(GameRecord.objects.filter(game=game).only("kind", "session"),
                  key=lambda r: (order.get(r.kind, 9), r.session))
    return [{"kind": r.kind, "session": r.session or None,
             "url": reverse("game_record", args=[game.uuid, r.kind.lower(), r.session])}
            for r in recs]


def rating_changes_of(game) -> dict[str, dict[str, Any]]:
    out = {}
    for rc in RatingChange.objects.filter(game=game):
        out[rc.side] = {"model": rc.model, "old": rc.old_rating, "new": rc.new_rating,
                        "after": rc.rating_after, "promoted_to": rc.promoted_to}
    return out
