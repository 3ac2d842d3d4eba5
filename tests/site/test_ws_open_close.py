"""Opening and closing a game socket (issue 7): a game's end replaces its four sockets, so
opening one is one trip to the database, and only a spectator's arrival or departure, the only
ones that change the spectator count, is announced to the others."""

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext

from play.live import presence
from play.models import Watcher
from tests.site.gameplay import store_only
from tests.site.wsutil import connect, receive

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.asyncio
async def test_players_coming_and_going_tell_nobody_spectators_do(game, players, cookies):
    alice, _, carol = players
    watcher, welcome, _ = await connect(game, await database_sync_to_async(cookies)(carol))
    assert welcome["spectators"] == 1
    assert await watcher.receive_json_from() == {"type": "spectators", "count": 1}  # its own
    player, _, _ = await connect(game, await database_sync_to_async(cookies)(alice))
    await player.disconnect()
    assert await watcher.receive_nothing(timeout=0.3)  # the count did not change

    other, _, _ = await connect(game, await database_sync_to_async(cookies)(None))
    assert await receive(watcher, "spectators") == {"type": "spectators", "count": 2}
    await other.disconnect()
    assert await receive(watcher, "spectators") == {"type": "spectators", "count": 1}
    await watcher.disconnect()
    assert not await Watcher.objects.aexists()


def test_opening_a_socket_reads_the_game_once_and_gives_the_first_update(game, players):
    alice, _, carol = players
    assert store_only(game.uuid, alice, "step", step={"kind": "move", "from": "A2",
                                                           "to": "A3"}, version=0, seq="a").ok
    with CaptureQueriesContext(connection) as queries:
        opened = presence.open_socket(game.uuid, "ch.carol", carol, "s1", last_version=0)
    assert (opened.side, opened.spectators) == (None, 1)
    assert opened.update["from_version"] == 0 and opened.update["version"] == 1
    assert [e["text"] for e in opened.update["events"]] == ["A2-A3"]
    games_read = [q for q in queries.captured_queries if 'FROM "play_game"' in q["sql"]]
    assert len(games_read) == 1, games_read
    statements = [q["sql"].split()[0] for q in queries.captured_queries
                  if q["sql"].split()[0] in ("SELECT", "INSERT", "UPDATE", "DELETE", "WITH")]
    # the game; the presence row (one upsert) and the count, one statement on PostgreSQL
    # (play/presence_sql.py); the events (stale rows are swept by the heartbeats,
    # tests/site/test_presence_heartbeat.py)
    if connection.vendor == "postgresql":
        assert statements == ["SELECT", "WITH", "SELECT"], statements
    else:
        assert statements == ["SELECT", "INSERT", "SELECT", "SELECT"], statements

    assert presence.open_socket("00000000-0000-0000-0000-000000000000", "ch.x", carol) is None
    assert presence.leave("ch.carol", opened.game_pk, spectator=True) == 0
    assert presence.leave("ch.alice", opened.game_pk, spectator=False) is None


def test_opening_a_socket_on_a_new_game_reads_no_log(game, players):
    """Nobody has moved in it: there is no event to replay (a game's end opens four sockets
    on a new one)."""
    with CaptureQueriesContext(connection) as queries:
        opened = presence.open_socket(game.uuid, "ch.carol", players[2], "s1")
    assert opened.update["version"] == 0 and opened.update["state"]["steps_used"] == 0
    assert not [q for q in queries.captured_queries if "play_gameevent" in q["sql"]]
