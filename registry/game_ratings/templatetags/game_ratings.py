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
        })
    return {"ratings": ratings, "player": player}
