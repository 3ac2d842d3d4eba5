"""The leaderboard of a game other than talu (``/leaderboard/<game>/``, ``?variant=``).

Beside talu's leaderboard per stratum (``registry.views.leaderboard``), which stays as it is: a
game's address takes a key of the catalogue (``urls.GameConverter``), so ``/leaderboard/S1/``
is still talu's stratum and an unknown name is a 404 page.
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.db.models import Case, IntegerField, Value, When
from django.http import Http404
from django.shortcuts import render

from registry.game_ratings import catalog, rating
from registry.game_ratings.models import GameRating

PAGE_SIZE = 50


def board(game: str, variant: str):
    """A game's (and variant's) rated players: settled ratings first, by skill; provisional
    ones (``?``) after them, by skill too. Lichess leaves provisional players off its boards;
    here they are listed, marked, below everyone whose number can be trusted."""
    return (GameRating.objects.filter(game=game, variant=variant, games__gt=0)
            .annotate(unsettled=Case(When(sigma__gt=rating.PROVISIONAL_SIGMA, then=Value(1)),
                                     default=Value(0), output_field=IntegerField()))
            .order_by("unsettled", "-mu", "-games", "user_id")
            .select_related("user__player"))


def leaderboard(request, game: str):
    name = catalog.game_name(game)
    if name is None:  # the converter lets only the catalogue's keys through; to be sure
        raise Http404("no such game")
    variants = sorted(set(GameRating.objects.filter(game=game, games__gt=0)
                          .values_list("variant", flat=True)))
    asked = request.GET.get("variant")
    if asked is None:
        # no variant named: the game's rating across variants, else its first variant's
        variant = "" if "" in variants or not variants else variants[0]
    elif asked == "" or catalog.is_key(asked):
        variant = asked
    else:
        raise Http404("no such variant")
    page = Paginator(board(game, variant), PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "registry/game_leaderboard.html", {
        "game": game, "game_name": name, "variant": variant, "page": page,
        "variants": [v for v in variants if v],
        "games": catalog.rated_games(),
        "provisional_sigma": rating.PROVISIONAL_SIGMA,
    })
