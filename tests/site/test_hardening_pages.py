"""Site pages and every way a name enters, against hostile input (issue 27): no server error,
names checked once (``play.games.text``), whatever the door. Runs again on PostgreSQL
(the services lane, ``tests/lanes.py``), where a NUL in a query is the database's error."""

from __future__ import annotations

import pytest
from django.urls import reverse

from registry.models import Player

pytestmark = pytest.mark.django_db

RLO = "\u202e"


@pytest.fixture(autouse=True)
def _no_error_logs(no_error_logs):
    """Any ERROR log line fails every test here (``tests/conftest.py``)."""


@pytest.mark.parametrize("path", ["/players/%00/", "/players/A%00B/", "/players/%ED%A0%80/",
                                  "/players/" + "A" * 300 + "/", "/leaderboard/%00/",
                                  "/games/00000000-0000-0000-0000-000000000000/stge/0/"])
def test_junk_in_a_path_is_not_found(client, path):
    """Finding 6: ``/players/%00/`` was a 500 on PostgreSQL (a NUL in the query)."""
    response = client.get(path)
    assert response.status_code == 404


def test_a_real_profile_still_shows(client, players):
    player = Player.objects.get(user=players[0])
    assert client.get(f"/players/{player.player_id}/").status_code == 200
    assert client.get(f"/players/{player.player_id.lower()}/").status_code == 200


def test_a_body_larger_than_the_site_takes_is_413(client):
    response = client.generic("POST", reverse("login"), "x" * (5 * 1024 * 1024),
                              content_type="application/x-www-form-urlencoded")
    assert response.status_code == 413
    assert b"too large" in response.content


@pytest.mark.parametrize("name", [f"evil{RLO}gnp.exe", "two\nlines", "nul\x00", "tab\there"])
def test_signup_refuses_a_misleading_name(client, name):
    response = client.post(reverse("signup"), {"username": name, "password1": "a-Long-pass-77",
                                               "password2": "a-Long-pass-77"})
    # The form again, with its error; a NUL is refused before any view reads the form (below).
    assert response.status_code == (400 if "\x00" in name else 200)
    assert not Player.objects.exists()


@pytest.mark.parametrize("name", [f"evil{RLO}gnp", "two\nlines", "cr\rhere", "\u2066iso"])
def test_register_player_refuses_a_misleading_name(name):
    """Finding 9, the management command's door (``register_player``)."""
    from registry.jobs import JobError, register_player

    with pytest.raises(JobError, match="name"):
        register_player(name)
    assert not Player.objects.exists()


def test_register_player_normalises_the_name():
    from registry.jobs import register_player

    assert register_player("  Ann   Le\u0301 ").display_name == "Ann L\u00e9"


def test_admin_refuses_a_misleading_name(client, django_user_model):
    admin = django_user_model.objects.create_superuser("root", password="pw-root-x1")
    client.force_login(admin)
    response = client.post("/admin/registry/player/add/", {
        "display_name": f"x{RLO}y", "player_id": "ABCDEFGHIJKLMNOPQR", "anpc": ""})
    assert response.status_code == 200 and b"bidirectional" in response.content
    assert not Player.objects.filter(player_id="ABCDEFGHIJKLMNOPQR").exists()


@pytest.mark.parametrize("query", ["q=%00", "q=a%00b", "%00=1", "o=%00"])
def test_a_nul_in_a_query_is_a_bad_request_even_in_the_admin(client, django_user_model, query):
    """The admin's search queried PostgreSQL with the NUL (a 500 there)."""
    admin = django_user_model.objects.create_superuser("root", password="pw-root-x1")
    client.force_login(admin)
    assert client.get(f"/admin/registry/player/?{query}").status_code == 400
    assert client.get(f"/leaderboard/S1/?page=1&{query}").status_code == 400
    assert client.get("/admin/registry/player/?q=ann").status_code == 200


@pytest.mark.parametrize("number", ["99999999999999999999999", "9223372036854775808"])
def test_numbers_beyond_the_database_are_no_such_thing(client, players, number):
    """An id past 64 bits in a path: no such challenge or record, not the database's error."""
    client.force_login(players[0])
    for action in ("accept", "cancel"):
        response = client.post(f"/challenges/{number}/accept/".replace("accept", action))
        assert response.status_code == 302  # back to the lobby, with the message
    page = client.get("/", follow=True).content.decode()
    assert "no longer open" in page
    record = f"/games/00000000-0000-0000-0000-000000000000/stse/{number}/"
    assert client.get(record).status_code == 404


# --- forms of the site's pages (beyond the findings) ----------------------------------------

@pytest.mark.parametrize("path,fields", [
    ("/events/new/", {"body": "CLUB\x00", "name": "n"}),
    ("/challenges/new/", {"variant": "standard", "opponent": "bo\x00b"}),
    ("/pool/join/", {"variant": "stan\x00dard", "pool": "fischer 180+2|1"}),
    ("/computer/new/", {"variant": "standard", "level": "3", "side": "I\x00"}),
    ("/players/me/anpc/", {"anpc": "1\x00"}),
])
def test_a_nul_in_any_form_field_is_a_bad_request(client, players, path, fields):
    """A NUL in a form field reached PostgreSQL from several pages (the event form's body
    lookup, the challenge's opponent: a DataError, a 500 there); no page takes one."""
    client.force_login(players[0])
    response = client.post(path, fields)
    assert response.status_code == 400, response.status_code
    assert b"NUL" in response.content


def test_a_form_with_too_many_fields_is_a_clear_400(client, players):
    client.force_login(players[0])
    body = "&".join(f"f{n}=1" for n in range(1500))
    response = client.generic("POST", "/challenges/new/", body,
                              content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert b"too many fields" in response.content


def test_a_form_over_the_memory_limit_is_a_clear_413(client, players, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100_000
    client.force_login(players[0])
    response = client.generic("POST", "/challenges/new/", "opponent=" + "x" * 200_000,
                              content_type="application/x-www-form-urlencoded")
    assert response.status_code == 413
    assert b"too large" in response.content
