"""A whole online Swiss (R41, R43): 8 players enter themselves, the arbiter pairs and starts 3
rounds, the games are played over the websocket protocol by simulated clients (resignations
and one null game by passes), one player never comes to their game and the arbiter decides it
as an unplayed game (R41), and every finished game reaches the standings at once through the
"game finished" subscription. The event's rated games are rated by its model (R25/R41)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from rest_framework.test import APIClient

from registry.events.models import Event, Pairing
from registry.models import AffiliatedBody, RatingChange, RegistryGame
from tests.site.pairing import run_pairing
from tests.site.wsutil import connect, receive

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def api(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


@database_sync_to_async
def setup_event(make_user):
    body = AffiliatedBody.objects.create(registrar_id="CLUB-ONLINE", name="Online club")
    arbiter = make_user("arbiter")
    body.registrars.add(arbiter)
    r = api(arbiter).post("/api/v1/events/", {
        "body": body.registrar_id, "name": "Online Swiss", "system": "swiss", "rounds": 3,
        "venue": "online", "rated": True, "scoring_model": "S2"}, format="json")
    assert r.status_code == 201, r.json()
    event = Event.objects.get(pk=r.json()["id"])
    users = [make_user(f"p{i}") for i in range(8)]
    for u in users:
        assert api(u).post(f"/api/v1/events/{event.pk}/entries/", {},
                           format="json").status_code == 201
    return event, arbiter, users


@database_sync_to_async
def pair_and_start(event, arbiter, number):
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/", {}, format="json")
    assert r.status_code == 202, r.json()
    run_pairing(event)
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/{number}/start/", format="json")
    assert r.status_code == 200, r.json()
    return list(Pairing.objects.filter(round__event=event, round__number=number,
                                       black__isnull=False)
                .select_related("game", "white__player__user", "black__player__user")
                .order_by("board"))


@database_sync_to_async
def my_pairings(user):
    from django.test import Client

    c = Client()
    c.force_login(user)
    return c.get("/events/mine/").content.decode()


async def result_of(pairing_pk: int) -> str:
    return (await Pairing.objects.aget(pk=pairing_pk)).result


async def resign(game, user, cookies):
    comm, _, _ = await connect(game, await database_sync_to_async(cookies)(user))
    await comm.send_json_to({"type": "resign", "seq": "gg"})
    assert (await receive(comm, "ack", "rejected"))["type"] == "ack"
    # the worker ran every "game finished" subscriber (the archive, then the event's results)
    await receive(comm, "game", timeout=30)
    await comm.disconnect()


async def archived(game_id: int, timeout: float = 30.0):
    """The registry's row of a game once the worker has archived it (the game ended by
    another's action: an arbiter's decision on an absent player, R41)."""
    import asyncio

    from registry.models import RegistryGame

    for _ in range(int(timeout / 0.1)):
        row = await RegistryGame.objects.filter(live_id=game_id).afirst()
        if row is not None and row.status == RegistryGame.FINISHED:
            return row
        await asyncio.sleep(0.1)
    raise AssertionError(f"game {game_id} was not archived in {timeout} s")


async def null_by_passes(game, white, black, cookies):
    """Three passes in a row (R12): a null game, a draw in the event (R43)."""
    comms = {"I": (await connect(game, await database_sync_to_async(cookies)(white)))[0],
             "O": (await connect(game, await database_sync_to_async(cookies)(black)))[0]}
    version = 0
    for n, side in enumerate("IOI"):
        await comms[side].send_json_to({"type": "pass", "version": version, "seq": f"p{n}"})
        ack = await receive(comms[side], "ack", "rejected")
        assert ack["type"] == "ack", ack
        update = await receive(comms[side], "update")
        while update["version"] < ack["version"]:
            update = await receive(comms[side], "update")
        version = update["version"]
    await receive(comms["I"], "game", timeout=30)
    for comm in comms.values():
        await comm.disconnect()


async def test_an_online_swiss_of_eight_players_over_three_rounds(make_user, cookies, worker):
    event, arbiter, _users = await setup_event(make_user)
    absent_key = None
    for number in (1, 2, 3):
        boards = await pair_and_start(event, arbiter, number)
        assert len(boards) == 4 and all(p.game_id for p in boards)
        # the players see their pairing and their game
        white = boards[0].white.player.user
        page = await my_pairings(white)
        assert f"/games/{boards[0].game.uuid}/" in page and "Online Swiss" in page
        for i, p in enumerate(boards):
            game, w, b = p.game, p.white.player.user, p.black.player.user
            assert (game.variant, game.rated, game.player_i_id, game.player_o_id) == (
                "standard", True, w.pk, b.pk)
            if number == 1 and i == 0:
                await null_by_passes(game, w, b, cookies)
                assert await result_of(p.pk) == "="
            elif number == 2 and i == 3:
                # black never comes: white waits at the board, the arbiter decides (R41)
                absent_key = p.black.key
                comm, _, _ = await connect(game, await database_sync_to_async(cookies)(w))
                r = await database_sync_to_async(api(arbiter).post)(
                    f"/api/v1/events/{event.pk}/rounds/2/results/",
                    {"pairing": p.pk, "result": "+-", "note": "black absent"}, format="json")
                assert r.status_code == 200, r.json()
                note = await receive(comm, "update")
                assert note["events"][-1]["kind"] == "note"
                assert "decided this event game" in note["events"][-1]["data"]["message"]
                await comm.disconnect()
                assert await result_of(p.pk) == "+-"
            else:
                loser = w if (number + i) % 2 else b
                await resign(game, loser, cookies)
                assert await result_of(p.pk) == ("0-1" if loser == w else "1-0")
    # standings: 3 rounds of 4 boards, one unplayed win; every point is there
    table = await database_sync_to_async(
        lambda: APIClient().get(f"/api/v1/events/{event.pk}/standings/").json())()
    assert sum(row["points"] for row in table["standings"]) == 12
    assert [row["rank"] for row in table["standings"]] == sorted(
        row["rank"] for row in table["standings"])
    absent_row = next(r for r in table["crosstable"] if r["key"] == absent_key)
    assert absent_row["rounds"][1]["result"] == "-"
    # the event's model rated its played games (R25/R41): S2 for both players
    models = await database_sync_to_async(lambda: set(RatingChange.objects.filter(
        game__live__event_pairing__round__event=event).values_list("model", flat=True)))()
    assert models == {"S2"}
    assert await RegistryGame.objects.filter(
        live__event_pairing__round__event=event, scoring_model="S2").acount() == 12
    r = await database_sync_to_async(api(arbiter).post)(f"/api/v1/events/{event.pk}/close/")
    assert r.status_code == 200 and r.json()["status"] == "closed"
