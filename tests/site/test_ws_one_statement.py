"""On PostgreSQL the consumer stores the usual step from its event loop in one statement
(``play.steplog.append_async``), with no pool thread; on SQLite every step takes the locked
path. Either way the client sees the same: stored before acknowledged, a resent message
acknowledged once, the opponent told."""

import pytest
from channels.db import database_sync_to_async

from play import services, steplog
from play.models import GameEvent
from tests.site.wsutil import connect, receive, step

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_usual_steps_skip_the_pool_thread_on_postgresql(game, players, cookies,
                                                               monkeypatch):
    alice, bob, _ = players
    locked = []
    real_submit = services.submit

    def counting_submit(*args, **kwargs):
        locked.append(kwargs.get("seq"))
        return real_submit(*args, **kwargs)

    monkeypatch.setattr(services, "submit", counting_submit)
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
        if steplog.available():
            await steplog.close_async()
    assert stored == [1, 1, 1]
    assert await database_sync_to_async(GameEvent.objects.filter(game=game).count)() == 3
    if steplog.available():
        assert locked == ["s2"]  # only the resent message needed the locked path
    else:
        assert locked == ["s1", "s2", "s3", "s2"]


async def test_a_step_stored_as_the_connection_broke_is_announced(game, players, cookies,
                                                                   monkeypatch):
    """The one-statement write commits, then its connection breaks before the answer: the
    locked path finds the step stored and acknowledges it as a resend, and its update still
    reaches the sender and the opponent at once (not at the next heartbeat)."""
    import psycopg

    alice, bob, _ = players
    real_append = steplog.append_async

    async def committed_then_lost(*args):
        assert await real_append(*args)
        raise psycopg.OperationalError("the connection was lost")

    a, _, _ = await connect(game, await database_sync_to_async(cookies)(alice))
    b, _, _ = await connect(game, await database_sync_to_async(cookies)(bob))
    try:
        await a.send_json_to(step("A2", "A3", 0, "s1"))
        assert (await receive(a, "ack"))["version"] == 1
        assert (await receive(a, "update"))["version"] == 1
        assert (await receive(b, "update"))["version"] == 1
        monkeypatch.setattr(steplog, "append_async", committed_then_lost)
        await a.send_json_to(step("A3", "A4", 1, "s2"))
        ack = await receive(a, "ack", "rejected")
        mine, theirs = await receive(a, "update"), await receive(b, "update")
    finally:
        for comm in (a, b):
            await comm.disconnect()
        if steplog.available():
            await steplog.close_async()
    assert [e["text"] for e in mine["events"]] == ["A3-A4"] and mine["version"] == 2
    assert [e["text"] for e in theirs["events"]] == ["A3-A4"] and theirs["version"] == 2
    if steplog.available():
        assert ack == {"type": "ack", "seq": "s2", "version": 2, "duplicate": True}
    else:  # SQLite: no one-statement write to break; the locked path applies it
        assert ack == {"type": "ack", "seq": "s2", "version": 2}
    assert await database_sync_to_async(GameEvent.objects.filter(game=game).count)() == 2


async def test_usual_steps_do_not_ask_the_socket_who_its_user_is(game, players, cookies,
                                                                 monkeypatch):
    """The socket's side is known from its opening; a step on the one-statement path does not
    look the user up again (a lazily read object behind proxies, every step of every game)."""
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
        if steplog.available():
            await steplog.close_async()
    if steplog.available():
        assert asked == []
    else:  # SQLite: every step takes the locked path, which reads the locked row's players
        assert len(asked) >= 2
