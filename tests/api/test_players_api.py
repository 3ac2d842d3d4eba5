"""Players, leaderboards and bodies as the API shows them: metrics on the detail page (book
6.6, R26, R27, R29), ranks on leaderboards, bodies with their public keys."""

from __future__ import annotations

from datetime import timedelta
from itertools import pairwise

import pytest

from tests.api import helpers
from tests.registry.helpers import O_ELIMINATES, T0


@pytest.fixture
def played(body_a, pair):
    """Marcus wins by invasion, then Alice wins by elimination, then Marcus again."""
    helpers.add_game(body_a, *pair, at=T0)
    helpers.add_game(body_a, pair[0], pair[1], O_ELIMINATES, at=T0 + timedelta(hours=1))
    helpers.add_game(body_a, *pair, at=T0 + timedelta(hours=2))
    return pair


def test_detail_has_the_metrics(client, played):
    marcus = client.get(f"/api/v1/players/{played[0].player_id}/").json()
    assert marcus["stratum"] == "S1" and marcus["games"] == 3 and marcus["wins"] == 2
    m = marcus["metrics"]
    assert m["outcome_ratio"] == pytest.approx(2 / 3)
    assert m["ocs"] == round(100 * 2 / 63)  # R29: W / (N + 60)
    assert m["breadth_depth"] == [0, 100]  # both wins by invasion
    assert m["substratum"] == marcus["sub_stratum"]
    assert m["psf"] is None  # S3 only
    progress = m["promotion"]
    assert progress["games"] == 3 and progress["games_needed"] == 20
    assert progress["games_ok"] is False and progress["next"] == "S2"
    alice = client.get(f"/api/v1/players/{played[1].player_id}/").json()
    assert alice["metrics"]["breadth_depth"] == [100, 0]
    assert alice["metrics"]["outcome_ratio"] == pytest.approx(1 / 3)


def test_s3_player_has_a_psf_and_no_promotion(client, body_a):
    top = helpers.make_player("Grand Master", body_a, stratum=3, rating=1800)
    m = client.get(f"/api/v1/players/{top.player_id}/").json()["metrics"]
    assert m["stratum"] == "S3" and m["psf"] is not None and m["promotion"] is None


def test_rating_history_in_order_with_figures(client, played):
    history = client.get(f"/api/v1/players/{played[0].player_id}/ratings/").json()
    rows = history["results"]
    assert history["count"] == 3 and [r["won"] for r in rows] == [True, False, True]
    assert [r["played_at"] for r in rows] == sorted(r["played_at"] for r in rows)
    for before, after in pairwise(rows):
        assert after["old_rating"] == before["rating_after"]
    assert all(r["figures"] and r["delta"] == r["new_rating"] - r["old_rating"] for r in rows)


def test_unknown_player_is_404(client, db):
    for path in ("/api/v1/players/NOSUCHPLAYER000000/", "/api/v1/players/NOSUCH/ratings/"):
        response = client.get(path)
        assert response.status_code == 404 and response.json()["detail"]


def test_leaderboard_ranks_by_rating(client, played, body_a):
    helpers.make_player("Never Played", body_a)
    board = client.get("/api/v1/leaderboards/S1/", {"page_size": 1}).json()
    assert board["count"] == 2  # only players with a rated game
    assert board["results"][0]["rank"] == 1
    assert board["results"][0]["player_id"] == played[0].player_id
    second = client.get("/api/v1/leaderboards/S1/", {"page_size": 1, "page": 2}).json()
    assert second["results"][0]["rank"] == 2
    assert client.get("/api/v1/leaderboards/S2/").json()["count"] == 0
    assert client.get("/api/v1/leaderboards/S4/").status_code == 404


def test_bodies_list_and_key(client, body_a, body_b):
    listed = client.get("/api/v1/bodies/").json()
    assert [b["registrar_id"] for b in listed["results"]] == sorted([helpers.BODY_A,
                                                                     helpers.BODY_B])
    assert "public_key" not in listed["results"][0]
    detail = client.get(f"/api/v1/bodies/{helpers.BODY_A}/").json()
    assert detail["public_key"].startswith("-----BEGIN PGP PUBLIC KEY BLOCK-----")
    assert detail["key_id"] == body_a.key_id


def test_register_player_with_an_issued_id(body_client, pair):
    ok = body_client.post("/api/v1/players/", {"display_name": "Otb Player",
                                               "player_id": "ABCDEFGHIJKLMNOPQ1"}, format="json")
    assert ok.status_code == 201 and ok.json()["player_id"] == "ABCDEFGHIJKLMNOPQ1"
    for bad in ("abcdefghijklmnopq1", "SHORT", pair[0].player_id):
        response = body_client.post("/api/v1/players/", {"display_name": "X", "player_id": bad},
                                    format="json")
        assert response.status_code == 400 and "player_id" in response.json()["errors"]
