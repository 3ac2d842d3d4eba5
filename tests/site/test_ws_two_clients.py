"""Both players and a spectator see the same steps in the same order."""

import pytest
from channels.db import database_sync_to_async

from tests.site.wsutil import connect, receive, step

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def collect(comm, upto: int, already: list) -> list[tuple[int, str]]:
    seen: list[tuple[int, str]] = []
    last = 0
    while last < upto:
        msg = already.pop(0) if already else await receive(comm, "update", "ack", "rejected")
        if msg["type"] != "update":
            continue
        assert msg["from_version"] == last, "no gap and no repeat"
        seen += [(e["version"], e["text"]) for e in msg["events"]]
        last = msg["version"]
    return seen


async def test_two_clients_same_steps_same_order(game, players, cookies):
    alice, bob, carol = players
    a, _, _ = await connect(game, await database_sync_to_async(cookies)(alice))
    b, _, _ = await connect(game, await database_sync_to_async(cookies)(bob))
    c, _, _ = await connect(game, await database_sync_to_async(cookies)(carol))
    plan = [
        (a, step("C2", "C3", 0, "a0")),
        (a, step("C3", "C4", 1, "a1")),
        (a, {"type": "end", "version": 2, "seq": "a2"}),
        (b, step("F7", "F6", 3, "b0")),
        (b, {"type": "pass", "version": 4, "seq": "b1"}),  # not legal mid-turn
        (b, {"type": "end", "version": 4, "seq": "b2"}),
        (a, {"type": "pass", "version": 5, "seq": "a3"}),
    ]
    skipped = {a: [], b: [], c: []}
    for sender, msg in plan:
        await sender.send_json_to(msg)
        reply = await receive(sender, "ack", "rejected", skipped=skipped[sender])
        if msg["seq"] == "b1":
            assert reply["type"] == "rejected" and reply["code"] == "illegal"
        else:
            assert reply["type"] == "ack", reply
    expected = [(1, "C2-C3"), (2, "C3-C4"), (3, "end"), (4, "F7-F6"), (5, "end"), (6, "pass")]
    assert await collect(a, 6, skipped[a]) == expected
    assert await collect(b, 6, skipped[b]) == expected
    assert await collect(c, 6, skipped[c]) == expected
    for comm in (a, b, c):
        await comm.disconnect()
