"""Group messages of the pub/sub layer (``talu_site.pubsub_layer``) on a real Redis: decoded
once per process, every member given a dict of its own, and the one member a message names as
``EXCEPT`` (a game's sender, which has its update already) left out, on every process.

Two layer objects stand for two server processes. Needs Redis (``tests/stack.py``: fails under
CI when it is unreachable).
"""

from __future__ import annotations

import asyncio
import logging
import uuid

import pytest
import pytest_asyncio

from talu_site.pubsub_layer import EXCEPT, PipelinedPubSubChannelLayer
from tests import stack

# One after another with the other tests of the system Redis, on one xdist worker.
pytestmark = [pytest.mark.services, pytest.mark.asyncio, pytest.mark.xdist_group("system-redis")]


@pytest_asyncio.fixture
async def layers():
    problem = stack.unreachable(stack.REDIS_URL, 6379)
    stack.require("Redis", [problem] if problem else [])
    prefix = f"talu-test-groups-{uuid.uuid4().hex[:8]}"
    pair = [PipelinedPubSubChannelLayer(hosts=[{"address": stack.REDIS_URL}], prefix=prefix)
            for _ in range(2)]
    yield pair
    for one in pair:
        await one.flush()


async def members(layer, group: str, n: int) -> list[str]:
    names = [await layer.new_channel() for _ in range(n)]
    for name in names:
        await layer.group_add(group, name)
    return names


async def nothing_for(layer, channel: str) -> bool:
    await asyncio.sleep(0.2)
    return layer._get_layer().channels[channel].empty()


async def test_the_named_member_is_left_out_on_every_process(layers):
    here, there = layers
    sender, watcher = await members(here, "game.x", 2)
    opponent, other = await members(there, "game.x", 2)
    await asyncio.sleep(0.1)  # the subscriptions reach Redis before the publish
    await here.group_send("game.x", {"type": "game.update", "version": 7, EXCEPT: sender})
    async with asyncio.timeout(5):
        got = [await here.receive(watcher), await there.receive(opponent),
               await there.receive(other)]
    assert got == [{"type": "game.update", "version": 7}] * 3  # the key is not passed on
    assert await nothing_for(here, sender)
    await here.group_send("game.x", {"type": "presence", "spectators": 2})  # names nobody
    async with asyncio.timeout(5):
        for layer, name in ((here, sender), (here, watcher), (there, opponent), (there, other)):
            assert (await layer.receive(name))["spectators"] == 2


async def test_each_member_gets_a_dict_of_its_own(layers):
    here, _ = layers
    one, two = await members(here, "game.y", 2)
    await asyncio.sleep(0.1)
    await here.group_send("game.y", {"type": "game.update", "events": [1, 2]})
    async with asyncio.timeout(5):
        first, second = await here.receive(one), await here.receive(two)
    first["type"] = "changed by its consumer"
    assert second == {"type": "game.update", "events": [1, 2]}
    assert first is not second


async def test_a_message_to_one_channel_still_arrives(layers):
    here, there = layers
    name = await there.new_channel()
    await asyncio.sleep(0.1)
    await here.send(name, {"type": "hello", EXCEPT: name})  # only group messages leave one out
    async with asyncio.timeout(5):
        assert await there.receive(name) == {"type": "hello", EXCEPT: name}


async def test_an_undecodable_message_is_dropped_and_the_next_one_arrives(layers, caplog):
    here, _ = layers
    (name,) = await members(here, "game.z", 1)
    await asyncio.sleep(0.1)
    loop_layer = here._get_layer()
    shard = loop_layer._shards[0]
    group_channel = loop_layer._get_group_channel_name("game.z")
    with caplog.at_level(logging.ERROR, logger="talu_site.pubsub_layer"):
        await shard._redis.publish(group_channel, b"\xc1 not msgpack")
        await here.group_send("game.z", {"type": "after"})
        async with asyncio.timeout(0.9):  # not after the receive task's one-second back-off
            assert (await here.receive(name))["type"] == "after"
    assert "could not be decoded" in caplog.text
