"""Issue 40: pairing a round is a job of the worker (registry/events/pairer.py). The page's
button and the API only ask (202, the pairing's state); the worker pairs the round once however
many arbiters press and however many workers run; a killed worker's claim runs out and the
round is paired by the next; the arbiter sees the progress and the players "being paired",
and a round that cannot be paired says why."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from registry.events import pairer, rounds, services
from registry.events.models import Event, PairingRequest, Round
from registry.events.pairing import swiss
from registry.models import AffiliatedBody
from registry.services import player_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def arbiter(make_user):
    body = AffiliatedBody.objects.create(registrar_id="CLUB-JOBS", name="Jobs club")
    user = make_user("arbi")
    body.registrars.add(user)
    return user


def swiss_event(arbiter, guests: int, rounds: int = 5) -> Event:
    body = AffiliatedBody.objects.get(registrar_id="CLUB-JOBS")
    event = services.create_event(arbiter, body, name="Friday Swiss", rounds=rounds,
                                  venue="board")
    for i in range(guests):
        services.enter_player(arbiter, event, f"Guest {i}", 2000 - 7 * i)
    return event


def api(user=None) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


def page_client(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_the_api_answers_202_with_the_state_and_the_worker_pairs_the_round(arbiter):
    event = swiss_event(arbiter, 5)
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/", {}, format="json")
    assert r.status_code == 202
    assert r.json() == {"pairing": {"number": 1, "state": "queued", "done": 0, "total": 0,
                                    "error": None}, "rounds": 0}
    assert not Round.objects.exists()  # the request paired nothing
    assert api().get(f"/api/v1/events/{event.pk}/").json()["pairing"]["state"] == "queued"
    assert pairer.run_due() == 1
    assert api().get(f"/api/v1/events/{event.pk}/rounds/").json() == {"pairing": None,
                                                                      "rounds": 1}
    detail = api().get(f"/api/v1/events/{event.pk}/").json()
    assert detail["pairing"] is None and len(detail["rounds"][0]["pairings"]) == 3


def test_two_arbiters_and_the_button_ask_once_and_two_workers_pair_once(arbiter, make_user):
    event = swiss_event(arbiter, 6)
    second = make_user("arbo")
    event.arbiters.add(second)
    assert api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/").status_code == 202
    assert api(second).post(f"/api/v1/events/{event.pk}/rounds/").status_code == 202
    r = page_client(second).post(f"/events/{event.pk}/act/", {"action": "pair"}, follow=True)
    assert "Round 1 is being paired" in r.content.decode()
    assert PairingRequest.objects.filter(event=event).count() == 1
    # two workers look at once: one claims, the other finds nothing to do
    first = pairer.claim("worker-a")
    assert first is not None and pairer.claim("worker-b") is None
    # while it is claimed, a third press is still the same request
    assert api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/").json()["pairing"][
        "state"] == "running"
    assert pairer.pair_claimed(first, "worker-a")
    assert pairer.run_due() == 0
    assert list(event.event_rounds.values_list("number", flat=True)) == [1]
    assert event.event_rounds.get().pairings.count() == 6 // 2


def test_a_killed_workers_claim_runs_out_and_the_next_worker_pairs_the_round(arbiter):
    event = swiss_event(arbiter, 7)
    rounds.request_pairing(arbiter, event)
    dead = pairer.claim("worker-killed")  # ... and the worker is killed before it pairs
    assert dead is not None
    assert pairer.run_due() == 0 and not Round.objects.exists()  # its lease still runs
    PairingRequest.objects.update(lease_until=timezone.now() - timedelta(seconds=1))
    assert pairer.run_due() == 1
    assert list(event.event_rounds.values_list("number", flat=True)) == [1]
    # a worker that was only slow, not dead, finds its claim gone and writes nothing
    assert not pairer.pair_claimed(dead, "worker-killed")
    assert event.event_rounds.count() == 1 and not PairingRequest.objects.exists()


def test_progress_reaches_the_arbiters_page_and_players_see_being_paired(arbiter, make_user,
                                                                        monkeypatch):
    event = swiss_event(arbiter, 47)
    pia = make_user("pia")
    services.enter_player(arbiter, event, "", 0, player_of(pia).player_id)
    rounds.request_pairing(arbiter, event)
    seen: list[dict] = []
    pair_round = swiss.pair_round

    def watched(t, absent, progress):
        def told(done, total):
            progress(done, total)
            if done and not seen:  # the first progress written: what the pages show then
                seen.append({
                    "state": Client().get(f"/events/{event.pk}/pairing/").json()["pairing"],
                    "arbiter": page_client(arbiter).get(f"/events/{event.pk}/").content.decode(),
                    "player": page_client(pia).get(f"/events/{event.pk}/").content.decode()})
        return pair_round(t, absent, told)

    monkeypatch.setattr(swiss, "pair_round", watched)
    monkeypatch.setattr(pairer, "PROGRESS_EVERY", 0)
    assert pairer.run_due() == 1
    state, arbiter_page, player_page = seen[0]["state"], seen[0]["arbiter"], seen[0]["player"]
    assert state["state"] == "running" and state["total"] == 48 and 0 < state["done"] < 48
    assert f'{state["done"]} of 48 players paired' in arbiter_page
    assert "Round 1: pairing…" in arbiter_page and "data-pairing-poll" in arbiter_page
    assert "events/pairing.js" in arbiter_page  # the page polls, and reloads when done
    assert "Round 1 is being paired." in player_page and "players paired" not in player_page
    # done: the state is gone and the pages show the round
    assert Client().get(f"/events/{event.pk}/pairing/").json() == {"pairing": None}
    done_page = page_client(pia).get(f"/events/{event.pk}/").content.decode()
    assert 'data-testid="round-1"' in done_page and "being paired" not in done_page


def test_a_round_that_cannot_be_paired_says_why_and_can_be_asked_again(arbiter, make_user):
    event = swiss_event(arbiter, 3, rounds=4)
    for number in (1, 2, 3):  # three players, three rounds: everyone has met everyone
        rnd = rounds.pair_round(arbiter, event)
        for p in rnd.pairings.filter(black__isnull=False):
            services.set_result(arbiter, event, p.pk, "1-0", number)
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/")
    assert r.status_code == 202
    assert pairer.run_due() == 1
    state = api().get(f"/api/v1/events/{event.pk}/rounds/").json()["pairing"]
    assert state["state"] == "failed" and "round 4 cannot be paired" in state["error"]
    assert event.event_rounds.count() == 3
    page = page_client(arbiter).get(f"/events/{event.pk}/").content.decode()
    assert "Round 4 could not be paired: round 4 cannot be paired" in page
    assert 'data-testid="pair"' in page  # the button is back, to ask again
    other = page_client(make_user("watcher")).get(f"/events/{event.pk}/").content.decode()
    assert "could not be paired" not in other and "being paired" not in other
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/")
    assert r.json()["pairing"] == {"number": 4, "state": "queued", "done": 0, "total": 0,
                                   "error": None}


def test_what_can_be_refused_at_once_is_refused_when_asked(arbiter):
    event = swiss_event(arbiter, 4)
    rounds.pair_round(arbiter, event)
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/")
    assert r.status_code == 409 and "round 1 is not complete" in r.json()["detail"]
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/",
                          {"force": True, "absent": {"NOBODY": "H"}}, format="json")
    assert r.status_code == 400 and "NOBODY is not a player" in r.json()["detail"]
    assert not PairingRequest.objects.exists()
