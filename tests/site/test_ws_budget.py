"""One game socket's budget (issue 41, finding 9; ``play/live/budget.py``): an anonymous
spectator sending ``sync`` from version 0 as fast as it could got a full resync each time
(eight sockets took 0.72 of a core). Each socket now has a bucket for its messages and a
stricter one for its resyncs; a full resync costs more. A real player, stepping and catching
up far faster than a person does, is never slowed. The floods themselves are in the fuzz
suite (tests/site/test_ws_fuzz.py). Runs again on PostgreSQL and Redis (the services lane)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from play.live import budget
from tests.site.wsutil import connect, receive

RATES = {"ws_message": "100/10second", "ws_sync": "20/10second"}


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def rates(settings):
    settings.TALU_RATES = {**settings.TALU_RATES, **RATES}


def test_a_full_resync_costs_five_of_the_twenty(rates):
    clock = Clock()
    socket = budget.SocketBudget(clock)
    near = [socket.admit("sync", 98, 100) for _ in range(20)]
    assert near == [None] * 20  # twenty catch-ups at once: all handled
    refused = socket.admit("sync", 99, 100)
    assert refused is not None and refused.what == "resyncs" and refused.retry_after == 1
    clock.now += 10  # the bucket is full again
    full = [socket.admit("sync", 0, 100) for _ in range(5)]
    assert full[:4] == [None] * 4 and full[4] is not None  # from version 0: four at once
    assert full[4].retry_after == 3  # five tokens at two a second
    clock.now += 10
    # The state alone (a fresh client's hello) and a version ahead cost one each.
    assert [socket.admit("hello", None, 100) for _ in range(10)] == [None] * 10
    assert [socket.admit("sync", 500, 100) for _ in range(10)] == [None] * 10
    assert socket.admit("sync", 0, 100) is not None


def test_other_messages_have_a_budget_of_their_own(rates):
    clock = Clock()
    socket = budget.SocketBudget(clock)
    assert all(socket.admit("ping", None, 0) is None for _ in range(100))
    refused = socket.admit("step", None, 0)
    assert refused.what == "messages" and refused.retry_after == 1
    assert socket.admit(None, None, 0).what == "messages"  # unreadable frames count too
    clock.now += 0.1  # one token a tenth of a second
    assert socket.admit("ping", None, 0) is None


def test_refusals_that_go_on_close_the_socket(rates):
    clock = Clock()
    socket = budget.SocketBudget(clock)
    for _ in range(20):
        socket.admit("sync", 0, 0)
    refusals = 0
    while not socket.persisting():
        assert socket.admit("sync", 0, 0) is not None
        refusals += 1
    assert refusals == budget.STRIKES
    assert socket.close_for() == 10
    clock.now += budget.STRIKE_WINDOW + 20  # old refusals are forgiven
    assert socket.admit("sync", 0, 0) is None and not socket.persisting()


def test_off_means_no_budget(settings):
    settings.TALU_RATES = {**settings.TALU_RATES, "ws_message": "off", "ws_sync": "off"}
    socket = budget.SocketBudget()
    assert all(socket.admit("sync", 0, 10_000) is None for _ in range(1000))


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.rate_limits
async def test_players_stepping_and_catching_up_faster_than_anyone_are_never_slowed(
        game, players, cookies, rates, no_error_logs):
    """Both players step as fast as the test can send, each step followed by the catch-up
    a board sends after a gap and a ping: every step is acknowledged, nothing is refused."""
    alice, bob, _ = players
    cookie = database_sync_to_async(cookies)
    sockets = {}
    for side, user in (("I", alice), ("O", bob)):
        sockets[side], _welcome, first = await connect(game, await cookie(user))
    state, version = first["state"], first["version"]
    acked = 0
    for n in range(24):
        comm = sockets[state["side_to_move"]]
        await comm.send_json_to({"type": "step", "version": version, "seq": f"s{n}",
                                 "step": next(s for s in state["legal_steps"]
                                              if s["kind"] == "move")})
        answer = await receive(comm, "ack", "rejected", "error")
        assert answer["type"] == "ack", answer
        acked += 1
        await comm.send_json_to({"type": "sync", "last_version": version})
        await comm.send_json_to({"type": "ping"})
        while (msg := await receive(comm, "update", "pong", "error", "rejected"))["type"] != "pong":
            assert msg["type"] == "update", msg
            if msg["version"] >= version:
                state, version = msg["state"], msg["version"]
        assert state["outcome"] is None, state["outcome"]  # moves only: the game goes on
    assert acked >= 20 and version >= acked
    for comm in sockets.values():  # the other side's socket heard it all, refused nothing
        await comm.send_json_to({"type": "ping"})
        msg = await receive(comm, "pong", "error", "rejected")
        assert msg["type"] == "pong", msg
        await comm.disconnect()
