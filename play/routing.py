"""Websocket routes. The benchmark relay (``play.relay``) exists only with TALU_BENCH_RELAY=true.

Any other path gets ``NoSuchSocket`` (last): an error message and close code 4404, as an
unknown game does, where Channels' router would raise and daphne answer the handshake with an
HTTP 500 and a traceback in the server's log."""

from django.urls import path, re_path

from play.consumers import GameConsumer, NoSuchSocket
from talu_site.channel_layer import bench_relay_enabled

websocket_urlpatterns = [
    path("ws/game/<uuid:game_id>/", GameConsumer.as_asgi()),
]

if bench_relay_enabled():
    from play.relay import RelayConsumer

    # Channels accepts group names of ASCII letters, digits, - _ . under 100 characters.
    websocket_urlpatterns.append(
        re_path(r"^ws/bench/relay/(?P<group>[-a-zA-Z0-9_]{1,64})/$", RelayConsumer.as_asgi()),
    )

websocket_urlpatterns.append(re_path(r"", NoSuchSocket.as_asgi()))
