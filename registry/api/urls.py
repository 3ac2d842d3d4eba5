"""URLs of the API, mounted at ``/api/v1/`` (names in the ``api`` namespace)."""

from django.urls import path, re_path

from registry.api import views
from registry.api.errors import not_found

app_name = "api"

urlpatterns = [
    path("players/", views.PlayerList.as_view(), name="player-list"),
    path("players/<str:player_id>/", views.PlayerDetail.as_view(), name="player-detail"),
    path("players/<str:player_id>/ratings/", views.PlayerRatings.as_view(),
         name="player-ratings"),
    path("games/", views.GameList.as_view(), name="game-list"),
    path("games/<uuid:game_id>/", views.GameDetail.as_view(), name="game-detail"),
    path("games/<uuid:game_id>/annul/", views.GameAnnul.as_view(), name="game-annul"),
    path("games/<uuid:game_id>/correct/", views.GameCorrect.as_view(), name="game-correct"),
    path("games/<uuid:game_id>/records/", views.GameRecords.as_view(), name="game-records"),
    path("games/<uuid:game_id>/records/<str:name>/", views.GameRecordText.as_view(),
         name="game-record"),
    re_path(r"^leaderboards/(?P<code>S[123])/$", views.Leaderboard.as_view(),
            name="leaderboard"),
    path("bodies/", views.BodyList.as_view(), name="body-list"),
    path("bodies/<str:registrar_id>/", views.BodyDetail.as_view(), name="body-detail"),
    re_path(r"^[\s\S]*$", not_found),  # any other path, newlines included
]
