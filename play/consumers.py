"""The game websocket (protocol: docs/protocol.md). Thin: ``play.services`` does the work.

One consumer per open socket on ``/ws/game/<uuid>/``. Players may send steps; spectators and
anonymous users only listen. Every outgoing ``update`` carries the version range it covers;
the consumer remembers the last version it delivered, drops what it already sent and fills any
gap from the database, so a message lost by the channel layer is never a lost step.

Several server processes share one game through the channel layer (Redis). Nothing the layer
does wrong may cost a step or kill a socket: a failed layer call is logged and skipped, the
socket's receive from the layer retries with backoff while Redis is away, and a heartbeat
(``play.conf.heartbeat``), one per process for all its sockets, refreshes their presence rows,
sends any step the database has held for a while and a socket has not been given, and, with
the core Redis layer, re-joins each socket to its group (a restarted Redis forgot every
membership; the pub/sub layer subscribes again by itself).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any
from urllib.parse import parse_qs

import orjson
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from play import conf, services, steplog
from talu_site.pubsub_layer import EXCEPT

log = logging.getLogger(__name__)

CLIENT_TYPES = ("hello", "sync", "step", "end", "pass", "resign", "ping")
LAYER_TIMEOUT = 5.0  # seconds a channel-layer call may take before it is given up
CATCH_UP_GRACE = 2.0  # seconds a step may be in transit before the heartbeat sends it itself
GAP_WAIT = 1.0  # seconds an update past a gap waits for the ones before it, then: a sync
TRY_AGAIN_LATER = 4013  # close code: full or degraded, reconnect later (daphne allows
#                        1000 and 3000-4999 only; 4013 echoes the standard 1013)

_open_sockets = 0  # game sockets this process holds (for TALU_WS_MAX_CONNECTIONS)
_beating: dict[str, GameConsumer] = {}  # channel name -> socket, for the process's heartbeat
_beat_task: asyncio.Task | None = None


def group_name(game_id) -> str:
    return f"game.{game_id}"


@cache
def _db_pool() -> ThreadPoolExecutor:
    """The bounded pool for steps and syncs (``TALU_WS_DB_THREADS``).

    Channels' default runs every database call of a process on one thread, one after the
    other, so one process applied one step at a time whatever the number of games (measured:
    BENCHMARKS.md). Steps of one game still cannot interleave: a socket handles its messages
    one at a time, and the writers of a game queue on its row lock.
    """
    return ThreadPoolExecutor(max_workers=conf.db_threads(), thread_name_prefix="talu-db")


def in_db_pool(func: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    return database_sync_to_async(func, thread_sensitive=False, executor=_db_pool())


@cache
def _rejoin_on_heartbeat() -> bool:
    """Whether a socket must re-join its group on every heartbeat: with the core Redis layer,
    whose memberships expire and vanish with a restarted Redis. The pub/sub layer keeps them
    in the process and redis-py subscribes again on reconnecting, and 400 re-joins at once
    queue on the lock its publishes share (a latency spike per heartbeat, BENCHMARKS.md)."""
    backend = settings.CHANNEL_LAYERS.get("default", {}).get("BACKEND", "")
    return backend.endswith(".RedisChannelLayer")


def _ensure_heartbeat() -> None:
    """Start the process's heartbeat on this event loop (tests run several loops in turn)."""
    global _beat_task
    loop = asyncio.get_running_loop()
    if _beat_task is None or _beat_task.done() or _beat_task.get_loop() is not loop:
        _beat_task = loop.create_task(_heartbeat())


async def _heartbeat() -> None:
    """Every ``conf.heartbeat()`` seconds, for every socket of this process on this loop: one
    batch of presence queries (``services.touch``), then each socket's own beat."""
    loop = asyncio.get_running_loop()
    while True:
        await asyncio.sleep(conf.heartbeat() * random.uniform(0.9, 1.1))
        sockets = [c for c in list(_beating.values()) if c.loop is loop]
        if not sockets:
            continue
        try:
            found = await in_db_pool(services.touch)(
                conf.SERVER_ID, [(c.channel_name, c.game_id, c.role) for c in sockets])
        except Exception:  # the database may be away: beat again later
            log.warning("websocket heartbeat failed", exc_info=True)
            continue
        for c in sockets:
            c.spawn(c.beat(found.get(c.game_id)))


