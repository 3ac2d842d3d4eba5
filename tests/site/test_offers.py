"""Offers between players (issue 39): a null game offered in a talu game (``Variant.offers``)
and accepted ends it null by agreement, unrated, with its records; one declined or withdrawn
leaves the game live and a further offer may follow; an offer lapses when the opponent moves;
a spectator offers nothing. The game's metadata tells the page which offers the variant
allows (``offers``), so the page shows "Offer a null game" and never "Offer a draw"."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from play.commands.path import execute
from play.commands.player import submission
from play.lifecycle import start_game
from play.models import Game
from play.worker.loop import run_due
from registry.models import GameRecord, RatingChange, RegistryGame
from tests.site.wsutil import connect, receive, step

pytestmark = pytest.mark.django_db(transaction=True)


async def _pair(game, players, cookies):
    alice, bob, _ = players
    comm_i, _, first = await connect(game, await database_sync_to_async(cookies)(alice))
    comm_o, _, _ = await connect(game, await database_sync_to_async(cookies)(bob))
    return comm_i, comm_o, first


async def _update_at(comm, version: int) -> dict:
    """The first update ``comm`` hears at ``version`` or later (earlier ones skipped)."""
    while True:
        update = await receive(comm, "update")
        if update["version"] >= version:
            return update


async def _offer_state(comm, version: int = 1) -> dict | None:
    """The offer standing in the update at ``version`` that ``comm`` hears."""
    return (await _update_at(comm, version))["state"].get("offer")


@pytest.mark.asyncio
async def test_a_null_offer_accepted_ends_the_game_null(game, players, cookies):
    comm_i, comm_o, first = await _pair(game, players, cookies)
    try:
        assert first["game"]["offers"] == ["null"]  # talu: a null game, never a draw
        await comm_i.send_json_to({"type": "offer", "what": "null", "seq": "n1"})
        assert (await receive(comm_i, "ack"))["type"] == "ack"
        offer = await _offer_state(comm_o)  # bob sees it standing
        assert (offer["what"], offer["side"], offer["seats"]) == ("null", "I", ["I"])
        await comm_o.send_json_to({"type": "offer", "what": "null", "seq": "n2"})
        assert (await receive(comm_o, "ack"))["type"] == "ack"
        outcome = (await _update_at(comm_i, 2))["state"]["outcome"]
        assert outcome["winner"] is None and outcome["cause"] == "agreement"
        assert outcome["text"] == "Null game: both players agreed to it (no winner, not rated)"
    finally:
        await comm_i.disconnect()
        await comm_o.disconnect()
    row = await Game.objects.aget(pk=game.pk)
    assert (row.status, row.winner, row.cause) == ("finished", "-", "agreement")


@pytest.mark.asyncio
async def test_a_declined_offer_leaves_the_game_live_and_another_may_follow(game, players,
                                                                            cookies):
    comm_i, comm_o, _ = await _pair(game, players, cookies)
    try:
        await comm_i.send_json_to({"type": "offer", "what": "null", "seq": "n1"})
        await receive(comm_i, "ack")
        assert (await _offer_state(comm_o))["side"] == "I"
        await comm_o.send_json_to({"type": "decline", "seq": "d1"})
        assert (await receive(comm_o, "ack"))["type"] == "ack"
        update = await _update_at(comm_i, 2)
        assert update["state"].get("offer") is None and update["state"]["outcome"] is None
        # the game plays on, and a further offer stands again; its maker withdraws it
        await comm_i.send_json_to(step("A2", "A3", update["version"], "s1"))
        assert (await receive(comm_i, "ack"))["type"] == "ack"
        await comm_i.send_json_to({"type": "offer", "what": "null", "seq": "n2"})
        assert (await receive(comm_i, "ack"))["type"] == "ack"
        await comm_i.send_json_to({"type": "offer", "what": "null", "seq": "n3"})
        again = await receive(comm_i, "rejected")  # not twice
        assert "already" in again["reason"]
        await comm_i.send_json_to({"type": "decline", "seq": "w1"})  # withdrawn
        assert (await receive(comm_i, "ack"))["type"] == "ack"
    finally:
        await comm_i.disconnect()
        await comm_o.disconnect()
    row = await Game.objects.aget(pk=game.pk)
    assert row.is_live
    kinds = await database_sync_to_async(
        lambda: [k for k in row.events.order_by("version").values_list("kind", flat=True)])()
    assert kinds == ["offer", "decline", "step", "offer", "decline"]


@pytest.mark.asyncio
async def test_an_offer_lapses_when_the_opponent_moves(game, players, cookies):
    comm_i, comm_o, _ = await _pair(game, players, cookies)
    try:
        await comm_i.send_json_to(step("A2", "A3", 0, "s1"))
        await receive(comm_i, "ack")
        await comm_i.send_json_to({"type": "end", "version": 1, "seq": "e1"})
        await receive(comm_i, "ack")
        await comm_i.send_json_to({"type": "offer", "what": "null", "seq": "n1"})
        await receive(comm_i, "ack")
        # bob moves instead of answering: his first step leaves it standing, the end of
        # his turn lapses it
        await comm_o.send_json_to(step("H7", "H6", 3, "o1"))
        assert (await receive(comm_o, "ack"))["type"] == "ack"
        assert (await _offer_state(comm_o, 4))["side"] == "I"
        await comm_o.send_json_to({"type": "end", "version": 4, "seq": "o2"})
        assert (await receive(comm_o, "ack"))["type"] == "ack"
        assert await _offer_state(comm_i, 5) is None
        # bob's "offer" now is an offer of his own, not an acceptance: the game goes on
        await comm_o.send_json_to({"type": "offer", "what": "null", "seq": "o3"})
        assert (await receive(comm_o, "ack"))["type"] == "ack"
        offer = await _offer_state(comm_i, 6)
        assert (offer["side"], offer["seats"]) == ("O", ["O"])
    finally:
        await comm_i.disconnect()
        await comm_o.disconnect()
    row = await Game.objects.aget(pk=game.pk)
    assert row.is_live and row.winner == ""


@pytest.mark.asyncio
async def test_a_spectator_cannot_offer(game, players, cookies):
    carol = players[2]
    comm, welcome, _ = await connect(game, await database_sync_to_async(cookies)(carol))
    try:
        assert welcome["role"] == "spectator"
        for i, msg in enumerate([{"type": "offer", "what": "null"}, {"type": "decline"}]):
            await comm.send_json_to({**msg, "seq": f"c{i}"})
            refused = await receive(comm, "rejected")
            assert refused["code"] == "spectator", refused
    finally:
        await comm.disconnect()
    assert (await Game.objects.aget(pk=game.pk)).version == 0


def _offer(game: Game, user, what: str = "null"):
    game.refresh_from_db()
    sub = submission({"type": "offer", "what": what, "seq": f"{user.pk}-{what}"},
                     game.uuid, game.side_of(user))
    return execute(sub)


def test_a_null_game_by_agreement_is_archived_unrated(make_user):
    """Archived as a null game (winner "-"), with its records, and no rating changes."""
    alice, bob = make_user("alice"), make_user("bob")
    game = start_game(alice, bob, variant="standard", rated=True)
    assert _offer(game, alice).ok
    assert _offer(game, bob).ok
    run_due()
    archived = RegistryGame.objects.get(live=game)
    assert archived.winner == "-" and archived.status == "finished"
    assert archived.rated and not archived.counts_for_rating  # a rated game, null: no rating
    assert RatingChange.objects.filter(game=archived).count() == 0
    kinds = set(GameRecord.objects.filter(game=archived).values_list("kind", flat=True))
    assert {"STGE", "STSE"} <= kinds
    stse = GameRecord.objects.get(game=archived, kind="STSE").content
    assert "- '!: -'" in stse  # the session's result line: a null game (R31)
