"""``{% game_ratings_section player %}``: on a profile, the player's rating in each game other
than talu they have played rated: the number (``?`` while provisional), games played and a
small history chart drawn as talu's is (``registry.views.rating_chart``, inline SVG, no
script). One query for a player with none, two with some, whatever the number of games."""

from __future__ import annotations

from django import template

register = template.Library()


@register.inclusion_tag("registry/_game_ratings.html")
def game_ratings_section(player):
    from registry.game_ratings import catalog
    from registry.game_ratings.models import GameRating, GameRatingChange
    from registry.views import _thin, rating_chart

    if player.user_id is None:  # a player registered by a body plays only talu here
        return {"ratings": []}
    names = catalog.rated_games()
    rows = [r for r in GameRating.objects.filter(user_id=player.user_id, games__gt=0)
            if r.game in names]
    if not rows:
        return {"ratings": []}
    history: dict[tuple[str, str], list[int]] = {}
    for game, variant, before, after in (
            GameRatingChange.objects.filter(user_id=player.user_id)
            .order_by("at", "game_id")
            .values_list("game", "variant", "display_before", "display_after")):
        points = history.setdefault((game, variant), [before])
        points.append(after)
    order = list(names)
    rows.sort(key=lambda r: (order.index(r.game), r.variant))
    ratings = []
    for r in rows:
        points = history.get((r.game, r.variant), [])
        ratings.append({
            "row": r, "name": names[r.game], "game": r.game, "variant": r.variant,
            # one point is no history: the words say so, not a lone dot (as talu's chart)
            "chart": rating_chart(_thin(points)) if len(points) > 1 else {},
            "games": recent_games(player.user_id, r.game),
        })
    return {"ratings": ratings, "player": player}


RECENT = 10  # games listed per game on a profile


def recent_games(user_id: int, game: str) -> list[dict]:
    """The player's last finished games of ``game`` (issue 42: a profile lists a player's
    tafl games): each game's page, its variant, the other players, the player's place in
    words and the rating change it made, if rated."""
    from play.games.protocol.result import place_of
    from play.games.registry import variant_label
    from play.models import Game, Seat
    from registry.game_ratings.models import GameRatingChange

    games = list(Game.objects.filter(game=game, status=Game.FINISHED, seats__user_id=user_id)
                 .order_by("-finished", "-pk")[:RECENT])
    seats: dict[int, list] = {}
    for s in (Seat.objects.filter(game__in=games).select_related("user")
              .order_by("game_id", "order")):
        seats.setdefault(s.game_id, []).append(s)
    changes = {c.game_id: c for c in GameRatingChange.objects.filter(
        user_id=user_id, game_id__in=[g.pk for g in games])}
    out = []
    for g in games:
        ranks = {s.seat: s.rank for s in seats.get(g.pk, []) if s.rank is not None}
        mine = next((s.seat for s in seats.get(g.pk, []) if s.user_id == user_id), "")
        place = "aborted" if g.reason == "aborted" else place_of(ranks, mine)
        change = changes.get(g.pk)
        out.append({"uuid": g.uuid, "variant": variant_label(g.variant_key), "place": place,
                    "others": ", ".join(s.user.get_username() for s in seats.get(g.pk, [])
                                        if s.user_id not in (None, user_id)),
                    "change": None if change is None
                    else change.display_after - change.display_before})
    return out
