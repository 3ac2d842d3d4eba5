"""A bare broadcast consumer: the load benchmark's baseline (issue 7), never a site feature.

It joins the group named in its URL and relays every text frame it receives to that group,
itself included, unchanged. No database, no session, no JSON: what is left is the cost of
daphne, Channels and the channel layer alone, which is the floor the game consumer
(``play.consumers``) is measured against in ``benchmarks/bench_load.py``.

Routed only when ``TALU_BENCH_RELAY`` is true (``play.routing``): anyone who can open it can
make the server broadcast anything, so it must never be open in production.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer


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