class GameConsumer(AsyncWebsocketConsumer):
    game_id: str
    side: str | None = None
    sent_version: int = -1  # the last version this client has been given
    counted: bool = False  # holds one of this process's socket slots
    joined: bool = False
    game_pk: int = 0

    @property
    def role(self) -> str:
        return "player" if self.side else "spectator"

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
        global _open_sockets
        self.game_id = str(self.scope["url_route"]["kwargs"]["game_id"])
        self.user = self.scope.get("user")
        self.lock = asyncio.Lock()  # one delivery at a time: the heartbeat runs beside us
        self.count_sent: int | None = None
        self.loop = asyncio.get_running_loop()
        self.beats: set[asyncio.Task] = set()  # heartbeat and gap-filling tasks of this socket
        self.waiting: dict[int, dict[str, Any]] = {}  # updates past a gap, by from_version
        self.gap_timer: asyncio.TimerHandle | None = None
        cap = conf.max_connections()
        if cap and _open_sockets >= cap:
            await self.accept()
            await self.send_json({"type": "error", "code": "busy",
                                  "message": "this server is full; reconnect in a moment"})
            await self.close(code=TRY_AGAIN_LATER)
            return
        _open_sockets += 1
        self.counted = True
        # The group first: a step stored after ``open_socket`` reads the game then still
        # reaches this socket; it waits in the socket's queue until connect is done, and is
        # sent after the first update or dropped as already covered by it.
        group = group_name(self.game_id)
        await self._layer(self.channel_layer.group_add, group, self.channel_name)
        try:
            opened = await database_sync_to_async(services.open_socket)(
                self.game_id, self.channel_name, self.user, conf.SERVER_ID,
                _query_last_version(self.scope))
        except Exception:
            log.exception("websocket join failed")
            await self._layer(self.channel_layer.group_discard, group, self.channel_name)
            await self.accept()
            await self.send_json({"type": "error", "code": "busy",
                                  "message": "the server cannot reach its database; "
                                             "reconnect in a moment"})
            await self.close(code=TRY_AGAIN_LATER)
            return
        if opened is None:
            await self._layer(self.channel_layer.group_discard, group, self.channel_name)
            await self.accept()
            await self.send_json({"type": "error", "code": "not_found",
                                  "message": "there is no such game"})
            await self.close(code=4404)
            return
        self.side = opened.side
        self.game_pk = opened.game_pk
        self.joined = True
        # Clients that read an ack inside the update of their step ask for it (docs/protocol.md):
        # a page loaded before this release, or any other client, gets the ack on its own.
        self.inline_ack = _query(self.scope, "ack") == "inline"
        await self.accept()
        await self.send_json({"type": "welcome", "role": self.role, "side": self.side,
                              "spectators": opened.spectators,
                              "max_message": settings.TALU_WS_MAX_MESSAGE})
        self.count_sent = opened.spectators
        async with self.lock:
            await self._send_synced(opened.update)
        if self.side is None:  # a player's arrival changes no spectator count
            await self._announce(opened.spectators)
        _beating[self.channel_name] = self
        _ensure_heartbeat()

    async def disconnect(self, code: int) -> None:
        global _open_sockets
        if self.counted:
            self.counted = False
            _open_sockets -= 1
        _beating.pop(self.channel_name, None)
        if getattr(self, "gap_timer", None) is not None:
            self.gap_timer.cancel()
        for task in getattr(self, "beats", ()):
            task.cancel()
        if not self.joined:
            return
        await self._layer(self.channel_layer.group_discard, group_name(self.game_id),
                          self.channel_name)
        try:
            count = await database_sync_to_async(services.leave)(
                self.channel_name, self.game_pk, self.side is None)
        except Exception:
            log.exception("websocket leave failed")  # the row goes stale and is ignored
            return
        if count is not None:
            await self._announce(count)

    async def _announce(self, count: int) -> None:
        """Tell everyone on the game the new spectator count (small audiences only: a big
        one hears it from the heartbeat instead of n messages per arrival)."""
        if count <= conf.presence_fanout():
            await self._layer(self.channel_layer.group_send, group_name(self.game_id),
                              {"type": "presence", "spectators": count})

    async def _layer(self, call: Callable[..., Awaitable[Any]], *args: Any) -> bool:
        """One channel-layer call that may fail (Redis restarting) without failing us."""
        try:
            async with asyncio.timeout(LAYER_TIMEOUT):  # no extra task, unlike wait_for
                await call(*args)
            return True
        except Exception as err:
            log.warning("channel layer %s failed: %s", getattr(call, "__name__", call), err)
            return False

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
                await self._layer(self.channel_layer.group_add, group_name(self.game_id),
                                  self.channel_name)
            if found is None:
                return
            version, count = found
            if count != self.count_sent:
                self.count_sent = count
                await self.send_json({"type": "spectators", "count": count})
            if version > self.sent_version:
                await asyncio.sleep(min(CATCH_UP_GRACE, conf.heartbeat() / 2))
                await self._catch_up(version)
        except asyncio.CancelledError:
            raise
        except Exception:  # the database may be away too: beat again later
            log.warning("websocket heartbeat failed", exc_info=True)

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
            msg = orjson.loads(text_data)
        except ValueError:  # orjson's JSONDecodeError is one (NaN and lone surrogates too)
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
        held = services.take_held(self.game_id, self.side, kind, msg.get("step"),
                                  msg.get("version"), seq)
        result = await self._store_held(held) if held is not None and not held.final else None
        if result is None:
            result = await in_db_pool(services.submit)(
                self.game_id, self.user, kind, step=msg.get("step"), version=msg.get("version"),
                seq=seq, held=held if held is not None and held.final else None)
        update = result.update()
        if update is None or not self.inline_ack:
            # Refused, or a resent step already applied; or a client that wants its ack alone.
            await self.send_json(result.reply())
        if update is None:
            if result.code == "duplicate" and result.version > self.sent_version:
                await self._announce_stored()
            return
        # With its ack inside, for a client that asked: one frame, not two.
        await self._broadcast(update, ack={"seq": result.seq, "version": result.version}
                              if self.inline_ack else None)

    async def _broadcast(self, update: dict[str, Any], ack: dict[str, Any] | None = None) -> None:
        """``update`` to this client at once (``ack`` inside when given), then to everyone
        else on the game: the pub/sub layer leaves this socket out (``EXCEPT``); a layer that
        does not brings its copy back and this consumer drops it as already sent.

        Encoded once for every socket of the game: the layer carries the text and the version
        range, and a receiver decodes it only to trim what it already has; the events ride
        beside it for the other processes' engines (``game_update``)."""
        event = {"type": "game.update", "from_version": update["from_version"],
                 "version": update["version"], "text": _encode(update),
                 "events": update["events"], EXCEPT: self.channel_name}
        await self._deliver(event, ack=ack)
        await self._layer(self.channel_layer.group_send, group_name(self.game_id), event)

    async def _announce_stored(self) -> None:
        """Send everyone what the database holds beyond what this socket was given.

        For a resent step found already stored that this socket has not seen: its update may
        never have gone out (the connection to the database was lost after a one-statement
        write had committed, so the step was answered as a resend), and without this nobody
        would see it before the next heartbeat's catch-up. Sockets that have it drop it."""
        data = await in_db_pool(services.sync)(self.game_id, self.sent_version)
        if data is not None and data["events"]:
            await self._broadcast(data)

    async def _store_held(self, held: services.Held) -> services.Result | None:
        """The usual step without a pool thread: played on this process's engine of the game
        (``services.take_held``: the rules core, no database), stored by one statement from
        this event loop. None when it takes the locked path instead."""
        try:
            if not await steplog.append_async(held.game.pk, held.from_version, held.events,
                                              held.stgn):
                return None  # another process moved the game: the locked path catches up
        except Exception as err:  # a resent seq, a lost connection: the locked path answers
            log.info("step not stored in one statement (%s); taking the locked path", err)
            return None
        return services.stored(held)

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
        if services.held_version(self.game_id) == event["from_version"]:
            # A step applied by another process: this process's engine plays it too (once per
            # process, by whichever socket gets there first). An update without its events
            # beside the text (from a process of an earlier release) is decoded for them.
            events = event.get("events")
            if events is None:
                events = json.loads(event["text"])["events"]
            services.advance_held(self.game_id, event["from_version"], events)
        await self._deliver(event)

    async def presence(self, event: dict[str, Any]) -> None:
        self.count_sent = event["spectators"]
        await self.send_json({"type": "spectators", "count": event["spectators"]})

    async def _deliver(self, event: dict[str, Any], ack: dict[str, Any] | None = None) -> None:
        async with self.lock:
            await self._deliver_locked(event, ack)

    async def _deliver_locked(self, event: dict[str, Any],
                              ack: dict[str, Any] | None = None) -> None:
        """Send an update (``from_version``, ``version``, encoded ``text``) exactly once, in
        order: one that starts past what the client has waits (``GAP_WAIT``) for the updates
        before it, which are usually already queued for this socket (a player whose opponent's
        update is still in its queue when its own step is applied); only a gap that stays
        open is filled from the database.

        ``ack`` (the sender's own step, for a client that asked for it inline) rides inside the
        update when the update goes now; when it cannot (the update must wait for one before
        it, or a sync already gave the client this version), the ack goes alone, so it is never
        held back with a waiting update."""
        if ack is not None and not event["from_version"] <= self.sent_version < event["version"]:
            await self.send_json({"type": "ack", **ack})
            ack = None
        if event["version"] <= self.sent_version:
            return  # already delivered (our own broadcast, or a late duplicate)
        if event["from_version"] > self.sent_version:
            self.waiting[event["from_version"]] = event
            if self.gap_timer is None:
                self.gap_timer = asyncio.get_running_loop().call_later(
                    GAP_WAIT, lambda: self.spawn(self._close_gap()))
            return
        await self._send_update(event, ack)
        await self._drain_waiting()

    async def _drain_waiting(self) -> None:
        """Send the waiting updates that now follow on; drop those already covered."""
        while self.waiting:
            nxt = min(self.waiting)
            if nxt > self.sent_version:
                return  # still a gap before the rest
            later = self.waiting.pop(nxt)
            if later["version"] > self.sent_version:
                await self._send_update(later)
        if self.gap_timer is not None:
            self.gap_timer.cancel()
            self.gap_timer = None

    async def _send_update(self, event: dict[str, Any], ack: dict[str, Any] | None = None) -> None:
        text = event["text"]
        if event["from_version"] < self.sent_version:
            update = json.loads(text)
            update["events"] = [e for e in update["events"] if e["version"] > self.sent_version]
            update["from_version"] = self.sent_version
            text = _encode(update)
        if ack is not None:
            text = _with_member(text, "ack", ack)
        self.sent_version = event["version"]
        await self._send_text(text)

    async def _close_gap(self) -> None:
        """``GAP_WAIT`` has passed with updates still waiting: fill the gap from the database."""
        async with self.lock:
            self.gap_timer = None
            if self.waiting:
                await self._sync_locked(self.sent_version)

    async def _send_sync(self, last_version: int | None) -> None:
        async with self.lock:
            await self._sync_locked(last_version)

    async def _catch_up(self, version: int) -> None:
        """Send what the database has beyond what this client was given (none lost)."""
        async with self.lock:
            if version > self.sent_version:
                await self._sync_locked(self.sent_version)

    async def _sync_locked(self, last_version: int | None) -> None:
        data = await in_db_pool(services.sync)(self.game_id, last_version)
        if data is None:
            await self.error("not_found", "there is no such game")
            return
        await self._send_synced(data)

    async def _send_synced(self, data: dict[str, Any]) -> None:
        """Send an update read from the database (with ``lock`` held), then what waited."""
        self.sent_version = data["version"]
        await self.send_json(data)
        await self._drain_waiting()

    async def error(self, code: str, message: str, seq: Any = None) -> None:
        msg = {"type": "error", "code": code, "message": message}
        if _plain(seq):
            msg["seq"] = seq
        await self.send_json(msg)

    async def send_json(self, content: dict[str, Any]) -> None:
        await self._send_text(_encode(content))

    async def _send_text(self, text: str) -> None:
        try:
            # What ``send(text_data=...)`` does, without its two wrapping coroutines: this is
            # every frame of every socket of every game.
            await self.base_send({"type": "websocket.send", "text": text})
        except Exception as err:
            # The client closed while we were sending (a crowd leaving at once, a broadcast
            # racing a disconnect): nothing to tell it any more, and its disconnect event
            # follows and cleans up. Not a server error.
            log.debug("send on a closed websocket dropped: %s", err)


