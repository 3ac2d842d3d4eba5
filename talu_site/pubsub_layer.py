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

Everything else (receiving, groups, serialisation, reconnection) is channels-redis's own.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, decode_hosts

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
    """``RedisPubSubChannelLayer`` with pipelined publishes; configured the same way."""

    def _get_layer(self) -> RedisPubSubLoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = PipelinedLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
        return layer
