"""channels-redis's pub/sub layer with its publishes pipelined: no lock held across a publish.

``RedisSingleShardConnection.publish`` holds the shard's lock while it waits for Redis's
answer, so a process publishes one message per shard at a time and every later ``group_send``
queues behind it. Each wait is a round trip to Redis *and* a turn of the event loop, which on a
loaded server is the long part: past its saturation a step's ``group_send`` took 57-187 ms on
average (measured per process, BENCHMARKS.md, issue 7), and the socket that sent the step
handled nothing else meanwhile.

Here each shard keeps an outbox. A publish that finds no batch in flight goes at once (no
timer: nothing is added when the server is idle); those that arrive while one is in flight go
together, as one pipeline (one write, one read of the answers), as soon as it returns. So a
publish waits for at most the batch ahead of it, whatever the load. Batches leave one at a
time, in arrival order: what a process publishes to one group (one shard) reaches Redis in the
order it was published, as under the lock. The lock still guards what it was for: subscribing
and unsubscribing on the shard's one subscribed connection.

A group message is decoded once per process, not once per socket: channels-redis put the
bytes in every member's queue and each socket decoded them again (an update is a few
kilobytes and reaches every socket of a game). Each member still gets a dict of its own. And a
group message may name one member that does not need it (``EXCEPT``, popped before delivery):
a game's sender has already been given its own update, so its copy was delivered only to be
dropped, one of the four deliveries of every step (BENCHMARKS.md, issue 7). Other layers (the
in-memory one of the embedded defaults, channels-redis's) deliver it to that member too, with
the key in it; the consumer drops its own update by version either way.

Everything else (receiving, groups, serialisation, reconnection) is channels-redis's own.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, decode_hosts

log = logging.getLogger(__name__)

# The key of a group message naming the one member it is not delivered to (module docstring).
EXCEPT = "__except__"

# Publishes per pipeline at most: a burst still goes in a few writes, and no single write holds
# megabytes of updates (an update is a few kilobytes).
BATCH_MAX = 256


@dataclass(eq=False, slots=True)
class _Publish:
    channel: str
    message: bytes
    done: asyncio.Future[None] = field(repr=False)

    def settle(self, err: BaseException | None) -> None:
        if self.done.done():  # its caller gave up (a timeout): nobody to tell
            return
        if err is None:
            self.done.set_result(None)
        else:
            self.done.set_exception(err)


class PipelinedShardConnection(RedisSingleShardConnection):
    """One shard whose publishes go out in pipelined batches (module docstring)."""

    def __init__(self, host, channel_layer) -> None:
        super().__init__(host, channel_layer)
        self._outbox: list[_Publish] = []
        self._in_flight: list[_Publish] = []
        self._sender: asyncio.Task[None] | None = None

    async def publish(self, channel, message) -> None:
        loop = asyncio.get_running_loop()
        item = _Publish(channel, message, loop.create_future())
        self._outbox.append(item)
        if self._sender is None:
            self._sender = loop.create_task(self._send_outbox(), name="redis publisher")
            self._sender.add_done_callback(self._sender_done)
        await item.done

    async def _send_outbox(self) -> None:
        """Send the outbox batch by batch until it is empty; each caller hears how its own
        publish went (a failed batch fails its publishes only: the next batch tries again)."""
        while self._outbox:
            batch = self._in_flight = self._outbox[:BATCH_MAX]
            del self._outbox[:BATCH_MAX]
            err: BaseException | None = None
            try:
                await self._send(batch)
            except Exception as exc:  # Redis away: the callers log it and go on
                err = exc
            for item in batch:
                item.settle(err)
        self._in_flight = []
        self._sender = None  # before returning: a publish from now on starts a new sender

    def _sender_done(self, task: asyncio.Task[None]) -> None:
        """A sender cancelled (its event loop closing), perhaps before it first ran, cancels
        every publish not yet answered, so that no caller waits for an answer that will not
        come. One that ended by emptying the outbox has let go of it already."""
        if self._sender is not task:
            return
        self._sender = None
        for item in [*self._in_flight, *self._outbox]:
            item.done.cancel()  # a no-op for those already answered
        self._in_flight = []
        self._outbox.clear()

    async def _send(self, batch: list[_Publish]) -> None:
        self._ensure_redis()
        if len(batch) == 1:  # the idle case: a plain PUBLISH, no pipeline to build
            await self._redis.publish(batch[0].channel, batch[0].message)
            return
        async with self._redis.pipeline(transaction=False) as pipe:
            for item in batch:
                pipe.publish(item.channel, item.message)
            await pipe.execute()

    def _receive_message(self, message) -> None:
        """channels-redis's delivery, but a group message decoded once for all its members
        here, and not delivered to the member it names as ``EXCEPT``."""
        if message is None:
            return
        name, data = message["channel"], message["data"]
        if isinstance(name, bytes):
            name = name.decode()
        layer = self.channel_layer
        if name in layer.channels:  # a message to one channel: decoded by its receiver
            layer.channels[name].put_nowait(data)
            return
        members = layer.groups.get(name)
        if not members:
            return
        try:
            decoded = layer.channel_layer.deserialize(data)
        except Exception:  # not ours to crash on: this task receives for every socket
            log.exception("a message to %s could not be decoded; dropped", name)
            return
        skip = decoded.pop(EXCEPT, None)
        for channel in members:
            queue = layer.channels.get(channel)
            if queue is not None and channel != skip:
                queue.put_nowait(decoded)

    async def flush(self) -> None:
        """Let what is already in the outbox go before the connections close."""
        if self._sender is not None:
            await asyncio.gather(self._sender, return_exceptions=True)
        await super().flush()


class PipelinedLoopLayer(RedisPubSubLoopLayer):
    """channels-redis's per-event-loop layer with pipelined shards."""

    def __init__(self, hosts=None, *args, **kwargs) -> None:
        super().__init__(hosts, *args, **kwargs)
        self._shards = [PipelinedShardConnection(host, self) for host in decode_hosts(hosts)]


class PipelinedPubSubChannelLayer(RedisPubSubChannelLayer):
    """``RedisPubSubChannelLayer`` with pipelined publishes and group messages decoded once
    per process; configured the same way."""

    def deserialize(self, message: bytes | dict[str, Any]) -> dict[str, Any]:
        """A member's copy of a group message decoded already (``_receive_message``): its own
        dict, as if it had decoded the bytes itself; or the bytes of a message to it alone."""
        if isinstance(message, dict):
            return dict(message)
        return super().deserialize(message)

    def _get_layer(self) -> RedisPubSubLoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = PipelinedLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
        return layer
