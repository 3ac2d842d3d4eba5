"""NUL and control characters anywhere in a request are a 4xx with a JSON message, never a
server error (PostgreSQL refuses NUL in text: this module matters most in the PostgreSQL run,
the services lane, ``tests/lanes.py``)."""

from __future__ import annotations

import pytest

from tests.api import helpers


@pytest.mark.parametrize("path", [
    "/api/v1/players/%00/", "/api/v1/players/A%00B/ratings/", "/api/v1/bodies/%00/",
    "/api/v1/bodies/X%1F/",
])
def test_nul_in_path(client, db, path):
    response = client.get(path)
    assert response.status_code == 404 and response.json()["detail"]


@pytest.mark.parametrize("params", [{"q": "a\x00"}, {"body": "\x00"}])
def test_nul_in_player_filters(client, db, params):
    response = client.get("/api/v1/players/", params)
    assert response.status_code == 400 and response.json()["errors"]


@pytest.mark.parametrize("params", [{"player": "\x00"}, {"body": "B\x00"}])
def test_nul_in_game_filters(client, db, params):
    response = client.get("/api/v1/games/", params)
    assert response.status_code == 400 and response.json()["errors"]


def test_nul_in_written_fields(body_client, body_keys, pair, body_a):
    game = helpers.add_game(body_a, *pair)
    stge, stses = helpers.records(body_keys.signer(), pair)
    before = helpers.registry_state()
    responses = [
        body_client.post("/api/v1/players/", {"display_name": "A\x00"}, format="json"),
        body_client.post(f"/api/v1/games/{game.game_id}/annul/", {"reason": "x\x00"},
                         format="json"),
        body_client.post(f"/api/v1/games/{game.game_id}/correct/",
                         {"reason": "x\x00", "stse": stses}, format="json"),
        body_client.post("/api/v1/games/", {"stge": stge, "stse": stses, "body": "\x00"},
                         format="json"),
        body_client.post("/api/v1/games/", {"stge": stge + "\x00", "stse": stses},
                         format="json"),
    ]
    for response in responses:
        assert 400 <= response.status_code < 500, response.content
        assert response.json()["detail"]
    assert helpers.registry_state() == before
