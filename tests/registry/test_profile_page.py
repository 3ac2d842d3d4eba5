"""The profile page (book 6.6): rating, stratum and sub-stratum, promotion progress, OR, OCS,
EI, Breadth:Depth (R29), PSF for S3 players (R27), the rating chart and recent games, in a
constant number of queries however many games the player has."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from registry.profiles import profile_of
from tests.registry.helpers import I_WINS, O_ELIMINATES, O_WINS, T0, add_game, hours, make_player

pytestmark = pytest.mark.django_db


def text_of(client, player, testid: str) -> str:
    html = client.get(reverse("profile", args=[player.player_id])).content.decode()
    m = re.search(rf'data-testid="{testid}"[^>]*>(.*?)</(?:strong|li|section)>', html, re.S)
    assert m, testid
    return re.sub(r"<[^>]+>|\s+", " ", m.group(1)).strip()


def test_s1_profile_shows_metrics_and_progress(client, body):
    x, y = make_player("X", body=body), make_player("Y", body=body)
    add_game(body, x, y, I_WINS, at=T0)  # X wins by invasion
    add_game(body, y, x, O_ELIMINATES, at=T0 + hours(1))  # X (O) wins by elimination
    add_game(body, x, y, O_WINS, at=T0 + hours(2))  # X loses
    x.refresh_from_db()
    assert text_of(client, x, "rating") == str(x.rating)
    assert text_of(client, x, "stratum") == "S1"
    assert text_of(client, x, "substratum") == x.sub_stratum
    assert text_of(client, x, "or") == "67%"  # 2 of 3
    assert text_of(client, x, "ocs") == "3"  # 2 / 63
    assert text_of(client, x, "breadth-depth") == "50:50"
    assert text_of(client, x, "promo-games").startswith("3 of 20 rated games in S1 ✗")
    assert "66.7% won (2 wins), 75% needed ✗" in text_of(client, x, "promo-winrate")
    assert f"rating {x.rating}, above 440 needed ✗" in text_of(client, x, "promo-rating")
    html = client.get(reverse("profile", args=[x.player_id])).content.decode()
    assert "<polyline" in html and html.count("<circle") == 4  # start + 3 games
    assert "psf" not in html


def test_a_new_players_profile_shows_no_empty_figures(client, body):
    """Before any rated game: no "0.0%" strength of opponents nor confidence 0 as if measured,
    and no rating chart of a single dot, just the words."""
    x = make_player("X", body=body)
    assert text_of(client, x, "or") == "–"
    assert text_of(client, x, "ocs") == "–"
    assert text_of(client, x, "ei") == "–"
    html = client.get(reverse("profile", args=[x.player_id])).content.decode()
    assert 'class="chart"' not in html and "No rated games yet." in html


def test_s3_profile_shows_psf(client, body):
    x = make_player("X", body=body, stratum=3, rating=1500)
    y = make_player("Y", body=body, stratum=3, rating=1400)
    add_game(body, x, y, I_WINS)
    x.refresh_from_db()
    m = profile_of(x)
    assert m["psf"] == pytest.approx(x.rating * (2 / m["anpc"] - 1))
    assert text_of(client, x, "psf").startswith(str(round(m["psf"])))
    assert "S3 is the top stratum" in text_of(client, x, "promotion")
    x.anpc = 1.25  # R27: the player's own aNPc
    x.save()
    assert text_of(client, x, "psf").startswith(str(round(x.rating * (2 / 1.25 - 1))))


def count_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_constant_queries(client, body, django_assert_max_num_queries):
    x = make_player("X", body=body)
    others = [make_player(f"O{i}", body=body) for i in range(3)]
    url = reverse("profile", args=[x.player_id])
    few = count_queries(client, url)
    for n in range(40):
        add_game(body, x, others[n % 3], I_WINS if n % 2 else O_WINS, at=T0 + hours(n))
    with django_assert_max_num_queries(few):
        client.get(url)
    assert count_queries(client, url) <= 6


def test_unknown_player_is_404(client, db):
    assert client.get(reverse("profile", args=["NOSUCHPLAYER000000"])).status_code == 404
