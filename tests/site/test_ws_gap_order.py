"""An update that arrives before the one it follows waits for it (no database read); if the
missing one never comes, the gap is filled from the database after ``GAP_WAIT``. Either way
the client gets every version once, in order.

Under load this was the usual case: a player's own step is applied while the opponent's
update is still queued for that player's socket (BENCHMARKS.md, issue 7).
"""

import json

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from play import gameview
from play.live import delivery
from play.models import Watcher
from tests.site.gameplay import store_only
from tests.site.wsutil import connect, nothing_pending, receive

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

A2_A3 = {"kind": "move", "from": "A2", "to": "A3"}
A3_A4 = {"kind": "move", "from": "A3", "to": "A4"}


def _played(game, alice) -> list[dict]:
    """Two steps stored, and the two layer events that announce them."""
    out = []
    for version, step in ((0, A2_A3), (1, A3_A4)):
        res = store_only(game.uuid, alice, "step", step=step, version=version,
                              seq=f"s{version}")
        assert res.ok, res.reason
        update = res.update()
        out.append({"type": "game.update", "from_version": update["from_version"],
                    "version": update["version"], "text": json.dumps(update)})
    return out


async def _spectator(game, carol, cookies):
    comm, _, first = await connect(game, await database_sync_to_async(cookies)(carol))
    assert first["version"] == 0
    channel = await database_sync_to_async(
        lambda: Watcher.objects.get(game=game, role="spectator").channel_name)()
    return comm, channel


async def test_an_early_update_waits_for_the_one_before_it(game, players, cookies, monkeypatch):
    alice, _, carol = players
    comm, channel = await _spectator(game, carol, cookies)
    syncs = []
    real_sync = gameview.sync
    monkeypatch.setattr(gameview, "sync", lambda *a, **k: syncs.append(a) or real_sync(*a, **k))
    first, second = await database_sync_to_async(_played)(game, alice)

    layer = get_channel_layer()
    await layer.send(channel, second)  # out of order
    await layer.send(channel, first)

    got = [await receive(comm, "update"), await receive(comm, "update")]
    assert [(u["from_version"], u["version"]) for u in got] == [(0, 1), (1, 2)]
    assert [e["text"] for u in got for e in u["events"]] == ["A2-A3", "A3-A4"]
    assert syncs == []  # nothing read from the database
    await comm.disconnect()


async def test_a_gap_that_stays_open_is_filled_from_the_database(game, players, cookies,
                                                                 monkeypatch):
    alice, _, carol = players
    monkeypatch.setattr(delivery, "GAP_WAIT", 0.2)
    comm, channel = await _spectator(game, carol, cookies)
    _, second = await database_sync_to_async(_played)(game, alice)

    await get_channel_layer().send(channel, second)  # the first is lost

    update = await receive(comm, "update")
    assert (update["from_version"], update["version"]) == (0, 2)
    assert [e["text"] for e in update["events"]] == ["A2-A3", "A3-A4"]
    assert update["state"]["open_turn"]["text"] == "A2-A3-A4"
    assert await comm.receive_nothing(timeout=0.5) and nothing_pending(comm)  # nothing twice
    await comm.disconnect()
