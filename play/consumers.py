"""The game websocket (protocol: docs/protocol.md). Thin: ``play.services`` does the work.

One consumer per open socket on ``/ws/game/<uuid>/``. Players may send steps; spectators and
anonymous users only listen. Every outgoing ``update`` carries the version range it covers;
the consumer remembers the last version it delivered, drops what it already sent and fills any
gap from the database, so a message lost by the channel layer is never a lost step.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from play import services

log = logging.getLogger(__name__)

CLIENT_TYPES = ("hello", "sync", "step", "end", "pass", "resign", "ping")


def group_name(game_id) -> str:
    return f"game.{game_id}"


class GameConsumer(AsyncWebsocketConsumer):
    game_id: str
    side: str | None = None
    sent_version: int = -1  # the last version this client has been given

    async def connect(self) -> None:
        self.game_id = str(self.scope["url_route"]["kwargs"]["game_id"])
        self.user = self.scope.get("user")
        self.joined = False
        try:
            game, side, count = await database_sync_to_async(services.join)(
                self.game_id, self.channel_name, self.user)
        except Exception:
            log.exception("websocket join failed")
            await self.close(code=1011)
            return
        if game is None:
            await self.accept()
            await self.send_json({"type": "error", "code": "not_found",
                                  "message": "there is no such game"})
            await self.close(code=4404)
            return
        self.side = side
        self.joined = True
        await self.channel_layer.group_add(group_name(self.game_id), self.channel_name)
        await self.accept()
        await self.send_json({"type": "welcome", "role": "player" if side else "spectator",
                              "side": side, "spectators": count,
                              "max_message": settings.TALU_WS_MAX_MESSAGE})
        await self._send_sync(None)
        await self.channel_layer.group_send(group_name(self.game_id),
                                            {"type": "presence", "spectators": count})

    async def disconnect(self, code: int) -> None:
        if not getattr(self, "joined", False):
            return
        await self.channel_layer.group_discard(group_name(self.game_id), self.channel_name)
        try:
            game, count = await database_sync_to_async(services.leave)(self.channel_name)
        except Exception:
            log.exception("websocket leave failed")
            return
        if game is not None:
            await self.channel_layer.group_send(group_name(self.game_id),
                                                {"type": "presence", "spectators": count})

    # --- incoming -----------------------------------------------------------------------------
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            await self._receive(text_data, bytes_data)
        except Exception:  # never a traceback to the client, never a dead consumer
            log.exception("error handling a websocket message")
            await self.send_json({"type": "error", "code": "server_error",
                                  "message": "the server could not handle that message"})

    async def _receive(self, text_data: str | None, bytes_data: bytes | None) -> None:
        limit = settings.TALU_WS_MAX_MESSAGE
        if text_data is None:
            await self.error("bad_message", "send JSON text frames, not binary")
            return
        if len(text_data) > limit or len(text_data.encode("utf-8", "replace")) > limit:
            await self.error("too_large", f"messages are limited to {limit} bytes")
            return
        try:
            msg = json.loads(text_data)
        except ValueError:
            await self.error("bad_json", "that message is not valid JSON")
            return
        if not isinstance(msg, dict):
            await self.error("bad_message", "a message must be a JSON object with a 'type'")
            return
        kind = msg.get("type")
        if kind not in CLIENT_TYPES:
            await self.error("unknown_type", f"unknown message type {kind!r}; expected one of "
                             f"{', '.join(CLIENT_TYPES)}", seq=msg.get("seq"))
            return
        if kind == "ping":
            await self.send_json({"type": "pong", "version": self.sent_version})
            return
        if kind in ("hello", "sync"):
            last = msg.get("last_version")
            if last is not None and (isinstance(last, bool) or not isinstance(last, int)):
                await self.error("bad_message", "last_version must be a whole number or null")
                return
            await self._send_sync(last)
            return
        await self._submit(kind, msg)

    async def _submit(self, kind: str, msg: dict[str, Any]) -> None:
        seq = msg.get("seq")
        if self.side is None:
            # Spectators never reach the write path at all.
            await self.send_json({"type": "rejected", "seq": seq if _plain(seq) else None,
                                  "code": "spectator", "reason": "spectators cannot play steps",
                                  "version": self.sent_version})
            return
        result = await database_sync_to_async(services.submit)(
            self.game_id, self.user, kind, step=msg.get("step"), version=msg.get("version"),
            seq=seq)
        await self.send_json(result.reply())
        update = result.update()
        if update is not None:
            # Deliver to this client at once (the ack's version must be visible to it), then
            # to everyone; this consumer will drop its own copy as already sent.
            await self._deliver(update)
            await self.channel_layer.group_send(group_name(self.game_id),
                                                {"type": "game.update", "update": update})

    # --- outgoing -----------------------------------------------------------------------------
    async def game_update(self, event: dict[str, Any]) -> None:
        await self._deliver(event["update"])

    async def presence(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "spectators", "count": event["spectators"]})

    async def _deliver(self, update: dict[str, Any]) -> None:
        if update["version"] <= self.sent_version:
            return  # already delivered (our own broadcast, or a late duplicate)
        if update["from_version"] > self.sent_version:
            await self._send_sync(self.sent_version)  # a gap: answer from the database
            return
        if update["from_version"] < self.sent_version:
            update = dict(update)
            update["events"] = [e for e in update["events"] if e["version"] > self.sent_version]
            update["from_version"] = self.sent_version
        self.sent_version = update["version"]
        await self.send_json(update)

    async def _send_sync(self, last_version: int | None) -> None:
        data = await database_sync_to_async(services.sync)(self.game_id, last_version)
        if data is None:
            await self.error("not_found", "there is no such game")
            return
        self.sent_version = data["version"]
        await self.send_json(data)

    async def error(self, code: str, message: str, seq: Any = None) -> None:
        msg = {"type": "error", "code": code, "message": message}
        if _plain(seq):
            msg["seq"] = seq
        await self.send_json(msg)

    async def send_json(self, content: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(content, separators=(",", ":")))


def _plain(value: Any) -> bool:
    return isinstance(value, (str, int)) and not isinstance(value, bool) and len(str(value)) <= 64
