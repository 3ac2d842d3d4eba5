"""Submitting a game through the API (issue 6): a body uploads its signed STGE and STSE with its
token; accepted games are archived and rated, rejected ones get every reason and change
nothing."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from tests.api import helpers
from tests.registry.helpers import O_WINS


def _files(stge: str, stses: list[str]) -> dict:
    return {"stge": SimpleUploadedFile("game.yaml", stge.encode(), "application/yaml"),
            "stse": [SimpleUploadedFile(f"session-{n}.yaml", t.encode(), "application/yaml")
                     for n, t in enumerate(stses, 1)]}


def test_json_submission_accepted_listed_and_rated(body_client, body_keys, pair):
    stge, stses = helpers.records(body_keys.signer(), pair, splits=(20,))
    response = body_client.post("/api/v1/games/", {"stge": stge, "stse": stses}, format="json")
    assert response.status_code == 201, response.json()
    game = response.json()
    assert game["source"] == "submitted" and game["status"] == "finished"
    assert game["body"] == helpers.BODY_A and game["winner"] == "I"
    assert game["player_i"]["player_id"] == pair[0].player_id
    assert response["Location"].endswith(f"/api/v1/games/{game['game_id']}/")
    assert [r["name"] for r in game["records"]] == ["stge", "stse-1", "stse-2", "stdgs", "stgn"]
    assert {c["player_id"]: c["won"] for c in game["rating_changes"]} == {
        pair[0].player_id: True, pair[1].player_id: False}

    listed = body_client.get("/api/v1/games/", {"player": pair[1].player_id}).json()
    assert [g["game_id"] for g in listed["results"]] == [game["game_id"]]
    winner = body_client.get(f"/api/v1/players/{pair[0].player_id}/").json()
    loser = body_client.get(f"/api/v1/players/{pair[1].player_id}/").json()
    assert winner["rating"] > 250 > loser["rating"]
    assert winner["games"] == loser["games"] == 1
    history = body_client.get(f"/api/v1/players/{pair[0].player_id}/ratings/").json()
    assert history["results"][0]["game_id"] == game["game_id"]
    assert history["results"][0]["new_rating"] == winner["rating"]


def test_multipart_upload_accepted(body_client, body_keys, pair):
    stge, stses = helpers.records(body_keys.signer(), pair, O_WINS, splits=(6,))
    response = body_client.post("/api/v1/games/", _files(stge, stses), format="multipart")
    assert response.status_code == 201, response.json()
    assert response.json()["winner"] == "O"
    text = body_client.get(f"/api/v1/games/{response.json()['game_id']}/records/stse-2/")
    assert text.content.decode() == stses[1]


def test_rejected_submission_lists_every_reason_and_changes_nothing(body_client, body_keys,
                                                                     pair, body_a):
    helpers.add_game(body_a, *pair)  # real ratings to compare against
    stranger = helpers.make_player("Not Registered", None)
    stge, stses = helpers.records(body_keys.signer(), (stranger, stranger))
    stranger.delete()  # the records name a player the registry does not know
    before = helpers.registry_state()
    response = body_client.post("/api/v1/games/", {"stge": stge, "stse": stses}, format="json")
    assert response.status_code == 422
    body = response.json()
    assert body["detail"]
    reasons = body["reasons"]
    assert any("players.I.id" in r for r in reasons), reasons
    assert any("players.O.id" in r for r in reasons), reasons
    assert any("both sides" in r for r in reasons), reasons
    assert helpers.registry_state() == before


def test_tampered_upload_rejected_with_the_hash_reason(body_client, body_keys, pair):
    stge, stses = helpers.records(body_keys.signer(), pair, splits=(20,))
    tampered = stses[1].replace("Szeged, Hungary", "Budapest")
    before = helpers.registry_state()
    response = body_client.post("/api/v1/games/", _files(stge, [stses[0], tampered]),
                                format="multipart")
    assert response.status_code == 422
    assert any("hash" in r for r in response.json()["reasons"]), response.json()
    assert helpers.registry_state() == before


def test_malformed_requests_are_400_with_the_field(body_client, body_keys, pair):
    stge, stses = helpers.records(body_keys.signer(), pair)
    before = helpers.registry_state()
    cases = [
        ({"stge": stge}, "json", "stse"),
        ({"stse": stses}, "json", "stge"),
        ({"stge": stge, "stse": [7]}, "json", "stse"),
        ({"stge": SimpleUploadedFile("g.yaml", b"\xff\xfe\x00bad"), "stse": stses},
         "multipart", "stge"),
    ]
    for data, fmt, field in cases:
        response = body_client.post("/api/v1/games/", data, format=fmt)
        assert response.status_code == 400, (field, response.content)
        assert field in response.json()["errors"], response.json()
    not_an_object = body_client.post("/api/v1/games/", [1, 2], format="json")
    assert not_an_object.status_code == 400
    garbage = body_client.post("/api/v1/games/", "{not json", content_type="application/json")
    assert garbage.status_code == 400 and garbage.json()["detail"]
    assert helpers.registry_state() == before


def test_registrar_login_submits_for_their_body(body_a, body_keys, pair):
    user = get_user_model().objects.create_user("clerk", password="pw-clerk-x1")
    body_a.registrars.add(user)
    clerk = APIClient()
    clerk.force_login(user)
    stge, stses = helpers.records(body_keys.signer(), pair)
    response = clerk.post("/api/v1/games/", {"stge": stge, "stse": stses}, format="json")
    assert response.status_code == 201, response.json()
    from registry.models import AuditEntry

    entry = AuditEntry.objects.get(action="submit")
    assert entry.actor_user == user and entry.actor_body == body_a
