"""Redis restarted during a game: play goes on, and no socket is dropped.

Redis keeps nothing here (``--save ""``), as after a crash: every subscription is gone when it
comes back. Each process's pub/sub connection reconnects and subscribes again, the sockets'
reads from the layer wait for Redis instead of dying, and a step applied while Redis was away
reaches the clients of the other process from the database. Every client still sees every step
once, in order.
"""

import asyncio
import socket

import pytest

from tests.cluster.client import GameClient, assert_exactly_once_in_order, wait_all

pytestmark = [pytest.mark.services, pytest.mark.asyncio]


def group_size(cluster, game: str) -> int:
    """Server processes subscribed to the game's group (the pub/sub layer subscribes once per
    process with a member), read from the private Redis (RESP ``PUBSUB NUMSUB``)."""
    key = f"{cluster.env()['TALU_CHANNEL_PREFIX']}__group__game.{game}".encode()
    with socket.create_connection(("127.0.0.1", cluster.redis.port), 3) as s:
        s.sendall(b"*3\r\n$6\r\nPUBSUB\r\n$6\r\nNUMSUB\r\n$%d\r\n%s\r\n" % (len(key), key))
        reply = s.recv(256)
    # *2 $len channel :count
    assert reply.startswith(b"*2"), reply
    return int(reply.rstrip(b"\r\n").rsplit(b":", 1)[1])


async def test_play_resumes_after_redis_restart(cluster):
    seed = cluster.seed(players=("ida", "otto"), spectators=("cy", "di"))
    ida = await GameClient(cluster, 0, seed.game, seed.cookies["ida"], "ida").start()
    cy = await GameClient(cluster, 0, seed.game, seed.cookies["cy"], "cy").start()
    otto = await GameClient(cluster, 1, seed.game, seed.cookies["otto"], "otto").start()
    di = await GameClient(cluster, 1, seed.game, seed.cookies["di"], "di").start()
    everyone = [ida, cy, otto, di]
    try:
        await ida.play("move", "A2", "A3")
        await wait_all(everyone, 1)
        assert group_size(cluster, seed.game) == 2  # both processes

        cluster.redis.stop(kill=True)
        for server in cluster.servers:  # the proxy and the container checks see it
            assert server.health() == (503, {"status": "unavailable", "database": "ok",
                                             "channel_layer": "down"})
        # A step while Redis is away is still applied (the database is the truth) ...
        await ida.play("move", "A3", "A4")
        # ... and reaches the other process's clients from the database.
        await wait_all(everyone, 2)

        cluster.redis.start()  # empty: every subscription is forgotten
        # Each process's pub/sub connection reconnects and subscribes again.
        await ida.wait_for(lambda: group_size(cluster, seed.game) == 2,
                            "both processes to subscribe again")

        await ida.play("move", "B2", "B3")
        await ida.play("move", "B3", "B4")
        await otto.wait_version(4)
        await otto.play("move", "H7", "H6")
        await otto.play("end")
        await ida.wait_version(6)
        await ida.play("resign")
        await wait_all(everyone, 7)
        await asyncio.sleep(0.5)  # anything doubled or late would arrive now
        assert_exactly_once_in_order(everyone, 7)
        assert all(c.state["outcome"]["winner"] == "O" for c in everyone)
        assert [c.connections for c in everyone] == [1, 1, 1, 1], "no socket was dropped"
        for server in cluster.servers:
            assert server.health() == (200, {"status": "ok", "database": "ok",
                                             "channel_layer": "ok"})
    finally:
        await asyncio.gather(*(c.close() for c in everyone))
