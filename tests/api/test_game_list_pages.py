"""Walking the game list page by page shows every game once, newest first (ties by id).

Pages are fetched key-first (``DeferredJoinPaginator``: ``WHERE id IN (SELECT id ... OFFSET
... LIMIT ...)``) so deep pages stay cheap; this checks the pages are still the plain ordered
list cut in pieces, filtered or not, with games sharing a timestamp.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.api import helpers


@pytest.fixture
def games(body_a, body_b, pair):
    third = helpers.make_player("Carol Third", body_b)
    start = datetime(2025, 3, 1, tzinfo=UTC)
    made = helpers.seed_games(body_a, pair, 13, start=start)
    made += helpers.seed_games(body_b, [pair[1], third], 8, start=start)  # same timestamps
    return made, third


def walk(client, params: dict) -> list[dict]:
    out: list[dict] = []
    reply = client.get("/api/v1/games/", params).json()
    while True:
        out += reply["results"]
        if reply["next"] is None:
            return out
        reply = client.get(reply["next"].replace("http://testserver", "")).json()


def expected(games, keep=lambda g: True) -> list[str]:
    ordered = sorted((g for g in games if keep(g)), key=lambda g: (g.played_at, g.pk),
                     reverse=True)
    return [str(g.game_id) for g in ordered]


@pytest.mark.parametrize("size", [1, 4, 5, 50])
def test_every_game_once_newest_first(client, games, size):
    made, _ = games
    seen = walk(client, {"page_size": size})
    assert [g["game_id"] for g in seen] == expected(made)


def test_a_filtered_walk_is_the_filtered_list(client, games, pair):
    made, third = games
    seen = walk(client, {"page_size": 3, "player": third.player_id})
    assert [g["game_id"] for g in seen] == expected(
        made, lambda g: third.pk in (g.player_i_id, g.player_o_id))
    assert len(seen) == 8


def test_the_last_page_and_the_count_agree(client, games):
    made, _ = games
    reply = client.get("/api/v1/games/", {"page_size": 5, "page": "last"}).json()
    assert reply["count"] == len(made)
    assert [g["game_id"] for g in reply["results"]] == expected(made)[20:]
