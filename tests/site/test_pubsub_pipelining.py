"""The pub/sub layer's pipelined publishes (``talu_site.pubsub_layer``) on a real Redis: every
message of a burst arrives once and in the order it was sent, a burst costs fewer round trips
than messages, a Redis that is away fails the publishes it was given, not later ones, and no
caller is left waiting when another caller or the sender itself is cancelled.

Two layer objects stand for two server processes (each has its own connections and its own
subscriptions). Needs Redis (``tests/stack.py``: fails under CI when it is unreachable).
"""

from __future__ import annotations

import asyncio
import uuid

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from talu_site import pubsub_layer
from talu_site.pubsub_layer import PipelinedPubSubChannelLayer, PipelinedShardConnection
from tests import stack

# One after another with the other tests of the system Redis, on one xdist worker.
pytestmark = [pytest.mark.services, pytest.mark.asyncio, pytest.mark.xdist_group("system-redis")]


@pytest.fixture
def redis_url():
    problem = stack.unreachable(stack.REDIS_URL, 6379)
    stack.require("Redis", [problem] if problem else [])
    return stack.REDIS_URL


def layer(url: str, prefix: str, shards: int = 1) -> PipelinedPubSubChannelLayer:
    return PipelinedPubSubChannelLayer(hosts=[{"address": url}] * shards, prefix=prefix)


async def receive_all(sender_layer, receiver_layer, group: str, n: int) -> list[int]:
    """Send ``n`` numbered messages to ``group`` at once from ``sender_layer``; what a member
    of the group on ``receiver_layer`` receives, in arrival order."""
    channel = await receiver_layer.new_channel()
    await receiver_layer.group_add(group, channel)
    await asyncio.sleep(0.1)  # the subscription reaches Redis before the first publish
    await asyncio.gather(*(sender_layer.group_send(group, {"type": "m", "n": i})
                           for i in range(n)))
    got = []
    async with asyncio.timeout(10):
        while len(got) < n:
            got.append((await receiver_layer.receive(channel))["n"])
    await asyncio.sleep(0.1)
    assert receiver_layer._get_layer().channels[channel].empty()  # nothing arrived twice
    return got


async def test_a_burst_arrives_whole_and_in_order_in_another_process(redis_url):
    prefix = f"talu-test-pipe-{uuid.uuid4().hex[:8]}"
    sender, receiver = layer(redis_url, prefix, shards=3), layer(redis_url, prefix, shards=3)
    try:
        assert await receive_all(sender, receiver, "game.a", 500) == list(range(500))
    finally:
        await sender.flush()
        await receiver.flush()


async def test_a_burst_shares_round_trips(redis_url, monkeypatch):
    """The reason for the layer: 200 publishes at once are not 200 round trips one after
    the other (with channels-redis's lock they were, each waiting for the event loop too)."""
    batches: list[int] = []
    send = PipelinedShardConnection._send

    async def counting(self, batch):
        batches.append(len(batch))
        await send(self, batch)

    monkeypatch.setattr(PipelinedShardConnection, "_send", counting)
    prefix = f"talu-test-pipe-{uuid.uuid4().hex[:8]}"
    one = layer(redis_url, prefix)
    try:
        assert await receive_all(one, one, "game.b", 200) == list(range(200))
    finally:
        await one.flush()
    assert sum(batches) == 200
    assert len(batches) <= 200 // pubsub_layer.BATCH_MAX + 3  # the first alone, then the rest
    assert max(batches) > 1


async def test_an_unreachable_redis_fails_the_publish_and_the_next_one_tries_again(redis_url):
    """Publishes to a Redis that is away raise (the consumer logs and skips them, the
    database repairs the loss); the shard is not left stuck, so once Redis is back a publish
    goes through."""
    prefix = f"talu-test-pipe-{uuid.uuid4().hex[:8]}"
    away = layer("redis://127.0.0.1:1/0", prefix)  # nothing listens on port 1
    results = await asyncio.gather(*(away.group_send("game.c", {"type": "m", "n": i})
                                     for i in range(5)), return_exceptions=True)
    assert all(isinstance(r, RedisConnectionError) for r in results), results
    shard = away._get_layer()._shards[0]
    assert shard._sender is None and not shard._outbox
    # Redis "comes back": the same shard, pointed at a live server, publishes again.
    shard.host = {"address": redis_url}
    shard._redis = None
    listener = layer(redis_url, prefix)
    try:
        assert await receive_all(away, listener, "game.c", 3) == [0, 1, 2]
    finally:
        await away.flush()
        await listener.flush()


async def test_a_caller_that_gives_up_does_not_stop_the_others(redis_url):
    """A publish whose caller is cancelled (the consumer's five-second limit) is still sent
    with its batch; the callers after it are answered as usual."""
    prefix = f"talu-test-pipe-{uuid.uuid4().hex[:8]}"
    one = layer(redis_url, prefix)
    channel = await one.new_channel()
    await one.group_add("game.d", channel)
    await asyncio.sleep(0.1)
    try:
        first = asyncio.ensure_future(one.group_send("game.d", {"type": "m", "n": 0}))
        rest = [asyncio.ensure_future(one.group_send("game.d", {"type": "m", "n": i}))
                for i in (1, 2)]
        await asyncio.sleep(0)  # all three queued
        first.cancel()
        await asyncio.gather(*rest)
        async with asyncio.timeout(5):
            got = [(await one.receive(channel))["n"] for _ in range(3)]
        assert got == [0, 1, 2]
    finally:
        await one.flush()


async def test_publishes_waiting_when_the_sender_is_cancelled_are_cancelled_too(redis_url):
    """The outbox's sender cancelled (its event loop closing): the publishes it held end at
    once instead of leaving their callers waiting for an answer that will not come."""
    prefix = f"talu-test-pipe-{uuid.uuid4().hex[:8]}"
    one = layer(redis_url, prefix)
    try:
        sends = [asyncio.ensure_future(one.group_send("game.e", {"type": "m", "n": i}))
                 for i in range(3)]
        await asyncio.sleep(0)  # queued, the sender started
        shard = one._get_layer()._shards[0]
        shard._sender.cancel()
        async with asyncio.timeout(2):
            results = await asyncio.gather(*sends, return_exceptions=True)
        assert all(isinstance(r, asyncio.CancelledError) for r in results), results
        assert shard._sender is None and not shard._outbox
        await one.group_send("game.e", {"type": "m", "n": 3})  # the shard still publishes
    finally:
        await one.flush()
