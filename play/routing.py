"""Websocket routes: a game's socket, the lobby's (``play.live.lobby``); any other path gets
``NoSuchSocket`` (last): an error message and close code 4404, as an unknown game does, where
Channels' router would raise and daphne answer the handshake with an HTTP 500 and a traceback
in the server's log."""

from django.urls import path, re_path

from play.live.consumer import GameConsumer
from play.live.lobby import LobbyConsumer
from play.live.no_route import NoSuchSocket

websocket_urlpatterns = [
    path("ws/game/<uuid:game_id>/", GameConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    re_path(r"", NoSuchSocket.as_asgi()),
]
