"""An illegal step is rejected with the rules core's reason, and nothing is stored."""

import pytest
from channels.db import database_sync_to_async

from tests.site.wsutil import connect, receive, step

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_illegal_step_rejected_with_reason(game, players, cookies):
    alice = players[0]
    comm, welcome, first = await connect(game, await database_sync_to_async(cookies)(alice))
    assert welcome["role"] == "player" and welcome["side"] == "I"
    assert first["version"] == 0
    await comm.send_json_to(step("A1", "A2", 0, "s1"))  # A2 holds one of I's own pieces
    msg = await receive(comm, "rejected", "ack")
    assert msg["type"] == "rejected"
    assert msg["code"] == "illegal"
    assert msg["seq"] == "s1"
    assert "A2" in msg["reason"] and "occupied" in msg["reason"]
    assert msg["version"] == 0
    await comm.send_json_to({"type": "step", "version": 0, "seq": "s2",
                             "step": {"kind": "jump", "from": "A2", "to": "A4"}})
    msg = await receive(comm, "rejected", "ack")
    assert msg["code"] == "bad_step" and "jump" in msg["reason"]
    await game.arefresh_from_db()
    assert game.version == 0
    assert await game.events.acount() == 0
    await comm.disconnect()
