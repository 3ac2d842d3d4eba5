"""Annulling and correcting a game through the API (issue 6): the game's body (or a registrar,
or staff) strikes or replaces it, ratings are recomputed, and the change is audited."""

from __future__ import annotations

import pytest

from registry.models import AuditEntry, Player
from tests.api import helpers
from tests.registry.helpers import O_WINS


@pytest.fixture
def submitted(body_client, body_keys, pair):
    """A game submitted through the API (with its records), and its STGE/STSE texts."""
    game_id = "5f0c1c7e-8a8e-4c59-9b1e-1d2f3a4b5c6d"
    stge, stses = helpers.records(body_keys.signer(), pair, game_id=game_id)
    response = body_client.post("/api/v1/games/", {"stge": stge, "stse": stses}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def _rating(player) -> int:
    return Player.objects.get(pk=player.pk).rating


def test_annul_restores_ratings_and_is_audited(body_client, submitted, pair):
    assert _rating(pair[0]) > 250
    response = body_client.post(f"/api/v1/games/{submitted['game_id']}/annul/",
                                {"reason": "wrong players entered"}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "annulled"
    assert response.json()["rating_changes"] == []
    assert _rating(pair[0]) == _rating(pair[1]) == 250
    entry = AuditEntry.objects.get(action="annul")
    assert entry.reason == "wrong players entered" and entry.actor_body.registrar_id == \
        helpers.BODY_A
    annulled = body_client.get("/api/v1/games/", {"status": "annulled"}).json()
    assert [g["game_id"] for g in annulled["results"]] == [submitted["game_id"]]


def test_annul_twice_is_a_conflict(body_client, submitted):
    url = f"/api/v1/games/{submitted['game_id']}/annul/"
    assert body_client.post(url, {"reason": "once"}, format="json").status_code == 200
    again = body_client.post(url, {"reason": "twice"}, format="json")
    assert again.status_code == 409
    assert "already annulled" in again.json()["detail"]
    assert AuditEntry.objects.filter(action="annul").count() == 1


def test_annul_needs_a_reason(body_client, submitted):
    before = helpers.registry_state()
    for data in ({}, {"reason": ""}, {"reason": "x" * 2001}):
        response = body_client.post(f"/api/v1/games/{submitted['game_id']}/annul/", data,
                                    format="json")
        assert response.status_code == 400 and "reason" in response.json()["errors"]
    assert helpers.registry_state() == before


def test_a_fault_inside_an_annulment_is_a_500_not_a_conflict(body_client, submitted,
                                                              monkeypatch):
    """Only the game's state is a 409; any other error in the ledger is the server's fault:
    a plain JSON 500 that shows nothing of it, and nothing written."""
    from registry.api import views

    def broken(*args, **kwargs):
        raise ValueError("internal detail 7f3a")

    monkeypatch.setattr(views, "annul_game", broken)
    before = helpers.registry_state()
    response = body_client.post(f"/api/v1/games/{submitted['game_id']}/annul/",
                                {"reason": "wrong players entered"}, format="json")
    assert response.status_code == 500
    assert "7f3a" not in response.content.decode() and response.json()["detail"]
    assert helpers.registry_state() == before


def test_annul_unknown_game_is_404(body_client, db):
    response = body_client.post("/api/v1/games/00000000-0000-4000-8000-000000000000/annul/",
                                {"reason": "x"}, format="json")
    assert response.status_code == 404 and response.json()["detail"]


def test_correction_replaces_the_sessions_and_flips_the_result(body_client, body_keys, pair,
                                                               submitted):
    _, corrected = helpers.records(body_keys.signer(), pair, O_WINS,
                                   game_id=submitted["game_id"])
    response = body_client.post(f"/api/v1/games/{submitted['game_id']}/correct/",
                                {"reason": "result entered wrongly", "stse": corrected},
                                format="json")
    assert response.status_code == 200, response.json()
    game = response.json()
    assert game["winner"] == "O" and game["revision"] == 1
    assert _rating(pair[1]) > 250 > _rating(pair[0])
    old = body_client.get(f"/api/v1/games/{submitted['game_id']}/records/stse-1/",
                          {"revision": 0})
    assert old.status_code == 200 and old.content.decode() != corrected[0]
    new = body_client.get(f"/api/v1/games/{submitted['game_id']}/records/stse-1/")
    assert new.content.decode() == corrected[0]


def test_bad_correction_lists_reasons_and_changes_nothing(body_client, body_keys, pair,
                                                          submitted):
    _, other_game = helpers.records(body_keys.signer(), pair, O_WINS)  # chained to another STGE
    before = helpers.registry_state()
    response = body_client.post(f"/api/v1/games/{submitted['game_id']}/correct/",
                                {"reason": "try", "stse": other_game}, format="json")
    assert response.status_code == 422
    assert response.json()["reasons"]
    assert helpers.registry_state() == before
