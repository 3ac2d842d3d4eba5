"""A step resent with the same client seq is acknowledged again but applied once."""

import pytest
from channels.db import database_sync_to_async

from tests.site.wsutil import connect, receive, step

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_duplicate_seq_applied_once(game, players, cookies):
    alice = players[0]
    cookie = await database_sync_to_async(cookies)(alice)
    comm, _, _ = await connect(game, cookie)
    msg = step("A2", "A3", 0, "dup-1")
    await comm.send_json_to(msg)
    ack = await receive(comm, "ack", "rejected")
    assert ack == {"type": "ack", "seq": "dup-1", "version": 1}
    update = await receive(comm, "update")
    assert update["version"] == 1 and [e["text"] for e in update["events"]] == ["A2-A3"]
    # The same message again on the same socket, then after a reconnect (the client never
    # saw the ack): both times acknowledged as a duplicate, never applied twice.
    await comm.send_json_to(msg)
    again = await receive(comm, "ack", "rejected")
    assert again["type"] == "ack" and again["duplicate"] is True and again["version"] == 1
    await comm.disconnect()
    comm2, _, first = await connect(game, cookie)
    assert first["version"] == 1
    await comm2.send_json_to(msg)
    third = await receive(comm2, "ack", "rejected")
    assert third["duplicate"] is True and third["version"] == 1
    assert await game.events.acount() == 1
    await game.arefresh_from_db()
    assert game.version == 1
    await comm2.disconnect()
