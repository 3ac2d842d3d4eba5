"""Lists are paginated and filterable; bad filter values are a 400 with the field named."""

from __future__ import annotations

import pytest

from tests.api import helpers


@pytest.fixture
def games(body_a, body_b, pair):
    third = helpers.make_player("Carol Third", body_b)
    mine = helpers.seed_games(body_a, pair, 7)
    other = helpers.seed_games(body_b, [pair[0], third], 3)
    other[0].status = "annulled"
    other[0].save()
    return mine, other, third


def test_games_paginate_newest_first(client, games):
    page1 = client.get("/api/v1/games/", {"page_size": 4}).json()
    assert page1["count"] == 10
    assert len(page1["results"]) == 4 and page1["previous"] is None
    stamps = [g["played_at"] for g in page1["results"]]
    assert stamps == sorted(stamps, reverse=True)
    page3 = client.get(page1["next"].replace("http://testserver", "")).json()
    page3 = client.get(page3["next"].replace("http://testserver", "")).json()
    assert len(page3["results"]) == 2 and page3["next"] is None
    seen = {g["game_id"] for g in page1["results"]} | {g["game_id"] for g in page3["results"]}
    assert len(seen) == 6


def test_page_size_is_bounded(client, games):
    assert len(client.get("/api/v1/games/", {"page_size": 10_000}).json()["results"]) == 10


def test_filter_games(client, games, pair, body_b):
    _, other, third = games
    by_player = client.get("/api/v1/games/", {"player": third.player_id}).json()
    assert by_player["count"] == 3
    assert all(third.player_id in (g["player_i"]["player_id"], g["player_o"]["player_id"])
               for g in by_player["results"])
    assert client.get("/api/v1/games/", {"player": pair[0].player_id}).json()["count"] == 10
    assert client.get("/api/v1/games/", {"player": "NOSUCHPLAYER"}).json()["count"] == 0
    assert client.get("/api/v1/games/", {"body": helpers.BODY_B}).json()["count"] == 3
    annulled = client.get("/api/v1/games/", {"status": "annulled"}).json()
    assert [g["game_id"] for g in annulled["results"]] == [str(other[0].game_id)]
    assert client.get("/api/v1/games/", {"status": "finished", "body": helpers.BODY_B}
                      ).json()["count"] == 2
    assert client.get("/api/v1/games/", {"variant": "dynamic"}).json()["count"] == 0
    assert client.get("/api/v1/games/", {"source": "site"}).json()["count"] == 0


@pytest.mark.parametrize("params, field", [
    ({"status": "lost"}, "status"), ({"variant": "chess"}, "variant"),
    ({"rated": "maybe"}, "rated"),
])
def test_bad_filter_is_a_clear_400(client, games, params, field):
    response = client.get("/api/v1/games/", params)
    assert response.status_code == 400
    body = response.json()
    assert body["detail"] and field in body["errors"]


def test_page_past_the_end_is_a_json_404(client, games):
    response = client.get("/api/v1/games/", {"page": 99})
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert "detail" in response.json()


def test_search_players_by_name_and_id_prefix(client, pair, body_a):
    helpers.make_player("Someone Else", body_a, stratum=2, rating=600)
    found = client.get("/api/v1/players/", {"q": "vorin"}).json()
    assert [p["player_id"] for p in found["results"]] == [pair[1].player_id]
    prefix = pair[0].player_id[:6].lower()
    ids = [p["player_id"] for p in client.get("/api/v1/players/", {"q": prefix}).json()["results"]]
    assert pair[0].player_id in ids
    s2 = client.get("/api/v1/players/", {"stratum": "S2"}).json()
    assert [p["name"] for p in s2["results"]] == ["Someone Else"]
    assert s2["results"][0]["stratum"] == "S2"


def test_unknown_api_path_is_a_json_404(client, db):
    response = client.get("/api/v1/nothing-here/")
    assert response.status_code == 404
    assert response.json() == {"detail": "No such API endpoint."}
