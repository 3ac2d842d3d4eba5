"""A step by the player who is not to move is rejected; so is a stale one."""

import pytest
from channels.db import database_sync_to_async

from tests.site.wsutil import connect, receive, step

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_out_of_turn_step_rejected(game, players, cookies):
    bob = players[1]
    comm, welcome, first = await connect(game, await database_sync_to_async(cookies)(bob))
    assert welcome["side"] == "O"
    assert first["state"]["side_to_move"] == "I"
    await comm.send_json_to(step("A7", "A6", 0, "o1"))
    msg = await receive(comm, "rejected", "ack")
    assert msg["code"] == "not_your_turn"
    assert "light's turn" in msg["reason"]
    assert await game.events.acount() == 0
    await comm.disconnect()


async def test_stale_version_answered_not_applied(game, players, cookies):
    alice = players[0]
    comm, _, _ = await connect(game, await database_sync_to_async(cookies)(alice))
    await comm.send_json_to(step("A2", "A3", 0, "a1"))
    assert (await receive(comm, "ack", "rejected"))["type"] == "ack"
    # Made against version 0 again (a different step, a different seq): the game is at 1.
    await comm.send_json_to(step("B2", "B3", 0, "a2"))
    msg = await receive(comm, "rejected", "ack")
    assert msg["code"] == "stale" and msg["version"] == 1
    assert await game.events.acount() == 1
    await comm.disconnect()
