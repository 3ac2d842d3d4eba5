"""The leaderboard per game, mounted by ``registry.urls`` before talu's per stratum."""

from __future__ import annotations

from django.urls import path, register_converter

from registry.game_ratings import catalog, views


class GameConverter:
    """A key of the rated games' catalogue, read when asked (the catalogue may grow); anything
    else does not match, so ``/leaderboard/S1/`` goes on to talu's stratum board and an unknown
    name to its 404."""

    regex = catalog.KEY_RE.pattern

    def to_python(self, value: str) -> str:
        if catalog.game_name(value) is None:
            raise ValueError(value)
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(GameConverter, "rated_game")

urlpatterns = [
    path("leaderboard/<rated_game:game>/", views.leaderboard, name="game_leaderboard"),
]
