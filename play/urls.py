from django.urls import path

from play import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("lobby/state.json", views.lobby_state, name="lobby_state"),
    path("challenges/new/", views.challenge_new, name="challenge_new"),
    path("challenges/<int:pk>/accept/", views.challenge_accept, name="challenge_accept"),
    path("challenges/<int:pk>/cancel/", views.challenge_cancel, name="challenge_cancel"),
    path("computer/new/", views.computer_new, name="computer_new"),
    path("games/<uuid:game_id>/", views.game_page, name="game"),
]
