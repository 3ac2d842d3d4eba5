"""The same two-process game on the other supported layer, channels-redis's sorted-set
``RedisChannelLayer`` (``TALU_CHANNEL_BACKEND=core``): pub/sub is the measured default
(docs/channel-layer.md), and the alternative a deployment may choose must work as well."""

import asyncio
import socket

import pytest

from tests.cluster import test_two_processes
from tests.cluster.client import GameClient, wait_all

pytestmark = [pytest.mark.services, pytest.mark.asyncio]

CLUSTER_ENV = {"TALU_CHANNEL_BACKEND": "core"}


def core_group_members(cluster, game: str) -> int:
    """Members of the game's group in the core layer's sorted set (RESP ``ZCARD``); the
    pub/sub layer keeps no such key."""
    key = f"{cluster.env()['TALU_CHANNEL_PREFIX']}:group:game.{game}".encode()
    with socket.create_connection(("127.0.0.1", cluster.redis.port), 3) as s:
        s.sendall(b"*2\r\n$5\r\nZCARD\r\n$%d\r\n%s\r\n" % (len(key), key))
        reply = s.recv(64)
    assert reply.startswith(b":"), reply
    return int(reply[1:].split(b"\r\n")[0])


async def test_the_servers_use_the_core_layer(cluster):
    seed = cluster.seed(players=("kai", "lou"), spectators=())
    kai = await GameClient(cluster, 0, seed.game, seed.cookies["kai"], "kai").start()
    lou = await GameClient(cluster, 1, seed.game, seed.cookies["lou"], "lou").start()
    try:
        assert core_group_members(cluster, seed.game) == 2
        await kai.play("move", "A2", "A3")
        await wait_all([kai, lou], 1)
    finally:
        await asyncio.gather(kai.close(), lou.close())


async def test_every_step_reaches_every_client_once_in_order_on_the_core_layer(cluster):
    await test_two_processes.test_every_step_reaches_every_client_once_in_order(cluster)