class NoSuchSocket(AsyncWebsocketConsumer):
    """A websocket on a path the site does not serve: told so, and closed like an unknown game
    (docs/protocol.md, close code 4404)."""

    async def connect(self) -> None:
        await self.accept()
        await self.send(text_data=_encode({"type": "error", "code": "not_found",
                                           "message": "there is no websocket at this path"}))
        await self.close(code=4404)


def _encode(content: dict[str, Any]) -> str:
    """Compact JSON, by orjson: what ``json.dumps`` writes without spaces (non-ASCII as UTF-8
    rather than escaped), ten times faster on an update (the state and the notation;
    BENCHMARKS.md). An integer orjson cannot hold (past 64 bits) falls back to the standard
    library."""
    try:
        return orjson.dumps(content).decode()
    except TypeError:  # orjson.JSONEncodeError is one
        return json.dumps(content, separators=(",", ":"))


def _with_member(text: str, key: str, value: Any) -> str:
    """``text``, an encoded JSON object, with one more member: the sender's copy of an update
    gets its ack without decoding and encoding the whole update again."""
    return f"{text[:-1]},{_encode(key)}:{_encode(value)}}}"


def _query(scope: dict[str, Any], name: str) -> str | None:
    """The last ``name=`` of the socket URL's query string, if any."""
    raw = parse_qs(scope.get("query_string", b"").decode("latin-1")).get(name)
    return raw[-1] if raw else None


def _query_last_version(scope: dict[str, Any]) -> int | None:
    """``?last_version=N`` of a reconnecting client: its first update then holds what it
    missed (no race with steps broadcast between the handshake and a ``hello``)."""
    raw = _query(scope, "last_version")
    if raw is None:
        return None
    try:
        value = int(raw)
    except ValueError:
        return None
    return value if value >= 0 else None


def _plain(value: Any) -> bool:
    return isinstance(value, (str, int)) and not isinstance(value, bool) and len(str(value)) <= 64
