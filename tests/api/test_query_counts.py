"""Lists cost a constant number of queries per page, whatever the page size (issue 6: the game
list must stay fast with 100,000 games; the timing itself is in benchmarks/)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.api import helpers


@pytest.fixture
def many(body_a, pair):
    # One side a site account: its name comes from the user row, a join and not a query.
    from registry.services import player_of

    user = get_user_model().objects.create_user("marcus", password="pw-marcus-x1")
    return helpers.seed_games(body_a, [player_of(user), pair[1]], 120, records=True)


@pytest.mark.parametrize("size", [5, 100])
def test_game_list_queries_do_not_grow_with_rows(client, many, size,
                                                 django_assert_max_num_queries):
    with django_assert_max_num_queries(2):  # count + page
        response = client.get("/api/v1/games/", {"page_size": size})
    assert len(response.json()["results"]) == size
    assert {g["player_i"]["name"] for g in response.json()["results"]} >= {"marcus"}


def test_filtered_game_list_is_constant_too(client, many, pair, django_assert_max_num_queries):
    with django_assert_max_num_queries(3):  # the player's key, count, page
        response = client.get("/api/v1/games/", {"player": pair[1].player_id,
                                                 "status": "finished", "page_size": 100})
    assert response.json()["count"] == 120


def test_game_detail_is_a_fixed_handful(client, many, django_assert_max_num_queries):
    with django_assert_max_num_queries(3):  # game + rating changes + records
        response = client.get(f"/api/v1/games/{many[0].game_id}/")
    assert len(response.json()["records"]) == 4


@pytest.mark.parametrize("path", ["/api/v1/players/", "/api/v1/leaderboards/S1/",
                                  "/api/v1/bodies/"])
def test_other_lists_are_constant(client, many, body_a, path, django_assert_max_num_queries):
    for k in range(30):
        helpers.make_player(f"Extra {k}", body_a, games=1)
    with django_assert_max_num_queries(2):
        response = client.get(path, {"page_size": 100})
    assert response.status_code == 200
