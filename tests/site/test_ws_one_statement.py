"""The consumer decides the usual step on its event loop (the command path's fast road) and
stores it by the one append (``play.store.group_commit.append_async``): on PostgreSQL one statement
from the loop, with no pool thread; on SQLite the same append on a thread. Only what the fast
road cannot answer (here a resent message) takes the slow road. Either way the client sees the
same: stored before acknowledged, a resent message acknowledged once, the opponent told."""

import pytest
from channels.db import database_sync_to_async

from play.commands import path
from play.models import GameEvent
from play.store import group_commit
from play.store import log as event_log
from tests.site.wsutil import connect, receive, step

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_usual_steps_skip_the_pool_thread_on_postgresql(game, players, cookies,
                                                               monkeypatch):
    alice, bob, _ = players
    slow = []
    real_store = path.store

    def counting_store(sub, *args, **kwargs):
        slow.append(sub.seq)
        return real_store(sub, *args, **kwargs)

    monkeypatch.setattr(path, "store", counting_store)
    a, _, _ = await connect(game, await database_sync_to_async(cookies)(alice))
    b, _, _ = await connect(game, await database_sync_to_async(cookies)(bob))
    stored = []
    try:
        for msg in (step("A2", "A3", 0, "s1"), step("A3", "A4", 1, "s2"),
                    {"type": "end", "version": 2, "seq": "s3"}):
            await a.send_json_to(msg)
            ack = await receive(a, "ack", "rejected")
            assert ack["type"] == "ack" and ack["seq"] == msg["seq"], ack
            # Stored before it was acknowledged.
            stored.append(await database_sync_to_async(
                GameEvent.objects.filter(game=game, seq=msg["seq"]).count)())
        # The same message again (a client that lost the ack): acknowledged, not applied.
        await a.send_json_to(step("A3", "A4", 1, "s2"))
        again = await receive(a, "ack", "rejected")
        assert again == {"type": "ack", "seq": "s2", "version": 2, "duplicate": True}
        update = await receive(b, "update")
        while update["version"] < 3:
            update = await receive(b, "update")
        assert [e["text"] for e in update["events"]][-1] == "end"
    finally:
        for comm in (a, b):
            await comm.disconnect()
        if event_log.on_postgresql():
            await group_commit.close_async()
    assert stored == [1, 1, 1]
    assert await database_sync_to_async(GameEvent.objects.filter(game=game).count)() == 3
    assert slow == ["s2"]  # only the resent message needed the slow road


async def test_a_step_stored_as_the_connection_broke_is_announced(game, players, cookies,
                                                                   monkeypatch):
    """The fast road's append commits, then its connection breaks before the answer: the slow
    road finds the step stored and acknowledges it as a resend, and its update still reaches
    the sender and the opponent at once (not at the next heartbeat)."""
    import psycopg

    alice, bob, _ = players
    real_append = group_commit.append_async

    async def committed_then_lost(batch):
        assert await real_append(batch)
        raise psycopg.OperationalError("the connection was lost")

    a, _, _ = await connect(game, await database_sync_to_async(cookies)(alice))
    b, _, _ = await connect(game, await database_sync_to_async(cookies)(bob))
    try:
        await a.send_json_to(step("A2", "A3", 0, "s1"))
        assert (await receive(a, "ack"))["version"] == 1
        assert (await receive(a, "update"))["version"] == 1
        assert (await receive(b, "update"))["version"] == 1
        monkeypatch.setattr(group_commit, "append_async", committed_then_lost)
        await a.send_json_to(step("A3", "A4", 1, "s2"))
        ack = await receive(a, "ack", "rejected")
        mine, theirs = await receive(a, "update"), await receive(b, "update")
    finally:
        for comm in (a, b):
            await comm.disconnect()
        if event_log.on_postgresql():
            await group_commit.close_async()
    assert [e["text"] for e in mine["events"]] == ["A3-A4"] and mine["version"] == 2
    assert [e["text"] for e in theirs["events"]] == ["A3-A4"] and theirs["version"] == 2
    assert ack == {"type": "ack", "seq": "s2", "version": 2, "duplicate": True}
    assert await database_sync_to_async(GameEvent.objects.filter(game=game).count)() == 2


async def test_usual_steps_do_not_ask_the_socket_who_its_user_is(game, players, cookies,
                                                                 monkeypatch):
    """The socket's side is known from its opening; a step on the fast road does not look the
    user up again (a lazily read object behind proxies, every step of every game)."""
    from play.models import Game

    alice, _, _ = players
    asked = []
    real_side_of = Game.side_of
    monkeypatch.setattr(Game, "side_of",
                        lambda self, user: asked.append(user) or real_side_of(self, user))
    a, _, _ = await connect(game, await database_sync_to_async(cookies)(alice))
    asked.clear()  # the socket's opening asks, once
    try:
        for msg in (step("A2", "A3", 0, "s1"), step("A3", "A4", 1, "s2")):
            await a.send_json_to(msg)
            assert (await receive(a, "ack", "rejected"))["type"] == "ack"
    finally:
        await a.disconnect()
        if event_log.on_postgresql():
            await group_commit.close_async()
    assert asked == []
