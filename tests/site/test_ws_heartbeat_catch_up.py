"""The heartbeat repairs what a broadcast lost: a step stored but never announced to a socket
(a dropped channel-layer message, Redis away) reaches it at the next heartbeat, and a spectator
count that changed without an announcement is sent too."""

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from play.models import Watcher
from tests.site.gameplay import store_only
from tests.site.wsutil import connect, receive

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

A2_A3 = {"kind": "move", "from": "A2", "to": "A3"}


async def test_a_step_no_broadcast_announced_arrives_with_the_heartbeat(game, players, cookies,
                                                                       settings):
    settings.TALU_WS_HEARTBEAT = 0.3  # read at start from the environment; overridden here
    alice, _, carol = players
    quiet, _, _ = await connect(game, await database_sync_to_async(cookies)(alice))
    watcher, _, first = await connect(game, await database_sync_to_async(cookies)(carol))
    assert first["version"] == 0
    assert await receive(quiet, "spectators") == {"type": "spectators", "count": 1}

    # Stored without any socket hearing of it, as when the broadcast was lost.
    result = await database_sync_to_async(store_only)(game.uuid, alice, "step",
                                                           step=A2_A3, version=0, seq="lost")
    assert result.ok
    update = await receive(watcher, "update", timeout=5)
    assert update["version"] == 1 and [e["text"] for e in update["events"]] == ["A2-A3"]

    # A spectator on another process whose arrival was never announced here: the count follows.
    await Watcher.objects.acreate(game=game, channel_name="elsewhere", role="spectator",
                                  server="s2", seen=timezone.now())
    assert await receive(quiet, "spectators", timeout=5) == {"type": "spectators", "count": 2}
    assert await receive(watcher, "spectators", timeout=5) == {"type": "spectators", "count": 2}
    for comm in (quiet, watcher):
        await comm.disconnect()
