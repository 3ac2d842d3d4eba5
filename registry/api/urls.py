"""URLs of the API, mounted at ``/api/v1/`` (names in the ``api`` namespace)."""

from django.urls import path, re_path, register_converter

from registry.api import arbiters, views
from registry.api.errors import not_found

app_name = "api"


class KeyConverter:
    """A player or registrar id in a path: no slash and no control character (PostgreSQL
    refuses NUL in text, so ``/players/%00/`` must be a 404 before any query)."""

    regex = r"[^/\x00-\x1f\x7f]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(KeyConverter, "key")

urlpatterns = [
    path("", views.ApiIndex.as_view(), name="index"),
    path("players/", views.PlayerList.as_view(), name="player-list"),
    path("players/<key:player_id>/", views.PlayerDetail.as_view(), name="player-detail"),
    path("players/<key:player_id>/ratings/", views.PlayerRatings.as_view(),
         name="player-ratings"),
    path("games/", views.GameList.as_view(), name="game-list"),
    path("games/<uuid:game_id>/", views.GameDetail.as_view(), name="game-detail"),
    path("games/<uuid:game_id>/annul/", views.GameAnnul.as_view(), name="game-annul"),
    path("games/<uuid:game_id>/correct/", views.GameCorrect.as_view(), name="game-correct"),
    path("games/<uuid:game_id>/records/", views.GameRecords.as_view(), name="game-records"),
    path("games/<uuid:game_id>/arbiters/", arbiters.GameArbiters.as_view(),
         name="game-arbiters"),
    path("games/<uuid:game_id>/arbiters/<key:username>/", arbiters.GameArbiter.as_view(),
         name="game-arbiter"),
    path("games/<uuid:game_id>/arbiter/", arbiters.GameArbiterAction.as_view(),
         name="game-arbiter-action"),
    path("games/<uuid:game_id>/records/<key:name>/", views.GameRecordText.as_view(),
         name="game-record"),
    re_path(r"^leaderboards/(?P<code>S[123])/$", views.Leaderboard.as_view(),
            name="leaderboard"),
    path("bodies/", views.BodyList.as_view(), name="body-list"),
    path("bodies/<key:registrar_id>/", views.BodyDetail.as_view(), name="body-detail"),
    re_path(r"^[\s\S]*$", not_found),  # any other path, newlines included
]
