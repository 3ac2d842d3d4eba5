"""The lobby's websocket (``/ws/lobby/``): the lobby page learns at once, from any server
process (the channel layer: Redis in production), that what it shows has changed, instead of
polling. Messages (server to client, JSON):

* ``{"type": "changed"}``: challenges, live games or pool counts changed (or, for a player
  waiting in a pool, a wave passed: their range and the players in it): fetch the lobby's state
  (``lobby/state.json``; per viewer, since open challenges and PSF marks depend on who looks).
* ``{"type": "paired", "game": uuid, "url": ...}``: a pool paired this account (R47): open
  the game.
* ``{"type": "started", "game": uuid, "url": ..., "event": name, "round": n}``: an event's
  round has started this account's game (R41; by its arbiter, or by the worker at the round's
  scheduled time): open the game.
* ``{"type": "notification", "unread": n, "text": ..., "url": ...}``: a notice reached this
  account on the site (issue 39, ``registry.notices``): its unread count and its newest unread
  notice, for the bell (``static/notices/bell.js``).

Sent by :func:`notify` (everyone in the lobby), :func:`notify_users` (a few accounts),
:func:`announce_started`, :func:`announce_notification` and ``delivery.announce_pairing``.
The client sends nothing; a lost message costs at most the page's slow safety refresh.
``changed`` for everyone is coalesced (``play.live.coalesce``, issue 41): at most one a second
from each process, the last change within about a second, however fast joins, leaves and
challenges come.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.urls import reverse

from play.live import admission, wire
from play.live.coalesce import Coalescer
from play.live.delivery import layer_call, user_group

log = logging.getLogger(__name__)

LOBBY_GROUP = "talu.lobby"
#: Seconds between two of this process's ``changed`` to every lobby page, at least (issue 41,
#: finding 7: each one costs a fetch of every open lobby page).
COALESCE = 1.0


async def _send_changed() -> None:
    layer = get_channel_layer()
    if layer is not None:
        await layer_call(layer.group_send, LOBBY_GROUP, {"type": "lobby.changed"})


#: This process's broadcasts of ``changed`` to every lobby page, coalesced.
changes = Coalescer(_send_changed, COALESCE)


async def notify() -> None:
    """Tell every lobby socket, on every process, that the lobby changed: at once, or (when
    this process told them less than :data:`COALESCE` ago) once at the end of that second,
    with whatever else changed meanwhile."""
    await changes()


async def notify_users(user_ids: Iterable[Any]) -> None:
    """Tell these accounts' lobby sockets that their own view changed (a wave passed)."""
    layer = get_channel_layer()
    if layer is None:
        return
    for pk in user_ids:
        await layer_call(layer.group_send, user_group(pk), {"type": "lobby.changed"})


async def announce_started(games: Iterable[tuple[Any, Any, Any]], event: str,
                           round_number: int) -> None:
    """Tell both players of each ``(game uuid, user id I, user id O)`` that an event's round
    started their game (R41), on every process; the event banner on their next page and the
    mailed notice are the fallbacks of a lost message."""
    layer = get_channel_layer()
    if layer is None:
        return
    for game, *users in games:
        for pk in users:
            await layer_call(layer.group_send, user_group(pk), {
                "type": "lobby.started", "game": str(game), "event": event,
                "round": round_number})


async def announce_notification(user_id: Any, unread: int, text: str, url: str) -> None:
    """Tell one account's lobby sockets, on every process, its unread count and newest notice
    (issue 39); the bell's slow poll is the fallback of a lost message."""
    layer = get_channel_layer()
    if layer is None:
        return
    await layer_call(layer.group_send, user_group(user_id), {
        "type": "lobby.notification", "unread": unread, "text": text, "url": url})


def _account_of(user) -> int | None:
    """The logged-in account's id (the scope's user is lazy: reading it reads the session)."""
    return user.pk if user is not None and user.is_authenticated else None


class LobbyConsumer(AsyncWebsocketConsumer):
    """One lobby page's socket: in the lobby's group, and in its account's when logged in."""

    groups_joined: list[str]

    async def connect(self) -> None:
        self.groups_joined = []
        refusal = await admission.rate_limited(self.scope)
        if refusal is not None:
            await self.accept()
            await self.send(text_data=wire.encode({
                "type": "error", "code": "rate_limited",
                "message": refusal.message("connections from your address"),
                "retry_after": refusal.retry_after}))
            await self.close(code=admission.RATE_LIMITED)
            return
        user_id = await database_sync_to_async(_account_of)(self.scope.get("user"))
        self.groups_joined = [LOBBY_GROUP]
        if user_id is not None:
            self.groups_joined.append(user_group(user_id))
        for group in self.groups_joined:
            await layer_call(self.channel_layer.group_add, group, self.channel_name)
        await self.accept()
        await self.send(text_data=wire.encode({"type": "welcome"}))

    async def send(self, text_data: str | None = None, bytes_data: bytes | None = None,
                   close: bool = False) -> None:
        """Every text frame this socket sends: one that races the page closing is dropped,
        not raised (``wire.send_text``)."""
        if text_data is None or bytes_data is not None or close:
            await super().send(text_data, bytes_data, close)
        else:
            await wire.send_text(self.base_send, text_data)

    async def disconnect(self, code: int) -> None:
        for group in self.groups_joined:
            await layer_call(self.channel_layer.group_discard, group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        """The client has nothing to say; anything it sends is answered, not acted on."""
        await self.send(text_data=wire.encode({
            "type": "error", "code": "bad_message",
            "message": "the lobby socket only speaks: send nothing"}))

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        await self.send(text_data=wire.encode({"type": "changed"}))

    async def lobby_paired(self, event: dict[str, Any]) -> None:
        await self.send(text_data=wire.encode({
            "type": "paired", "game": event["game"],
            "url": reverse("game", args=[event["game"]])}))

    async def lobby_started(self, event: dict[str, Any]) -> None:
        await self.send(text_data=wire.encode({
            "type": "started", "game": event["game"],
            "url": reverse("game", args=[event["game"]]), "event": event["event"],
            "round": event["round"]}))

    async def lobby_notification(self, event: dict[str, Any]) -> None:
        await self.send(text_data=wire.encode({
            "type": "notification", "unread": event["unread"], "text": event["text"],
            "url": event["url"]}))
