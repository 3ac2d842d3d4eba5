"""A client that asks for it (``?ack=inline``, as the browser board does) hears of its own
applied step in one frame: the update that carries the step, with an ``ack`` member
(docs/protocol.md). Everyone else gets that update without it; a step that changes nothing (a
resent one) and an update that cannot go at once are acknowledged by a separate ``ack`` first.
A client that does not ask (a page loaded before this release) gets the ack alone, before the
update, as always.

One frame fewer per step for the server to write and the sender to read (BENCHMARKS.md,
issue 7); these tests read raw frames, not ``wsutil.receive``, which hides the difference.
"""

import pytest
from channels.db import database_sync_to_async

from play.live import delivery, wire
from tests.site.gameplay import store_only
from tests.site.wsutil import TIMEOUT, connect, step

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def _next(comm) -> dict:
    """The next frame, skipping spectator counts only."""
    while True:
        msg = await comm.receive_json_from(timeout=TIMEOUT)
        if msg["type"] != "spectators":
            return msg


async def _nothing_more(comm) -> bool:
    """True when nothing but spectator counts comes within a moment."""
    while not await comm.receive_nothing(timeout=0.3):
        if (await comm.receive_json_from(timeout=TIMEOUT))["type"] != "spectators":
            return False
    return True


async def test_the_sender_gets_one_frame_the_update_with_its_ack(game, players, cookies):
    alice, bob, carol = players
    sockets = {}
    for who in (alice, bob, carol):
        sockets[who], _, first = await connect(game, await database_sync_to_async(cookies)(who))
        assert first["version"] == 0
    await sockets[alice].send_json_to(step("A2", "A3", 0, "one-frame"))

    mine = await _next(sockets[alice])
    assert mine["type"] == "update", mine
    assert mine["ack"] == {"seq": "one-frame", "version": 1}
    assert (mine["from_version"], mine["version"]) == (0, 1)
    assert [e["text"] for e in mine["events"]] == ["A2-A3"]
    for other in (bob, carol):
        theirs = await _next(sockets[other])
        assert theirs["type"] == "update" and "ack" not in theirs, theirs
        assert {k: v for k, v in mine.items() if k != "ack"} == theirs
    # Nothing else for the sender: no separate ack, and not its own broadcast a second time.
    assert await _nothing_more(sockets[alice])
    for comm in sockets.values():
        await comm.disconnect()


async def test_a_resent_step_is_acknowledged_alone(game, players, cookies):
    alice = players[0]
    comm, _, _ = await connect(game, await database_sync_to_async(cookies)(alice))
    msg = step("A2", "A3", 0, "again")
    await comm.send_json_to(msg)
    assert (await _next(comm))["ack"]["seq"] == "again"
    await comm.send_json_to(msg)
    assert await _next(comm) == {"type": "ack", "seq": "again", "version": 1,
                                 "duplicate": True}
    assert await _nothing_more(comm)  # applied once, so no update
    await comm.disconnect()


async def test_an_update_that_must_wait_is_preceded_by_a_separate_ack(game, players, cookies,
                                                                      monkeypatch):
    """A player whose socket has not yet been given the version its step names (it learnt it
    in another tab): the update of the step waits for the one before it, the ack does not."""
    alice = players[0]
    monkeypatch.setattr(delivery, "GAP_WAIT", 0.2)
    comm, _, first = await connect(game, await database_sync_to_async(cookies)(alice))
    assert first["version"] == 0
    res = await database_sync_to_async(store_only)(
        game.uuid, alice, "step", step={"kind": "move", "from": "A2", "to": "A3"}, version=0,
        seq="other-tab")  # stored, never broadcast to this socket
    assert res.ok
    await comm.send_json_to(step("A3", "A4", 1, "behind"))

    assert await _next(comm) == {"type": "ack", "seq": "behind", "version": 2}
    update = await _next(comm)  # the gap filled from the database after GAP_WAIT
    assert update["type"] == "update" and "ack" not in update, update
    assert (update["from_version"], update["version"]) == (0, 2)
    assert [e["text"] for e in update["events"]] == ["A2-A3", "A3-A4"]
    await comm.disconnect()


async def test_a_client_that_does_not_ask_gets_the_ack_alone_first(game, players, cookies):
    alice, bob = players[0], players[1]
    mine, _, _ = await connect(game, await database_sync_to_async(cookies)(alice), query="")
    theirs, _, _ = await connect(game, await database_sync_to_async(cookies)(bob))
    await mine.send_json_to(step("A2", "A3", 0, "old-client"))
    assert await _next(mine) == {"type": "ack", "seq": "old-client", "version": 1}
    update = await _next(mine)
    assert update["type"] == "update" and "ack" not in update and update["version"] == 1
    assert await _nothing_more(mine)
    assert await _next(theirs) == update
    for comm in (mine, theirs):
        await comm.disconnect()


@pytest.mark.django_db(transaction=False)
async def test_a_member_is_added_to_an_encoded_object():
    text = wire.encode({"type": "update", "version": 3, "name": "Zoë"})
    assert wire.with_member(text, "ack", {"seq": 'q"1', "version": 3}) == (
        wire.encode({"type": "update", "version": 3, "name": "Zoë",
                           "ack": {"seq": 'q"1', "version": 3}}))
