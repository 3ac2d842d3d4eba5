"""Records as files: STGN as text/plain, STGE/STSE/STDGS as application/yaml, linked from the
game; a missing record or a bad name is a JSON 404."""

from __future__ import annotations

import pytest

from tests.api import helpers


@pytest.fixture
def game(body_a, pair):
    return helpers.seed_games(body_a, pair, 1, records=True)[0]


def test_record_links_of_a_game(client, game):
    links = client.get(f"/api/v1/games/{game.game_id}/records/").json()
    assert [r["name"] for r in links] == ["stge", "stse-1", "stdgs", "stgn"]
    detail = client.get(f"/api/v1/games/{game.game_id}/").json()
    assert [r["name"] for r in detail["records"]] == ["stge", "stse-1", "stdgs", "stgn"]
    assert detail["stgn"] == helpers.STGN_TEXT


@pytest.mark.parametrize("name, media, text", [
    ("stgn", "text/plain", helpers.STGN_TEXT),
    ("stge", "application/yaml", helpers.YAML_TEXT),
    ("stse-1", "application/yaml", helpers.YAML_TEXT),
    ("stdgs", "application/yaml", helpers.YAML_TEXT),
])
def test_record_text_with_its_media_type(client, game, name, media, text):
    response = client.get(f"/api/v1/games/{game.game_id}/records/{name}/")
    assert response.status_code == 200
    assert response["Content-Type"].split(";")[0] == media
    assert response.content.decode() == text
    assert response["ETag"] == '"' + "ab" * 32 + '"'


def test_link_urls_serve_the_files(client, game):
    for link in client.get(f"/api/v1/games/{game.game_id}/records/").json():
        response = client.get(link["url"].replace("http://testserver", ""))
        assert response["Content-Type"].startswith(link["media_type"])


def test_yaml_asked_for_explicitly(client, game):
    response = client.get(f"/api/v1/games/{game.game_id}/records/stge/",
                          HTTP_ACCEPT="application/yaml")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/yaml")


@pytest.mark.parametrize("name", ["stse-2", "pgn", "stse-x"])
def test_missing_or_unknown_record_is_a_json_404(client, game, name):
    response = client.get(f"/api/v1/games/{game.game_id}/records/{name}/",
                          HTTP_ACCEPT="application/yaml")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["detail"]


def test_unknown_game_is_a_json_404(client, db):
    response = client.get("/api/v1/games/00000000-0000-4000-8000-000000000000/records/stgn/")
    assert response.status_code == 404 and response.json()["detail"] == "No such game."


def test_superseded_revision_stays_reachable(client, game):
    from registry.models import GameRecord

    GameRecord.objects.filter(game=game, kind="STSE").update(superseded=True)
    GameRecord.objects.create(game=game, kind="STSE", session=1, revision=1,
                              content="meta: {format: STSE}\n", hash="cd" * 32)
    assert client.get(f"/api/v1/games/{game.game_id}/records/stse-1/"
                      ).content == b"meta: {format: STSE}\n"
    old = client.get(f"/api/v1/games/{game.game_id}/records/stse-1/", {"revision": 0})
    assert old.content.decode() == helpers.YAML_TEXT
    assert client.get(f"/api/v1/games/{game.game_id}/records/stse-1/",
                      {"revision": "x"}).status_code == 400
