"""The API answers JSON whatever the client asks for (a browser's text/html, XML, YAML on a
JSON endpoint): reads and errors alike, never an HTML page. Record files are the exception
by design: text/plain or application/yaml."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.api import helpers

ACCEPTS = ["text/html,application/xhtml+xml,*/*;q=0.8", "application/xml", "application/yaml"]


@pytest.fixture
def paths(body_a, pair):
    game = helpers.seed_games(body_a, pair, 2, records=True)[0]
    return ["/api/v1/players/", f"/api/v1/players/{pair[0].player_id}/",
            f"/api/v1/players/{pair[0].player_id}/ratings/", "/api/v1/games/",
            f"/api/v1/games/{game.game_id}/", f"/api/v1/games/{game.game_id}/records/",
            "/api/v1/leaderboards/S1/", "/api/v1/bodies/", f"/api/v1/bodies/{helpers.BODY_A}/"]


@pytest.mark.parametrize("accept", ACCEPTS)
def test_reads_are_json_whatever_is_asked(client, paths, accept):
    for path in paths:
        response = client.get(path, HTTP_ACCEPT=accept)
        assert response.status_code == 200, path
        assert response["Content-Type"] == "application/json", path
        response.json()


@pytest.mark.parametrize("accept", ACCEPTS)
def test_errors_are_json_whatever_is_asked(client, paths, body_a, pair, accept):
    game = helpers.seed_games(body_a, pair, 1)[0]
    staff = get_user_model().objects.create_user("boss", password="pw-boss-x1", is_staff=True)
    logged = APIClient()
    logged.force_login(staff)
    cases = [
        (client.get("/api/v1/games/", {"status": "nope"}, HTTP_ACCEPT=accept), 400),
        (client.post("/api/v1/games/", {}, HTTP_ACCEPT=accept), 401),
        (client.get("/api/v1/players/NOSUCH/", HTTP_ACCEPT=accept), 404),
        (client.get("/api/v1/no/such/path", HTTP_ACCEPT=accept), 404),
        (logged.get(f"/api/v1/games/{game.game_id}/annul/", HTTP_ACCEPT=accept), 405),
    ]
    for response, status in cases:
        assert response.status_code == status
        assert response["Content-Type"] == "application/json"
        assert response.json()["detail"]
