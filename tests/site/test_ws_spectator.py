"""Spectators (signed in or anonymous) can watch but never send a step."""

import pytest
from channels.db import database_sync_to_async

from tests.site.wsutil import connect, receive, step

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.mark.parametrize("who", ["carol", "anonymous"])
async def test_spectator_step_rejected(game, players, cookies, who):
    user = players[2] if who == "carol" else None
    comm, welcome, _ = await connect(game, await database_sync_to_async(cookies)(user))
    assert welcome["role"] == "spectator" and welcome["side"] is None
    for msg in (step("A2", "A3", 0, "x1"), {"type": "pass", "version": 0, "seq": "x2"},
                {"type": "resign", "seq": "x3"}, {"type": "end", "version": 0}):
        await comm.send_json_to(msg)
        reply = await receive(comm, "rejected", "ack")
        assert reply["type"] == "rejected" and reply["code"] == "spectator"
    assert await game.events.acount() == 0
    await comm.disconnect()


async def count_reaches(comm, n: int) -> int:
    while True:
        msg = await receive(comm, "spectators")
        if msg["count"] == n:
            return n


async def test_spectator_count(game, players, cookies):
    alice, _, carol = players
    player, w1, _ = await connect(game, await database_sync_to_async(cookies)(alice))
    assert w1["spectators"] == 0
    spec, w2, _ = await connect(game, await database_sync_to_async(cookies)(carol))
    assert w2["spectators"] == 1
    assert await count_reaches(player, 1) == 1
    await spec.disconnect()
    assert await count_reaches(player, 0) == 0
    await player.disconnect()
