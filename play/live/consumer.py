"""The game websocket (protocol: docs/protocol.md). Thin: it parses, says who the sender is, and
hands commands to the one command path (``play.commands.path``).

One consumer per open socket on ``/ws/game/<uuid>/``. Players may send steps; spectators and
anonymous users only listen. Delivery (each update exactly once, in order, gaps filled from the
database) is ``play.live.delivery``; presence rows and the first update are
``play.live.presence``; the process's heartbeat is ``play.live.heartbeat``.

Who may open a socket at all (the handshakes per address, the process's cap) is
``play.live.admission``; how much an open one may ask (its messages, its resyncs) is
``play.live.budget``; a path the site does not serve gets ``play.live.no_route``.

Nothing the channel layer does wrong may cost a step or kill a socket: a failed layer call is
logged and skipped, and the socket's receive from the layer retries with backoff while Redis is
away (the heartbeat catches it up meanwhile).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from functools import cache
from typing import Any

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from play import conf, gameview
from play.chat import socket as chat_socket
from play.commands import arbiter as arbiter_messages
from play.commands import path
from play.commands import player as player_messages
from play.games import ARBITER_COMMANDS, ARBITER_ONLY
from play.live import admission, budget, delivery, heartbeat, presence, wire
from play.live.delivery import OrderedDelivery, group_name, layer_call, notice_group
from play.live.threads import in_db_pool
from play.store import engines

log = logging.getLogger(__name__)

CATCH_UP_GRACE = 2.0  # seconds a step may be in transit before the heartbeat sends it itself


@cache
def _rejoin_on_heartbeat() -> bool:
    """Whether a socket must re-join its group on every heartbeat: with the core Redis layer,
    whose memberships expire and vanish with a restarted Redis. The pub/sub layer keeps them
    in the process and redis-py subscribes again on reconnecting, and 400 re-joins at once
    queue on the lock its publishes share (a latency spike per heartbeat, BENCHMARKS.md)."""
    backend = settings.CHANNEL_LAYERS.get("default", {}).get("BACKEND", "")
    return backend.endswith(".RedisChannelLayer")


class GameConsumer(AsyncWebsocketConsumer):
    game_id: str
    side: str | None = None
    counted: bool = False  # holds one of this process's socket slots
    joined: bool = False
    account: int | None = None  # the viewer's account: its notices' group (issue 39)
    game_pk: int = 0
    timed: bool = False  # a timed game (R36): the player's lag is measured
    lag: int = 0  # ms, half the last probe's round trip
    closing: bool = False  # closed for going on over its budget: nothing more is handled

    @property
    def role(self) -> str:
        return "player" if self.side else "spectator"

    @property
    def sent_version(self) -> int:
        return self.delivery.sent_version

    # Channels assigns ``channel_receive`` (the read from the layer) in ``__call__``; wrapping
    # it here keeps the consumer alive while Redis is down instead of crashing the socket.
    @property
    def channel_receive(self) -> Callable[[], Awaitable[dict]]:
        return self._channel_receive

    @channel_receive.setter
    def channel_receive(self, receive: Callable[[], Awaitable[dict]]) -> None:
        async def resilient() -> dict:
            delay = 0.2
            while True:
                try:
                    return await receive()
                except Exception as err:  # Redis away: wait for it, the heartbeat catches up
                    log.warning("channel layer receive failed (%s); retrying in %.1fs",
                                err, delay)
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 5.0)

        self._channel_receive = resilient

    async def connect(self) -> None:
        self.game_id = str(self.scope["url_route"]["kwargs"]["game_id"])
        self.user = self.scope.get("user")
        self.count_sent: int | None = None
        self.loop = asyncio.get_running_loop()
        self.beats: set[asyncio.Task] = set()  # heartbeat and gap-filling tasks of this socket
        self.delivery = OrderedDelivery(self._send_text, self._resync, self.spawn)
        self.budget = budget.SocketBudget()
        # Handshakes per address (issue 27), before anything costs a database trip.
        refusal = await admission.rate_limited(self.scope)
        if refusal is not None:
            await self._refuse("rate_limited",
                               refusal.message("connections from your address"),
                               admission.RATE_LIMITED, retry_after=refusal.retry_after)
            return
        if not admission.take_slot():
            await self._refuse("busy", "this server is full; reconnect in a moment",
                               admission.TRY_AGAIN_LATER)
            return
        self.counted = True
        # The group first: a step stored after ``open_socket`` reads the game then still
        # reaches this socket; it waits in the socket's queue until connect is done, and is
        # sent after the first update or dropped as already covered by it.
        group = group_name(self.game_id)
        await layer_call(self.channel_layer.group_add, group, self.channel_name)
        try:
            opened = await database_sync_to_async(presence.open_socket)(
                self.game_id, self.channel_name, self.user, conf.SERVER_ID,
                wire.query_last_version(self.scope))
        except Exception:
            log.exception("websocket join failed")
            await layer_call(self.channel_layer.group_discard, group, self.channel_name)
            await self._refuse("busy", "the server cannot reach its database; reconnect in a "
                               "moment", admission.TRY_AGAIN_LATER)
            return
        if opened is None:
            await layer_call(self.channel_layer.group_discard, group, self.channel_name)
            await self._refuse("not_found", "there is no such game", 4404)
            return
        self.side = opened.side
        self.delivery.side = opened.side
        self.game_pk = opened.game_pk
        self.joined = True
        self.account = opened.user_id
        if self.account is not None:  # the viewer's notices (issue 39): the page's bell
            await layer_call(self.channel_layer.group_add, notice_group(self.account),
                             self.channel_name)
        # Clients that read an ack inside the update of their step ask for it (docs/protocol.md):
        # a page loaded before this release, or any other client, gets the ack on its own.
        self.inline_ack = wire.query(self.scope, "ack") == "inline"
        await self.accept()
        await self.send_json({"type": "welcome", "role": self.role, "side": self.side,
                              "spectators": opened.spectators,
                              "max_message": settings.TALU_WS_MAX_MESSAGE})
        self.count_sent = opened.spectators
        async with self.delivery.lock:
            await self.delivery.deliver_synced(opened.update)
        if self.side is None:  # a player's arrival changes no spectator count
            await self._announce_count(opened.spectators)
        else:
            await self._arrived()
            # R36: a timed game's player's network lag, measured by the server (a probe the
            # client echoes), is credited within the clock's bounds
            self.timed = "clock" in (opened.update.get("state") or {})
            await self._probe()
        heartbeat.register(self)

    async def _refuse(self, code: str, message: str, close_code: int, **extra: Any) -> None:
        await self.accept()
        await self.send_json({"type": "error", "code": code, "message": message, **extra})
        await self.close(code=close_code)

    async def disconnect(self, code: int) -> None:
        if self.counted:
            self.counted = False
            admission.free_slot()
        heartbeat.unregister(self)
        if getattr(self, "delivery", None) is not None:
            self.delivery.close()
        for task in getattr(self, "beats", ()):
            task.cancel()
        if not self.joined:
            return
        await layer_call(self.channel_layer.group_discard, group_name(self.game_id),
                         self.channel_name)
        if self.account is not None:
            await layer_call(self.channel_layer.group_discard, notice_group(self.account),
                             self.channel_name)
        try:
            count = await database_sync_to_async(presence.leave)(
                self.channel_name, self.game_pk, self.side is None)
        except Exception:
            log.exception("websocket leave failed")  # the row goes stale and is ignored
            return
        if count is not None:
            await self._announce_count(count)
        if self.side is not None:
            try:
                away = await database_sync_to_async(presence.player_left)(self.game_pk,
                                                                          self.side)
            except Exception:
                log.warning("absence not recorded", exc_info=True)
                return
            if away is not None:  # R37: the opponent sees the countdown
                await self._announce_absence(away)

    async def _probe(self) -> None:
        """Ask a timed game's player to echo the server's clock: half the round trip is the
        lag the clock may credit (R36: at most 1 s a turn, 3 s a game, ``play.games.clock``)."""
        if self.side is not None and self.timed:
            await self.send_json({"type": "probe", "t": int(time.monotonic() * 1000)})

    def _probed(self, sent: Any) -> None:
        """The echo of a probe: the lag is half its round trip (an echo that is not one of
        ours, or older than 10 s, is ignored)."""
        if isinstance(sent, bool) or not isinstance(sent, int):
            return
        rtt = int(time.monotonic() * 1000) - sent
        if 0 <= rtt <= 10_000:
            self.lag = rtt // 2

    async def _arrived(self) -> None:
        """A player's socket is open: an absence of theirs ends (R37), and this socket is told
        of the opponent's, if any."""
        try:
            back, away = await database_sync_to_async(presence.player_arrived)(
                self.game_pk, self.side)
        except Exception:
            log.warning("absence not cleared", exc_info=True)
            return
        if back is not None:
            await self._announce_absence(back)
        if away is not None:
            await self.send_json(away)

    async def _announce_absence(self, message: dict[str, Any]) -> None:
        await layer_call(self.channel_layer.group_send, group_name(self.game_id),
                         {"type": "game.meta", "text": wire.encode(message)})

    async def _announce_count(self, count: int) -> None:
        """Tell everyone on the game the new spectator count (small audiences only: a big
        one hears it from the heartbeat instead of n messages per arrival)."""
        if count <= conf.presence_fanout():
            await layer_call(self.channel_layer.group_send, group_name(self.game_id),
                             {"type": "presence", "spectators": count})

    def spawn(self, coro: Awaitable[Any]) -> None:
        """Run ``coro`` beside the socket (heartbeat, gap filling); cancelled when it closes."""
        task = asyncio.ensure_future(coro)
        self.beats.add(task)
        task.add_done_callback(self.beats.discard)

    async def beat(self, found: tuple[int, int] | None) -> None:
        """This socket's part of the heartbeat, given the game's (version, spectator count).

        A version beyond what this client was given is usually on its way through the layer;
        only when it still has not arrived after ``CATCH_UP_GRACE`` is it sent from the
        database (a sync for every socket that is merely behind would deepen an overload).
        """
        try:
            if _rejoin_on_heartbeat():
                await layer_call(self.channel_layer.group_add, group_name(self.game_id),
                                 self.channel_name)
            await self._probe()
            if found is None:
                return
            version, count = found
            if count != self.count_sent:
                self.count_sent = count
                await self.send_json({"type": "spectators", "count": count})
            if version > self.sent_version:
                await asyncio.sleep(min(CATCH_UP_GRACE, conf.heartbeat() / 2))
                await self.delivery.catch_up(version)
        except asyncio.CancelledError:
            raise
        except Exception:  # the database may be away too: beat again later
            log.warning("websocket heartbeat failed", exc_info=True)

    # --- incoming -----------------------------------------------------------------------------
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            await self._receive(text_data)
        except Exception:  # never a traceback to the client, never a dead consumer
            log.exception("error handling a websocket message")
            await self.send_json({"type": "error", "code": "server_error",
                                  "message": "the server could not handle that message"})

    async def _receive(self, text_data: str | None) -> None:
        if self.closing:
            return
        try:
            msg = wire.parse(text_data, settings.TALU_WS_MAX_MESSAGE)
        except wire.WireError as err:
            if not await self._over_budget(None, None, err.seq):
                await self.error(err.code, str(err), seq=err.seq)
            return
        kind = msg["type"]
        if await self._over_budget(kind, msg.get("last_version"), msg.get("seq")):
            return
        if kind == "probe":
            self._probed(msg.get("t"))
        elif kind == "ping":
            await self.send_json({"type": "pong", "version": self.sent_version})
        elif kind in ("hello", "sync"):
            await self.delivery.sync(msg.get("last_version"))
        elif kind in chat_socket.TYPES:  # chat beside the game (issue 39)
            await chat_socket.handle(self, msg)
        else:
            await self._command(msg)

    async def _over_budget(self, kind: str | None, last_version: Any, seq: Any) -> bool:
        """Whether this message is over the socket's budget (``play.live.budget``): then it
        is not handled and the client is told so in words, and a client that goes on is
        closed (4429), as one over its handshakes is."""
        refused = self.budget.admit(kind, last_version, self.sent_version)
        if refused is None:
            return False
        if self.budget.persisting():
            self.closing = True
            await self.send_json({"type": "error", "code": "rate_limited",
                                  "message": "too many messages on this connection; it is "
                                  "closed: wait before connecting again",
                                  "retry_after": self.budget.close_for()})
            await self.close(code=admission.RATE_LIMITED)
            return True
        seconds = refused.retry_after
        await self.error("slow_down", f"too many {refused.what} on this connection: that one "
                         f"was not handled; wait {seconds} s before sending it again",
                         seq=seq, retry_after=seconds)
        return True

    async def _command(self, msg: dict[str, Any]) -> None:
        seq = msg.get("seq")
        # An arbiter's own actions, and adjourn/resume from a socket that plays no side (from
        # a player they are offers, below).
        if msg["type"] in ARBITER_ONLY or (self.side is None and msg["type"] in ARBITER_COMMANDS):
            await self._arbitrate(msg)
            return
        if self.side is None:
            # Spectators never reach the command path at all.
            await self.send_json({"type": "rejected", "seq": seq if wire.plain(seq) else None,
                                  "code": "spectator", "reason": "spectators cannot play steps",
                                  "version": self.sent_version})
            return
        if msg["type"] == "claim":  # the opponent's absence is read from the database
            sub = await in_db_pool(player_messages.submission)(msg, self.game_id, self.side)
        else:
            sub = player_messages.submission(msg, self.game_id, self.side, self.lag)
        outcome = await path.execute_async(sub, in_thread=in_db_pool)
        update = outcome.update()
        if update is None or not self.inline_ack:
            # Refused, or a resent step already applied; or a client that wants its ack alone.
            await self.send_json(outcome.reply())
        if update is None:
            if outcome.code == "duplicate" and outcome.version > self.sent_version:
                await self._announce_stored()
            return
        # With its ack inside, for a client that asked: one frame, not two.
        await delivery.announce(self.game_id, outcome, sender=self,
                                ack={"seq": outcome.seq, "version": outcome.version}
                                if self.inline_ack else None)

    async def _arbitrate(self, msg: dict[str, Any]) -> None:
        """An arbiter's action (R39): checked, stored and audited on a thread (it reads who
        may arbitrate), answered, then announced like any command's events."""
        outcome = await in_db_pool(arbiter_messages.store_action)(self.game_id, self.user, msg)
        await self.send_json(outcome.reply())
        if outcome.update() is not None:
            await delivery.announce(self.game_id, outcome, sender=self)

    async def _announce_stored(self) -> None:
        """Send everyone what the database holds beyond what this socket was given.

        For a resent step found already stored that this socket has not seen: its update may
        never have gone out (the connection to the database was lost after a fast-road append
        had committed, so the step was answered as a resend), and without this nobody would see
        it before the next heartbeat's catch-up. Sockets that have it drop it."""
        data = await in_db_pool(gameview.sync)(self.game_id, self.sent_version)
        if data is not None and data["events"]:
            update = {k: data[k] for k in ("type", "from_version", "version", "events", "state",
                                           "game")}
            await delivery.announce(self.game_id, _Stored(update), sender=self)

    # --- outgoing -----------------------------------------------------------------------------
    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, without its ``aclose_old_connections`` per message.

        That call is a hop to the process's one sync thread for every message, and every step
        is several messages per socket; this consumer never touches the database on the event
        loop: each of its database calls runs in a pool thread that closes old connections
        itself (``database_sync_to_async``).
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def game_update(self, event: dict[str, Any]) -> None:
        if engines.held_version(self.game_id) == event["from_version"]:
            # Events stored by another process (or source): this process's state folds them
            # too (once per process, by whichever socket gets there first). An update without
            # its events beside the text (from a process of an earlier release) is decoded.
            events = event.get("events")
            if events is None:
                events = json.loads(event["text"])["events"]
            engines.advance(self.game_id, event["from_version"], events)
        await self.delivery.deliver(event)

    async def game_meta(self, event: dict[str, Any]) -> None:
        """The game's metadata after archiving (records, rating changes)."""
        await self._send_text(event["text"])

    async def chat_frame(self, event: dict[str, Any]) -> None:
        """A chat frame of one channel: sent if this socket's viewer reads that channel
        (spectators never the players', ``play.chat.socket.audience``)."""
        if chat_socket.audience(self.side, event["channel"]):
            await self._send_text(event["text"])

    async def notice_frame(self, event: dict[str, Any]) -> None:
        """One of the viewer's notices (issue 39): the unread count and the newest, for the
        page's bell."""
        await self.send_json({"type": "notification", "unread": event["unread"],
                              "text": event["text"], "url": event["url"]})

    async def presence(self, event: dict[str, Any]) -> None:
        self.count_sent = event["spectators"]
        await self.send_json({"type": "spectators", "count": event["spectators"]})

    async def _resync(self, last_version: int | None) -> None:
        """What the database holds after ``last_version``, sent (``delivery.lock`` held)."""
        data = await in_db_pool(gameview.sync)(self.game_id, last_version, self.side)
        if data is None:
            await self.error("not_found", "there is no such game")
            return
        await self.delivery.deliver_synced(data)

    async def error(self, code: str, message: str, seq: Any = None, **extra: Any) -> None:
        msg = {"type": "error", "code": code, "message": message, **extra}
        if wire.plain(seq):
            msg["seq"] = seq
        await self.send_json(msg)

    async def send_json(self, content: dict[str, Any]) -> None:
        await self._send_text(wire.encode(content))

    async def _send_text(self, text: str) -> None:
        await wire.send_text(self.base_send, text)


class _Stored:
    """An update read back from the log, announced like a command's (``_announce_stored``)."""

    finished = False

    def __init__(self, update: dict[str, Any]) -> None:
        self._update = update

    def update(self) -> dict[str, Any]:
        return self._update
