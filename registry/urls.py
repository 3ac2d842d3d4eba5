from django.contrib.auth import views as auth_views
from django.urls import path

from registry import views

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("players/me/anpc/", views.set_anpc, name="set_anpc"),
    path("players/<str:player_id>/", views.profile, name="profile"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("leaderboard/<str:code>/", views.leaderboard, name="leaderboard_stratum"),
    path("games/<uuid:game_id>/<str:kind>/<int:session>/", views.game_record,
         name="game_record"),
]
