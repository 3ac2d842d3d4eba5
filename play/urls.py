from django.urls import path

from play import views, views_games, views_learn, views_tables
from play.chat import views as chat_views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("lobby/state.json", views.lobby_state, name="lobby_state"),
    path("challenges/new/", views.challenge_new, name="challenge_new"),
    path("challenges/<int:pk>/accept/", views.challenge_accept, name="challenge_accept"),
    path("challenges/<int:pk>/cancel/", views.challenge_cancel, name="challenge_cancel"),
    path("pool/join/", views.pool_join, name="pool_join"),
    path("pool/leave/", views.pool_leave, name="pool_leave"),
    path("computer/new/", views.computer_new, name="computer_new"),
    # issue 37: tables of more than two seats, and the pool for three
    path("tables/new/", views_tables.table_open, name="table_open"),
    path("tables/<int:pk>/take/", views_tables.table_take, name="table_take"),
    path("tables/<int:pk>/computer/", views_tables.table_give, name="table_give"),
    path("tables/<int:pk>/take-back/", views_tables.table_take_back, name="table_take_back"),
    path("tables/<int:pk>/leave/", views_tables.table_leave, name="table_leave"),
    path("tables/<int:pk>/close/", views_tables.table_close, name="table_close"),
    path("pool/three/join/", views_tables.three_join, name="three_join"),
    path("pool/three/leave/", views_tables.three_leave, name="three_leave"),
    path("games/<uuid:game_id>/", views.game_page, name="game"),
    # issue 24: a newcomer's first game
    path("games/<uuid:game_id>/review.json", views_games.game_review, name="game_review"),
    # the chat panel (issue 39), reloaded after its socket comes back
    path("games/<uuid:game_id>/chat.json", chat_views.panel, name="game_chat"),
    path("games/<uuid:game_id>/rematch/", views_games.rematch, name="rematch"),
    path("games/mine/", views_games.my_games, name="my_games"),
    path("rules/", views_learn.rules, name="rules"),
    path("rules/<slug:game>/", views_learn.game_rules, name="game_rules"),
    path("learn/", views_learn.lesson_list, name="lessons"),
    path("learn/<slug:slug>/", views_learn.lesson_page, name="lesson"),
    path("learn/<slug:slug>/try.json", views_learn.lesson_try, name="lesson_try"),
]
