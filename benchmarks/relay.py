"""A bare broadcast consumer: the load benchmark's baseline (issue 7), never a site feature.

It joins the group named in its URL and relays every text frame it receives to that group,
itself included, unchanged. No database, no session, no JSON: what is left is the cost of
daphne, Channels and the channel layer alone, which is the floor the game consumer
(``play.consumers``) is measured against in ``benchmarks/bench_load.py``.

Never part of the site: anyone who can open it can make the server broadcast anything. The
benchmarks start their daphne processes with this module's ``application`` (the site's own,
with the relay route in front), ``benchmarks.relay:application``.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import ProtocolTypeRouter, URLRouter
from django.urls import re_path


class RelayConsumer(AsyncWebsocketConsumer):
    """Relays each text frame to everyone in ``bench.relay.<group>``."""

    group: str

    async def connect(self) -> None:
        self.group = "bench.relay." + self.scope["url_route"]["kwargs"]["group"]
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is not None:
            await self.channel_layer.group_send(self.group,
                                                {"type": "relay.message", "text": text_data})

    async def relay_message(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])


def _application():
    from talu_site import asgi  # sets Django up

    # Channels accepts group names of ASCII letters, digits, - _ . under 100 characters.
    relay = URLRouter([re_path(r"^ws/bench/relay/(?P<group>[-a-zA-Z0-9_]{1,64})/$",
                               RelayConsumer.as_asgi())])
    site_ws = asgi.application.application_mapping["websocket"]

    async def websocket(scope, receive, send):
        if scope["path"].startswith("/ws/bench/relay/"):
            return await relay(scope, receive, send)
        return await site_ws(scope, receive, send)

    return ProtocolTypeRouter({"http": asgi.application.application_mapping["http"],
                               "websocket": websocket})


application = _application()
