from django.contrib.auth import views as auth_views
from django.urls import include, path

from registry import arbiter_views, moderation_views, player_search, views, views_game_records

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("players/", player_search.search, name="player_search"),  # issue 39
    path("players/me/anpc/", views.set_anpc, name="set_anpc"),
    path("players/<str:player_id>/", views.profile, name="profile"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    # the other games' boards (issue 36), before talu's strata: a game key is never S1-S3
    path("", include("registry.game_ratings.urls")),
    path("leaderboard/<str:code>/", views.leaderboard, name="leaderboard_stratum"),
    # chat reports and moderation (issue 39)
    path("moderation/", moderation_views.page, name="moderation"),
    path("moderation/act/", moderation_views.act, name="moderation_act"),
    path("arbiter/", arbiter_views.console, name="arbiter_console"),
    path("arbiter/state.json", arbiter_views.console_state, name="arbiter_state"),
    path("arbiter/games/<uuid:game_id>/signs.json", arbiter_views.game_signs,
         name="arbiter_signs"),
    path("games/<uuid:game_id>/<str:kind>/<int:session>/", views.game_record,
         name="game_record"),
    # another game's kept record (issue 36): the signed record and the game's own notation
    path("games/<uuid:game_id>/record.json", views_game_records.signed_record,
         name="game_signed_record"),
    path("games/<uuid:game_id>/notation.txt", views_game_records.notation,
         name="game_notation"),
]
