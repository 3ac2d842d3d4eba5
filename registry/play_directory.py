"""The registry as live play sees it (``play.ports.Directory``), installed at start-up.

Play asks, the registry answers: the players' ratings when a game starts (R23), the game's
registry entry and signed game entry (STGE), the players as clients show them, and a finished
game's records and rating changes. Play never imports the registry (``play.ports``).
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from play.games.registry import DEFAULT_GAME, DEFAULT_VARIANT, rating_variant
from play.lobby.pool_pairing import FLOOR_SLACK
from play.models import Game
from registry import arbiters, services
from registry.models import Player
from registry.notices import services as notices
from registry.notices import sources
from registry.scoring import strata
from registry.scoring.psf import default_anpc, expected_rating, performance_safety_floor


class RegistryDirectory:
    def ratings(self, game: str, variant: str, players: Any) -> list[int | None]:
        if self.keeps_book_ratings(game):
            return [services.player_of(u).rating for u in players]
        from registry.game_ratings.models import GameRating
        found = {r.user_id: r.display for r in GameRating.objects.filter(
            game=game, variant=rating_variant(game, variant), user__in=[u.pk for u in players])}
        return [found.get(u.pk) for u in players]

    def keeps_book_ratings(self, game: str) -> bool:
        return services.is_book_game(game)

    def standing(self, user: Any, game: str = DEFAULT_GAME, variant: str = DEFAULT_VARIANT
                 ) -> dict[str, Any]:
        """R47/R27: rating and stratum; aNPc (the player's own, else the default of their
        last S3 games) and PSF for an S3 player only. Another game: its own rating
        (``registry.game_ratings``; a newcomer's is where its players start), no strata."""
        if not self.keeps_book_ratings(game):
            rating = self.ratings_of([user.pk], game, variant)[user.pk]
            return {"rating": rating, "stratum": None, "anpc": None, "psf": None}
        # read afresh: a rating changed since the account object was loaded counts (R47's cost)
        p = Player.objects.filter(user_id=user.pk).first() or services.player_of(user)
        out: dict[str, Any] = {"rating": p.rating, "stratum": p.stratum, "anpc": None,
                               "psf": None}
        if p.stratum == strata.TOP_STRATUM:
            anpc = p.anpc if p.anpc is not None else default_anpc(p.recent_npc or [])
            out["anpc"] = anpc
            out["psf"] = performance_safety_floor(p.rating, anpc)
        return out

    def ratings_of(self, user_ids: Any, game: str = DEFAULT_GAME, variant: str = DEFAULT_VARIANT
                   ) -> dict[int, int]:
        if not self.keeps_book_ratings(game):
            from registry.game_ratings.models import GameRating
            from registry.game_ratings.rating import DISPLAY_START
            shown = {r.user_id: r.display for r in GameRating.objects.filter(
                game=game, variant=rating_variant(game, variant), user_id__in=list(user_ids))}
            return {pk: shown.get(pk, DISPLAY_START) for pk in user_ids}
        found = dict(Player.objects.filter(user_id__in=list(user_ids)).values_list(
            "user_id", "rating"))
        return {pk: found.get(pk, strata.START_RATING) for pk in user_ids}

    def psf_hints(self, user: Any, opponents: dict[Any, int]) -> dict[str, Any] | None:
        if user is None or not user.is_authenticated:
            return None
        st = self.standing(user)
        if st["psf"] is None:
            return None
        rating, anpc, psf = st["rating"], st["anpc"], st["psf"]
        against = {}
        for key, opp in opponents.items():
            expected = expected_rating(rating, opp, anpc)
            against[key] = {"opponent": opp, "expected": expected, "change": expected - rating,
                            "below": opp < psf - FLOOR_SLACK}
        return {"rating": rating, "anpc": anpc, "psf": psf, "psf_shown": round(psf),
                "against": against}

    def game_started(self, game: Any) -> None:
        """Talu's registry entry and signed game entry (STGE); nothing for another game."""
        if services.keeps_book_records(game):
            services.write_game_entry(game)

    def players(self, game: Any) -> dict[str, dict[str, Any]]:
        """Both players of a talu game in one query (an account without its registered player
        gets one, R26); another game's by its seats (``seat_players``)."""
        if game.game != "talu":
            return self.seat_players(game)
        found = {p.user_id: p for p in Player.objects.filter(
            user_id__in=(game.player_i_id, game.player_o_id)).select_related("user")}
        players = {}
        for side, user_id, start in (("I", game.player_i_id, game.rating_i),
                                     ("O", game.player_o_id, game.rating_o)):
            p = found.get(user_id)
            if p is None:
                p = services.player_of(game.player_i if side == "I" else game.player_o)
            players[side] = {"name": p.user.get_username(), "player_id": p.player_id,
                             "rating": p.rating, "rating_at_start": start,
                             "stratum": p.stratum_code,
                             "profile": reverse("profile", args=[p.player_id])}
        return players

    def seat_players(self, game: Any) -> dict[str, dict[str, Any]]:
        """The players of a game other than talu, by seat (neutral seats hold nobody): the
        rating each brought (that game's, ``registry.game_ratings``); no stratum (talu's)."""
        from play.models import Seat
        seats = list(Seat.objects.filter(game_id=game.pk, user__isnull=False)
                     .select_related("user").order_by("order"))
        found = {p.user_id: p for p in Player.objects.filter(
            user_id__in=[s.user_id for s in seats])}
        players = {}
        for s in seats:
            p = found.get(s.user_id) or services.player_of(s.user)
            players[s.seat] = {"name": s.user.get_username(), "player_id": p.player_id,
                               "rating": s.rating, "rating_at_start": s.rating,
                               "stratum": None,
                               "profile": reverse("profile", args=[p.player_id])}
        return players

    def archive(self, game: Any) -> dict[str, Any]:
        if not services.keeps_book_records(game):
            return self.other_archive(game)
        records = services.record_links(game)
        return {"records": records, "rating_changes": services.rating_changes_of(game),
                "archived": any(r["kind"] == "STSE" for r in records)}

    def other_archive(self, game: Any) -> dict[str, Any]:
        """Another game's archive (``registry.other_games``): its signed record and its
        notation to download once kept, and the ratings it moved (the game's own)."""
        from registry.game_ratings.models import GameRatingChange
        from registry.models import SignedGameRecord
        if not SignedGameRecord.objects.filter(game_id=game.pk).exists():
            return {"records": [], "rating_changes": {}, "archived": False}
        seat_of = dict(game.seats.values_list("user_id", "seat"))
        changes = {seat_of[c.user_id]: {"model": "openskill", "old": c.display_before,
                                        "new": c.display_after, "after": c.display_after,
                                        "promoted_to": None}
                   for c in GameRatingChange.objects.filter(game_id=game.pk)
                   if c.user_id in seat_of}
        return {"records": [
            {"kind": "record", "session": None,
             "url": reverse("game_signed_record", args=[game.uuid])},
            {"kind": "notation", "session": None,
             "url": reverse("game_notation", args=[game.uuid])}],
            "rating_changes": changes, "archived": True}

    def may_arbitrate(self, game: Any, user: Any) -> bool:
        return arbiters.may_arbitrate(game, user)

    def arbiter_acted(self, game: Any, user: Any, command: dict[str, Any],
                      version: int, body: Any = None) -> None:
        """The audit trail's entry, and a notice to each player of the game (issue 39)."""
        arbiters.acted(game, user, command, version, body)
        sources.arbiter_decided(game, command)

    def chat_allowed(self, game: Any) -> bool:
        """An event's game has chat when its event's arbiters allowed it (issue 39)."""
        return Game.objects.filter(pk=game.pk, event_pairing__round__event__chat=True).exists()

    def notify(self, user: Any, kind: str, text: str, url: str, subject: str = "",
               body: str = "") -> bool | None:
        return notices.notify(user, kind, text, url, subject=subject, body=body).mailed
