"""Absence (R37): when every connection of a player of a live timed game is gone, the opponent
is told (a countdown from ``since`` to ``limit``) and may claim the game once the limit has
passed: a win by decision (cause ``abandonment``) or a null game. A claim before the limit,
or against a connected player, is refused and changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from play.games.clock import parse
from play.lifecycle import start_game
from play.models import Game, Seat
from play.store import engines
from tests.site.wsutil import connect, receive

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _game(players, tc="fischer 60+0"):
    alice, bob, _ = players
    engines.forget()
    return start_game(alice, bob, time_control=tc)


async def test_claim_only_after_the_absence_limit(players, cookies):
    alice, bob, _ = players
    game = await database_sync_to_async(_game)(players)
    comm_i, _, _ = await connect(game, await database_sync_to_async(cookies)(alice))
    comm_o, _, _ = await connect(game, await database_sync_to_async(cookies)(bob))
    # Connected: a claim is refused.
    await comm_i.send_json_to({"type": "claim", "result": "win", "seq": "c0"})
    refused = await receive(comm_i, "rejected")
    assert refused["code"] == "too_early" and "connected" in refused["reason"]
    # bob's only socket closes: alice sees the countdown.
    await comm_o.disconnect()
    away = await receive(comm_i, "absence")
    limit = parse("fischer 60+0").absence_ms
    assert away["side"] == "O" and away["limit"] == limit == 21_000
    # Before the limit: refused, nothing changed.
    await comm_i.send_json_to({"type": "claim", "result": "win", "seq": "c1"})
    refused = await receive(comm_i, "rejected")
    assert refused["code"] == "too_early" and "claim after 21 s" in refused["reason"]
    row = await Game.objects.aget(pk=game.pk)
    assert row.is_live and row.version == 0
    # The limit passes (bob's absence moved 22 s into the past): the claim wins.
    await Seat.objects.filter(game_id=game.pk, seat="O").aupdate(
        away=timezone.now() - timedelta(seconds=22))
    await comm_i.send_json_to({"type": "claim", "result": "win", "seq": "c2"})
    assert (await receive(comm_i, "ack"))["type"] == "ack"
    update = await receive(comm_i, "update")
    outcome = update["state"]["outcome"]
    assert (outcome["winner"], outcome["cause"]) == ("I", "abandonment")
    row = await Game.objects.aget(pk=game.pk)
    assert (row.status, row.winner, row.cause) == ("finished", "I", "abandonment")
    await comm_i.disconnect()


async def test_return_stops_the_countdown_and_null_claim(players, cookies):
    alice, bob, _ = players
    game = await database_sync_to_async(_game)(players)
    comm_i, _, _ = await connect(game, await database_sync_to_async(cookies)(alice))
    comm_o, _, _ = await connect(game, await database_sync_to_async(cookies)(bob))
    await comm_o.disconnect()
    assert (await receive(comm_i, "absence"))["since"] is not None
    comm_o, _, _ = await connect(game, await database_sync_to_async(cookies)(bob))
    back = await receive(comm_i, "absence")
    assert back["side"] == "O" and back["since"] is None
    await comm_o.disconnect()
    await receive(comm_i, "absence")
    await Seat.objects.filter(game_id=game.pk, seat="O").aupdate(
        away=timezone.now() - timedelta(seconds=60))
    await comm_i.send_json_to({"type": "claim", "result": "null", "seq": "n1"})
    assert (await receive(comm_i, "ack"))["type"] == "ack"
    row = await Game.objects.aget(pk=game.pk)
    assert (row.winner, row.cause) == ("-", "abandonment")
    await comm_i.disconnect()


async def test_no_absence_claim_in_correspondence(players, cookies):
    alice = players[0]
    game = await database_sync_to_async(_game)(players, "correspondence 3d")
    comm_i, _, _ = await connect(game, await database_sync_to_async(cookies)(alice))
    await comm_i.send_json_to({"type": "claim", "result": "win", "seq": "x"})
    refused = await receive(comm_i, "rejected")
    assert refused["code"] == "illegal" and "correspondence" in refused["reason"]
    await comm_i.disconnect()


async def test_absence_marks_follow_the_game_and_the_seats(players):
    """The presence calls behind the messages above (``play.live.presence``): a socket closing
    on a game that is over marks nobody away; a player whose last socket closes is marked
    once (a later close keeps the first time, which the claim's limit counts from); a player
    arriving ends only their own absence and is told of the other seat's."""
    from play.live import presence

    game = await database_sync_to_async(_game)(players)
    left = await database_sync_to_async(presence.player_left)(game.pk, "O")
    assert left["side"] == "O" and left["since"] is not None
    since = (await Seat.objects.aget(game_id=game.pk, seat="O")).away
    again = await database_sync_to_async(presence.player_left)(game.pk, "O")
    assert again["since"] == left["since"]
    assert (await Seat.objects.aget(game_id=game.pk, seat="O")).away == since
    await database_sync_to_async(presence.player_left)(game.pk, "I")
    back, other = await database_sync_to_async(presence.player_arrived)(game.pk, "I")
    assert back == {"type": "absence", "side": "I", "since": None, "limit": 21_000}
    assert other["side"] == "O" and other["since"] == left["since"]
    seats = {s.seat: s.away async for s in Seat.objects.filter(game_id=game.pk)}
    assert seats == {"I": None, "O": since}
    back, other = await database_sync_to_async(presence.player_arrived)(game.pk, "O")
    assert back["side"] == "O" and back["since"] is None and other is None
    # Nobody away: an arrival tells nothing.
    assert await database_sync_to_async(presence.player_arrived)(game.pk, "I") == (None, None)
    # The game ends: its players' sockets close, and nobody is marked or told.
    await Game.objects.filter(pk=game.pk).aupdate(status=Game.FINISHED)
    assert await database_sync_to_async(presence.player_left)(game.pk, "I") is None
    assert (await Seat.objects.aget(game_id=game.pk, seat="I")).away is None
