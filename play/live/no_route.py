"""The websocket route of last resort (``play.routing``): any path the site does not serve."""

from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer

from play.live import wire


class NoSuchSocket(AsyncWebsocketConsumer):
    """A websocket on a path the site does not serve: told so, and closed like an unknown game
    (docs/protocol.md, close code 4404)."""

    async def connect(self) -> None:
        await self.accept()
        await self.send(text_data=wire.encode({"type": "error", "code": "not_found",
                                               "message": "there is no websocket at this path"}))
        await self.close(code=4404)
