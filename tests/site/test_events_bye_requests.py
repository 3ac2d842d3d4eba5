"""Byes a player asks for on the event page (issue 38): a half-point (H) or zero-point (Z)
bye for a future round of a Swiss, within the event's limit of half-point byes (C.04.1: the
regulations limit half-point byes; a zero-point bye, an absence told early, is not counted);
seen and cancelled by the player, seen by the arbiter, and made the round's byes when the
worker pairs it. Round robins take none (R42)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from registry.events import bye_requests, manual_pairing, pairer, rounds, services
from registry.events.access import EventError
from registry.events.models import ByeRequest, Event, Pairing
from registry.models import AffiliatedBody


def swiss(make_user, players: int = 6, max_byes: int = 1, system: str = "swiss"):
    body = AffiliatedBody.objects.create(registrar_id="CLUB-BYES", name="Bye club")
    arbiter = make_user("arbiter")
    body.registrars.add(arbiter)
    event = services.create_event(arbiter, body, name="Thursday Swiss", system=system,
                                  rounds=4 if system == "swiss" else 0, max_byes=max_byes)
    users = []
    for i in range(players):
        u = make_user(f"p{i}")
        services.register(u, event)
        users.append(u)
    return Event.objects.get(pk=event.pk), arbiter, users


def complete(event, arbiter, number: int) -> None:
    for p in Pairing.objects.filter(round__event=event, round__number=number,
                                    black__isnull=False):
        services.set_result(arbiter, event, p.pk, "1-0")


def bye_of(event, user, number: int) -> str | None:
    p = Pairing.objects.filter(round__event=event, round__number=number,
                               white__player__user=user, black__isnull=True).first()
    return p.bye if p else None


@pytest.mark.django_db
def test_requested_byes_are_the_rounds_byes_when_the_worker_pairs_it(make_user):
    event, arbiter, (p0, p1, p2, *_) = swiss(make_user)
    bye_requests.request_bye(p0, event, 2, "H")
    bye_requests.request_bye(p1, event, 2, "Z")
    bye_requests.request_bye(p2, event, 1, "Z")
    rounds.request_pairing(arbiter, event)  # round 1, by the worker's job
    assert pairer.run_due() == 1
    assert bye_of(event, p2, 1) == "Z" and bye_of(event, p0, 1) != "H"  # U: by the draw
    complete(event, arbiter, 1)
    rounds.request_pairing(arbiter, event)
    assert pairer.run_due() == 1
    assert bye_of(event, p0, 2) == "H" and bye_of(event, p1, 2) == "Z"
    assert Pairing.objects.filter(round__event=event, round__number=2,
                                  black__isnull=False).count() == 2
    # the half point counts in the standings
    assert Client().get(f"/events/{event.pk}/").status_code == 200


@pytest.mark.django_db
def test_the_arbiters_absence_wins_over_a_request(make_user):
    event, arbiter, (p0, *_) = swiss(make_user)
    bye_requests.request_bye(p0, event, 1, "H")
    rounds.pair_round(arbiter, event, absent={p0.player.player_id: "Z"})
    assert bye_of(event, p0, 1) == "Z"


@pytest.mark.django_db
def test_the_limit_counts_half_point_byes_only(make_user):
    event, arbiter, (p0, *_) = swiss(make_user, max_byes=1)
    bye_requests.request_bye(p0, event, 2, "H")
    with pytest.raises(EventError, match="allows 1 half-point bye a player"):
        bye_requests.request_bye(p0, event, 3, "H")
    bye_requests.request_bye(p0, event, 3, "Z")  # not counted
    bye_requests.request_bye(p0, event, 4, "Z")
    # a half-point bye had counts too: cancel round 2's, have one given, ask again
    bye_requests.cancel(p0, event, 2)
    rounds.pair_round(arbiter, event, absent={p0.player.player_id: "H"})
    assert bye_requests.half_byes(event, event.entries.get(player__user=p0)) == 1
    with pytest.raises(EventError, match="had or asked for them all"):
        bye_requests.request_bye(p0, event, 2, "H")


@pytest.mark.django_db
def test_refusals_are_in_words(make_user):
    event, arbiter, (p0, p1, *_) = swiss(make_user, max_byes=2)
    outsider = make_user("outsider")
    cases = [
        (lambda: bye_requests.request_bye(outsider, event, 2, "H"), "only a player"),
        (lambda: bye_requests.request_bye(p0, event, 2, "F"), "H (half a point) or Z"),
        (lambda: bye_requests.request_bye(p0, event, 5, "H"), "has 4 rounds"),
        (lambda: bye_requests.request_bye(p0, event, "2", "H"), "not a round number"),
    ]
    for call, words in cases:
        with pytest.raises(EventError, match=re.escape(words)):
            call()
    bye_requests.request_bye(p0, event, 2, "H")
    with pytest.raises(EventError, match="already asked for a bye in round 2"):
        bye_requests.request_bye(p0, event, 2, "Z")
    rounds.request_pairing(arbiter, event)  # round 1 waits for the worker
    with pytest.raises(EventError, match="round 1 is being paired"):
        bye_requests.request_bye(p1, event, 1, "Z")
    pairer.run_due()
    with pytest.raises(EventError, match="round 1 is already paired"):
        bye_requests.request_bye(p1, event, 1, "Z")
    complete(event, arbiter, 1)
    rounds.pair_round(arbiter, event)  # round 2: p0's bye used
    with pytest.raises(EventError, match="round 2 is already paired"):
        bye_requests.cancel(p0, event, 2)
    services.withdraw(p1, event, event.entries.get(player__user=p1))
    with pytest.raises(EventError, match="withdrawn"):
        bye_requests.request_bye(p1, event, 4, "Z")
    assert ByeRequest.objects.count() == 1


@pytest.mark.django_db
def test_no_requests_without_a_limit_nor_in_a_round_robin(make_user):
    event, arbiter, (p0, *_) = swiss(make_user, max_byes=0)
    with pytest.raises(EventError, match="takes no bye requests"):
        bye_requests.request_bye(p0, event, 1, "Z")
    body = event.body
    with pytest.raises(EventError, match="only a Swiss takes bye requests"):
        services.create_event(arbiter, body, name="RR", system="round_robin", max_byes=2)
    rr = services.create_event(arbiter, body, name="RR", system="round_robin")
    services.register(p0, rr)
    with pytest.raises(EventError, match="a round robin has no byes on request"):
        bye_requests.request_bye(p0, rr, 1, "Z")


@pytest.mark.django_db
def test_an_absent_player_is_not_paired_by_hand(make_user):
    event, arbiter, (p0, p1, *_) = swiss(make_user, players=5)
    bye_requests.request_bye(p0, event, 1, "H")
    rounds.pair_round(arbiter, event)
    with pytest.raises(EventError, match="half-point bye in round 1: an absent player"):
        manual_pairing.pair_players(arbiter, event, 1, p0.player.player_id,
                                    p1.player.player_id, "x")


@pytest.mark.django_db
def test_the_event_page_asks_shows_and_cancels(make_user):
    event, arbiter, (p0, *_) = swiss(make_user, max_byes=2)
    web = Client()
    web.force_login(p0)
    page = web.get(f"/events/{event.pk}/").content.decode()
    assert 'data-testid="bye-form"' in page and "half-point bye (2 left)" in page
    r = web.post(f"/events/{event.pk}/act/", {"action": "bye_request", "round": "3",
                                              "kind": "H"}, follow=True)
    page = r.content.decode()
    assert "You asked for a half-point bye in round 3." in page
    assert 'data-testid="my-bye-3"' in page and "half-point bye (1 left)" in page

    boss = Client()
    boss.force_login(arbiter)
    assert 'data-testid="waiting-byes"' in boss.get(f"/events/{event.pk}/").content.decode()

    r = web.post(f"/events/{event.pk}/act/", {"action": "bye_cancel", "round": "3"},
                 follow=True)
    assert "Your bye in round 3 is cancelled." in r.content.decode()
    assert not ByeRequest.objects.exists()
    r = web.post(f"/events/{event.pk}/act/", {"action": "bye_request", "round": "x",
                                              "kind": "H"}, follow=True)
    assert r.status_code == 200 and "not a round number" in r.content.decode()


@pytest.mark.django_db
def test_the_api_asks_lists_and_cancels(make_user):
    event, arbiter, (p0, *_) = swiss(make_user, max_byes=2)
    api = APIClient()
    api.force_authenticate(p0)
    url = f"/api/v1/events/{event.pk}/byes/"
    r = api.post(url, {"round": 2, "kind": "H"}, format="json")
    assert r.status_code == 201 and r.json()["round"] == 2
    assert api.post(url, {"round": 2, "kind": "H"}, format="json").status_code == 409
    assert api.post(url, [2], format="json").status_code == 400
    assert [b["round"] for b in api.get(url).json()["byes"]] == [2]
    boss = APIClient()
    boss.force_authenticate(arbiter)
    assert [b["player"] for b in boss.get(url).json()["byes"]] == [p0.player.player_id]
    assert api.post(f"{url}2/cancel/", format="json").status_code == 204
    assert api.post(f"{url}2/cancel/", format="json").status_code == 400


@pytest.mark.django_db
def test_the_setting_in_the_form_and_the_api(make_user):
    body = AffiliatedBody.objects.create(registrar_id="CLUB-FORM", name="Form club")
    registrar = make_user("registrar")
    body.registrars.add(registrar)
    web = Client()
    web.force_login(registrar)
    assert 'name="max_byes" type="number" min="0" max="99" value="2"' in web.get(
        "/events/").content.decode()
    web.post("/events/new/", {"body": "CLUB-FORM", "name": "Open", "system": "swiss",
                              "rounds": "5", "max_byes": "3", "scoring_model": "S1",
                              "venue": "online", "auto_arbiter": "warn"})
    assert Event.objects.get(name="Open").max_byes == 3
    web.post("/events/new/", {"body": "CLUB-FORM", "name": "All play all",
                              "system": "round_robin", "max_byes": "2", "scoring_model": "S1",
                              "venue": "online", "auto_arbiter": "warn"})
    assert Event.objects.get(name="All play all").max_byes == 0
    api = APIClient()
    api.force_authenticate(registrar)
    event = Event.objects.get(name="Open")
    r = api.patch(f"/api/v1/events/{event.pk}/", {"max_byes": 1}, format="json")
    assert r.status_code == 200 and r.json()["settings"]["max_byes"] == 1
    r = api.patch(f"/api/v1/events/{event.pk}/", {"max_byes": -1}, format="json")
    assert r.status_code == 400
