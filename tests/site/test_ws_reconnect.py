"""A client reconnecting mid-turn (even to a restarted server) gets the turn in progress."""

import pytest
from channels.db import database_sync_to_async

from play.store import engines
from tests.site.wsutil import connect, receive, step

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_reconnect_mid_turn_receives_turn_in_progress(game, players, cookies):
    alice = players[0]
    cookie = await database_sync_to_async(cookies)(alice)
    comm, _, _ = await connect(game, cookie)
    for n, (frm, to) in enumerate([("A2", "A3"), ("A3", "A4")]):
        await comm.send_json_to(step(frm, to, n, f"r{n}"))
        assert (await receive(comm, "ack", "rejected"))["type"] == "ack"
    await comm.disconnect()
    engines.forget()  # as after a server restart: state must come from the database

    comm, _, first = await connect(game, cookie)
    state = first["state"]
    assert first["version"] == 2
    assert state["side_to_move"] == "I" and state["steps_used"] == 2 and state["steps_left"] == 2
    assert state["open_turn"]["text"] == "A2-A3-A4"
    assert [s["to"] for s in state["open_turn"]["steps"]] == ["A3", "A4"]
    assert "A4" in state["board"]["I"] and "A2" not in state["board"]["I"]
    assert {"kind": "end", "from": None, "to": None} in state["legal_steps"]

    # A client that saw up to version 1 asks for what it missed.
    await comm.send_json_to({"type": "sync", "last_version": 1})
    missed = await receive(comm, "update")
    assert missed["from_version"] == 1 and [e["version"] for e in missed["events"]] == [2]

    # The turn goes on where it was: two more steps end it and it is O's turn.
    await comm.send_json_to(step("B2", "B3", 2, "r2"))
    await receive(comm, "ack")
    await comm.send_json_to(step("B3", "B4", 3, "r3"))
    await receive(comm, "ack")
    update = await receive(comm, "update")
    while update["version"] < 4:
        update = await receive(comm, "update")
    assert update["state"]["side_to_move"] == "O"
    assert update["state"]["notation"] == ["001 I: A2-A3-A4 B2-B3-B4"]
    await comm.disconnect()
