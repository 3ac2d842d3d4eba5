"""Who may write (issue 6): a body submits only its own games, a player cannot annul, anonymous
clients cannot write at all, and a revoked token is refused. Every refusal changes nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.api import helpers
from tests.api.conftest import token_client


@pytest.fixture
def game(body_a, pair):
    return helpers.add_game(body_a, *pair)


def _login(name: str, **flags) -> tuple[APIClient, object]:
    user = get_user_model().objects.create_user(name, password=f"pw-{name}-x1", **flags)
    c = APIClient()
    c.force_login(user)
    return c, user


def test_body_cannot_submit_another_bodys_records(token_b, body_keys, pair):
    """Body B uploads a game signed by body A: refused with the reason, nothing written."""
    stge, stses = helpers.records(body_keys.signer(), pair)  # signed by body A (Szeged)
    before = helpers.registry_state()
    response = token_client(token_b).post("/api/v1/games/", {"stge": stge, "stse": stses},
                                          format="json")
    assert response.status_code == 422
    reasons = response.json()["reasons"]
    assert any(helpers.BODY_A in r or "registrar" in r or "signature" in r
               for r in reasons), reasons
    assert helpers.registry_state() == before


def test_token_cannot_speak_for_another_body(body_client, body_b, body_keys, pair):
    stge, stses = helpers.records(body_keys.signer(), pair)
    before = helpers.registry_state()
    response = body_client.post("/api/v1/games/",
                                {"stge": stge, "stse": stses, "body": helpers.BODY_B},
                                format="json")
    assert response.status_code == 403
    assert helpers.BODY_A in response.json()["detail"]
    assert helpers.registry_state() == before


def test_anonymous_cannot_write(client, game, body_keys, pair):
    stge, stses = helpers.records(body_keys.signer(), pair)
    before = helpers.registry_state()
    for path, data in [("/api/v1/games/", {"stge": stge, "stse": stses}),
                       (f"/api/v1/games/{game.game_id}/annul/", {"reason": "no"}),
                       (f"/api/v1/games/{game.game_id}/correct/", {"reason": "no",
                                                                    "stse": stses}),
                       ("/api/v1/players/", {"display_name": "Someone"})]:
        response = client.post(path, data, format="json")
        assert response.status_code == 401, path
        assert response.json()["detail"]
        assert response["WWW-Authenticate"] == "Token"
    assert helpers.registry_state() == before


def test_player_login_cannot_annul(game):
    player, _ = _login("justaplayer")
    before = helpers.registry_state()
    response = player.post(f"/api/v1/games/{game.game_id}/annul/", {"reason": "I lost"},
                           format="json")
    assert response.status_code == 403
    assert "registrar" in response.json()["detail"]
    assert helpers.registry_state() == before
    game.refresh_from_db()
    assert game.status == "finished"


def test_other_bodys_token_and_registrar_cannot_annul(game, token_b, body_b):
    registrar, user = _login("pecsclerk")
    body_b.registrars.add(user)
    before = helpers.registry_state()
    by_token = token_client(token_b).post(f"/api/v1/games/{game.game_id}/annul/",
                                          {"reason": "not ours"}, format="json")
    assert by_token.status_code == 403
    by_login = registrar.post(f"/api/v1/games/{game.game_id}/annul/", {"reason": "not ours"},
                              format="json")
    assert by_login.status_code == 403
    assert helpers.registry_state() == before


def test_staff_can_annul(game):
    staff, _ = _login("admin", is_staff=True)
    response = staff.post(f"/api/v1/games/{game.game_id}/annul/", {"reason": "arbiter ruling"},
                          format="json")
    assert response.status_code == 200 and response.json()["status"] == "annulled"


def test_only_a_token_registers_players(body_client, body_a):
    staff, _ = _login("admin2", is_staff=True)
    assert staff.post("/api/v1/players/", {"display_name": "X"},
                      format="json").status_code == 403
    created = body_client.post("/api/v1/players/", {"display_name": "  New Player "},
                               format="json")
    assert created.status_code == 201
    assert created.json()["name"] == "New Player" and created.json()["body"] == helpers.BODY_A
    assert created.json()["metrics"]["promotion"]["next"] == "S2"


@pytest.mark.parametrize("header", ["Token talu_not-a-real-token", "Bearer", "Token a b"])
def test_bad_credentials_are_401_even_for_reads(client, db, header):
    response = client.get("/api/v1/games/", HTTP_AUTHORIZATION=header)
    assert response.status_code == 401
    assert response.json()["detail"]


def test_revoked_token_is_refused(body_a, token_a, body_keys, pair):
    from registry.tokens import find_token, revoke_token

    revoke_token(find_token(token_a))
    before = helpers.registry_state()
    c = token_client(token_a)
    assert c.get("/api/v1/bodies/").status_code == 401
    stge, stses = helpers.records(body_keys.signer(), pair)
    response = c.post("/api/v1/games/", {"stge": stge, "stse": stses}, format="json")
    assert response.status_code == 401
    assert "revoked" in response.json()["detail"]
    assert helpers.registry_state() == before
