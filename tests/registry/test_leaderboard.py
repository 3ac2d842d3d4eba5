"""A leaderboard per stratum (R26), ranked by rating, paginated, in constant queries."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from registry.models import Player
from tests.registry.helpers import make_player

pytestmark = pytest.mark.django_db


def names(html: str) -> list[str]:
    return re.findall(r'/players/[A-Z0-9]{18}/">([^<]+)</a>', html)


@pytest.fixture
def field(body):
    for i in range(120):
        make_player(f"s1-{i:03d}", body=body, rating=250 + i, games=1)
    for i in range(3):
        make_player(f"s3-{i}", body=body, stratum=3, rating=1000 + 10 * i, games=2)
    make_player("no-games", body=body, rating=999)  # not ranked before a rated game
    Player.objects.create(display_name="s2-only", stratum=2, rating=600, games=5)


def test_stratum_board_is_ranked_and_paginated(client, field, django_assert_max_num_queries):
    with django_assert_max_num_queries(3):
        html = client.get(reverse("leaderboard_stratum", args=["S1"])).content.decode()
    ranked = names(html)
    assert ranked[:3] == ["s1-119", "s1-118", "s1-117"] and len(ranked) == 50
    assert "no-games" not in html and "page 1 of 3" in html
    html3 = client.get(reverse("leaderboard_stratum", args=["s1"]) + "?page=3").content.decode()
    page3 = names(html3)
    assert page3[-1] == "s1-000" and len(page3) == 20
    ranks = [int(r) for r in re.findall(r"<tr><td>(\d+)</td><td><a href=\"/players/", html3)]
    assert ranks == list(range(101, 121))  # ranks go on across pages
    assert names(client.get(reverse("leaderboard_stratum", args=["S3"])).content.decode()) == [
        "s3-2", "s3-1", "s3-0"]


def test_overview_and_bad_stratum(client, field, django_assert_max_num_queries):
    with django_assert_max_num_queries(4):
        html = client.get(reverse("leaderboard")).content.decode()
    ranked = names(html)
    assert ranked[:10] == [f"s1-{i}" for i in range(119, 109, -1)]
    assert "s2-only" in ranked and ranked[-3:] == ["s3-2", "s3-1", "s3-0"]
    assert client.get(reverse("leaderboard_stratum", args=["S4"])).status_code == 404
    assert 'href="/leaderboard/"' in client.get(reverse("lobby")).content.decode()
