"""The events' ways in check their strings as every external string is checked (issue 27,
beyond the findings; ``play.games.text``): an event's name and a guest's name are names (one
line, no bidirectional control, at most 200 characters, normalised), and a player id, a body's
registrar id or a name holding a NUL is a clear 400 or a message on the page, never the
PostgreSQL ``DataError`` of a 500 (this module runs again on PostgreSQL: the services lane of
``tests/lanes.py``).
Nothing is created by a refused request."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from registry.events.models import Entry, Event

pytestmark = pytest.mark.django_db

BAD_NAMES = ["evil\u202egnp.exe", "two\nlines", "nul\x00inside", "x" * 201, "   "]


def _api(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


@pytest.fixture
def event(registrar):
    body, user = registrar
    r = _api(user).post("/api/v1/events/", {"body": body.registrar_id, "name": "Board night",
                                            "system": "swiss", "rounds": 3, "venue": "board"},
                        format="json")
    assert r.status_code == 201, r.json()
    return Event.objects.get(pk=r.json()["id"])


@pytest.mark.parametrize("name", BAD_NAMES)
def test_an_event_name_is_checked_as_a_name(registrar, name, no_error_logs):
    body, user = registrar
    r = _api(user).post("/api/v1/events/", {"body": body.registrar_id, "name": name,
                                            "system": "swiss", "rounds": 3},
                        format="json")
    assert r.status_code == 400, r.content
    assert not Event.objects.exists()


@pytest.mark.parametrize("name", BAD_NAMES)
def test_renaming_an_event_is_checked_too(event, registrar, name, no_error_logs):
    r = _api(registrar[1]).patch(f"/api/v1/events/{event.pk}/", {"name": name}, format="json")
    assert r.status_code == 400, r.content
    event.refresh_from_db()
    assert event.name == "Board night"


def test_an_event_name_is_stored_normalised(registrar):
    body, user = registrar
    r = _api(user).post("/api/v1/events/", {"body": body.registrar_id,
                                            "name": "  Tuesday\u00a0  Swiss ",
                                            "system": "swiss", "rounds": 3}, format="json")
    assert r.status_code == 201 and r.json()["name"] == "Tuesday Swiss"


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_guest_name_is_checked_as_a_name(event, registrar, name, no_error_logs):
    r = _api(registrar[1]).post(f"/api/v1/events/{event.pk}/entries/",
                                {"name": name, "rating": 1200}, format="json")
    assert r.status_code == 400, r.content
    assert not Entry.objects.exists()


@pytest.mark.parametrize("player_id", ["\x00", "TALU\x00", "a\u202eb", "x" * 500])
def test_a_player_id_that_cannot_be_one_is_a_400(event, registrar, player_id, no_error_logs):
    r = _api(registrar[1]).post(f"/api/v1/events/{event.pk}/entries/",
                                {"player_id": player_id}, format="json")
    assert r.status_code == 400, r.content
    assert not Entry.objects.exists()


@pytest.mark.parametrize("where", ["import", "create"])
def test_a_body_id_with_a_nul_is_no_such_body(registrar, where, no_error_logs):
    user = registrar[1]
    if where == "import":
        r = _api(user).post("/api/v1/events/import/", {"body": "CLUB\x00", "trf": "012 X\n"},
                            format="json")
    else:
        r = _api(user).post("/api/v1/events/", {"body": "CLUB\x00", "name": "n",
                                                "system": "swiss", "rounds": 3}, format="json")
    assert r.status_code == 400, r.content
    assert not Event.objects.exists()


def test_an_imported_name_with_a_nul_is_refused(registrar, no_error_logs):
    body, user = registrar
    trf = ("012 Imported\x00 open\n"
           "001    1      Guest One                          1500\n")
    r = _api(user).post("/api/v1/events/import/", {"body": body.registrar_id, "trf": trf},
                        format="json")
    assert r.status_code == 400, r.content
    assert not Event.objects.exists()


@pytest.mark.parametrize("name", ["nul\x00inside", "x" * 201, "evil\u202egnp"])
def test_the_event_page_form_refuses_a_bad_name_in_words(client, registrar, name,
                                                         no_error_logs):
    body, user = registrar
    client.force_login(user)
    r = client.post("/events/new/", {"body": body.registrar_id, "name": name,
                                     "system": "swiss", "rounds": "3"}, follow=True)
    assert r.status_code in (200, 400), r.status_code
    assert not Event.objects.exists()


def test_the_event_page_form_with_a_nul_body_is_refused(client, registrar, no_error_logs):
    client.force_login(registrar[1])
    r = client.post("/events/new/", {"body": "CLUB\x00", "name": "n", "system": "swiss",
                                     "rounds": "3"}, follow=True)
    assert r.status_code in (200, 400)
    assert not Event.objects.exists()


@pytest.mark.parametrize("data", [{"pairing": 2 ** 70, "result": "1-0"},
                                  {"pairing": -(2 ** 63) - 1, "result": "1-0"},
                                  {"pairing": "1", "result": "1-0"},
                                  {"pairing": 1, "game_id": "not-a-uuid"},
                                  {"pairing": 2 ** 70, "game_id": "00000000-0000-0000-0000-"
                                                                  "000000000000"},
                                  {"pairing": [1], "result": ["1-0"], "note": {"x": 1}}])
def test_a_result_naming_no_board_is_a_clear_refusal(event, registrar, data, no_error_logs):
    """Numbers past 64 bits and ids of the wrong shape name no board: a 4xx, never the
    database's error."""
    from registry.events import rounds, services
    from registry.events.models import Pairing

    for n in range(4):
        services.enter_player(registrar[1], event, f"Guest {n}", 1500 - n)
    rounds.pair_round(registrar[1], event)
    before = sorted(Pairing.objects.values_list("pk", "result"))
    assert before
    r = _api(registrar[1]).post(f"/api/v1/events/{event.pk}/rounds/1/results/", data,
                                format="json")
    assert 400 <= r.status_code < 500, r.content
    assert sorted(Pairing.objects.values_list("pk", "result")) == before


@pytest.mark.parametrize("rounds", ["40000", "-5", "100", "99999999999"])
def test_the_event_forms_refuse_rounds_out_of_range_in_words(client, registrar, event, rounds,
                                                             no_error_logs):
    """Issue 41: the API took 0-99 rounds but the page's forms took any number, and more than
    a smallint was PostgreSQL's DataError (a 500). Both forms now answer in words."""
    body, user = registrar
    client.force_login(user)
    r = client.post("/events/new/", {"body": body.registrar_id, "name": "Marathon",
                                     "system": "swiss", "rounds": rounds}, follow=True)
    assert r.status_code == 400  # the form again, as typed (issue 38)
    assert "rounds must be a whole number from 0 to 99" in r.content.decode()
    assert 'value="Marathon"' in r.content.decode()
    assert not Event.objects.filter(name="Marathon").exists()
    r = client.post(f"/events/{event.pk}/act/", {"action": "settings", "name": "Board night",
                                                 "rounds": rounds}, follow=True)
    assert "rounds must be a whole number from 0 to 99" in r.content.decode()
    event.refresh_from_db()
    assert event.rounds == 3
