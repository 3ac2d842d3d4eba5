"""A step applied by another server process reaches this one as a layer event; this process's
engine of the game plays it too, so its own player's next step is played on that engine
instead of replaying the log (``engines.advance``).

The events ride in the layer event beside the encoded update, so a process does not decode
the whole update (the state, the notation) for them; an event from a process of an earlier
release carries only the text, and is decoded for them.
"""

import json
from types import SimpleNamespace

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from play.live import consumer
from play.models import Game, Watcher
from play.store import engines
from tests.site.gameplay import store_only
from tests.site.wsutil import connect, receive

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

A2_A3 = {"kind": "move", "from": "A2", "to": "A3"}


def _applied_elsewhere(game, alice) -> dict:
    """A step stored as another process would store it: this process's engine stays at 0."""
    res = store_only(game.uuid, alice, "step", step=A2_A3, version=0, seq="s0")
    assert res.ok, res.reason
    before = Game.objects.get(pk=game.pk)
    before.version = 0
    engines.put(before, engines.replay(before, upto=0))
    assert engines.held_version(game.uuid) == 0
    return res.update()


@pytest.mark.parametrize("with_events", [True, False], ids=["events beside", "text only"])
async def test_an_update_from_another_process_moves_this_process_engine(
        game, players, cookies, monkeypatch, with_events):
    _, bob, _ = players
    comm, _, first = await connect(game, await database_sync_to_async(cookies)(bob))
    assert first["version"] == 0
    channel = await database_sync_to_async(
        lambda: Watcher.objects.get(game=game, role="player").channel_name)()
    update = await database_sync_to_async(_applied_elsewhere)(game, players[0])
    event = {"type": "game.update", "from_version": 0, "version": 1,
             "text": json.dumps(update)}
    if with_events:
        event["events"] = update["events"]
    decoded = []  # what the consumer decodes
    monkeypatch.setattr(consumer, "json", SimpleNamespace(
        dumps=json.dumps, loads=lambda s, *a, **k: decoded.append(s) or json.loads(s, *a, **k)))

    await get_channel_layer().send(channel, event)

    got = await receive(comm, "update")
    assert (got["from_version"], got["version"]) == (0, 1)
    assert engines.held_version(game.uuid) == 1
    held = engines._states[game.pk]
    assert held.engine.snapshot() == update["state"]
    assert (event["text"] in decoded) is not with_events  # decoded only when it must be
    await comm.disconnect()
