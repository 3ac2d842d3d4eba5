"""The other games' ratings on the site (issue 36): a leaderboard per game at
``/leaderboard/<game>/`` (``?variant=``) beside talu's, settled players first and provisional
ones marked "?", unknown games a 404 page; and a section per game on a player's profile with
the number, the games and a history chart."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from registry.game_ratings import rating
from registry.game_ratings.models import GameRating
from registry.game_ratings.services import rate_finished
from tests.registry.helpers import T0

pytestmark = pytest.mark.django_db


def rated(user, number: int, *, settled: bool = True, game: str = "tafl", variant: str = "",
          games: int = 20) -> GameRating:
    """``user``'s rating in ``game`` showing ``number`` (settled, or provisional)."""
    return GameRating.objects.create(user=user, game=game, variant=variant,
                                     mu=rating.display_mu(number),
                                     sigma=2.0 if settled else 6.5, games=games, updated=T0)


def board_rows(html: str) -> list[tuple[str, str, str]]:
    """(rank, name, rating as shown) of each row of a game's leaderboard."""
    return re.findall(r'<tr(?: class="provisional")?><td>(\d+)</td><td><a href="/players/'
                      r'[A-Z0-9]+/">([^<]+)</a></td><td data-testid="game-rating">([^<]+)</td>',
                      html)


def test_a_games_board_ranks_settled_players_then_provisional_ones(client, make_user,
                                                                   django_assert_max_num_queries):
    ana, ben, cyd, dag, eve = (make_user(n) for n in ("ana", "ben", "cyd", "dag", "eve"))
    rated(ana, 1610)
    rated(ben, 1720)
    rated(cyd, 1900, settled=False, games=2)  # one lucky start: listed after the settled
    rated(dag, 1450)
    rated(eve, 1300, game="tablut")  # another game's board
    make_user("fay")  # never played: not listed
    with django_assert_max_num_queries(4):
        response = client.get("/leaderboard/tafl/")
    assert response.status_code == 200
    html = response.content.decode()
    assert board_rows(html) == [("1", "ben", "1720"), ("2", "ana", "1610"),
                                ("3", "dag", "1450"), ("4", "cyd", "1900?")]
    assert "<h1>Tafl leaderboard</h1>" in html and ">fay<" not in html and ">eve<" not in html
    assert 'href="/leaderboard/tablut/"' in html and 'href="/leaderboard/"' in html
    tablut = client.get(reverse("game_leaderboard", args=["tablut"])).content.decode()
    assert board_rows(tablut) == [("1", "eve", "1300")]
    assert "Nobody yet" in client.get("/leaderboard/talat/").content.decode()


def test_unknown_games_and_bad_variants_are_404_pages_and_talus_board_stays(client, make_user):
    rated(make_user("ana"), 1500)
    for url in ("/leaderboard/chess/", "/leaderboard/talu/", "/leaderboard/TAFL/",
                "/leaderboard/tafl/?variant=%3Cb%3E", "/leaderboard/tafl/?variant=Big%20one"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert "Not found" in response.content.decode()
    # talu's boards per stratum are where they were
    for code in ("S1", "s2"):
        html = client.get(f"/leaderboard/{code}/").content.decode()
        assert "Leaderboard · " in html and 'data-testid="leaderboard"' in html
    assert 'data-testid="leaderboard"' not in client.get("/leaderboard/").content.decode()


def test_a_game_rated_per_variant_has_a_board_per_variant(client, make_user):
    ana, ben = make_user("ana"), make_user("ben")
    rated(ana, 1600, variant="11x11")
    rated(ben, 1550, variant="11x11")
    rated(ben, 1700, variant="9x9")
    html = client.get("/leaderboard/tafl/").content.decode()  # the first variant by default
    assert [r[1] for r in board_rows(html)] == ["ana", "ben"]
    assert "<h1>Tafl leaderboard · 11x11</h1>" in html
    assert 'href="?variant=9x9"' in html
    html = client.get("/leaderboard/tafl/?variant=9x9").content.decode()
    assert board_rows(html) == [("1", "ben", "1700")]
    assert "Nobody yet" in client.get("/leaderboard/tafl/?variant=7x7").content.decode()


def test_the_board_is_paginated_and_keeps_its_variant(client, django_user_model):
    users = django_user_model.objects.bulk_create(
        [django_user_model(username=f"p{i:02d}") for i in range(55)])
    from registry.models import Player

    Player.objects.bulk_create([Player(user=u) for u in users])
    for i, u in enumerate(users):
        rated(u, 1000 + i, variant="9x9")
    html = client.get("/leaderboard/tafl/?variant=9x9").content.decode()
    assert len(board_rows(html)) == 50 and board_rows(html)[0][1:] == ("p54", "1054")
    assert 'href="?variant=9x9&amp;page=2"' in html and "page 1 of 2" in html
    page2 = board_rows(client.get("/leaderboard/tafl/?variant=9x9&page=2").content.decode())
    assert page2[0] == ("51", "p04", "1004") and len(page2) == 5


def section(html: str, testid: str) -> str:
    m = re.search(rf'<section class="card" data-testid="{testid}">(.*?)</section>', html, re.S)
    assert m, testid
    return m.group(1)


def test_the_profile_shows_each_game_with_its_number_games_and_history(client, make_user):
    ana, ben, cyd = (make_user(n) for n in ("ana", "ben", "cyd"))
    for n in range(3):
        rate_finished(100 + n, "tafl", "", [(ana.pk, 1), (ben.pk, 2)], T0 + timedelta(hours=n))
    rate_finished(200, "talat", "", [(cyd.pk, 1), (ana.pk, 2), (ben.pk, 2)], T0)
    html = client.get(reverse("profile", args=[ana.player.player_id])).content.decode()
    tafl, talat = section(html, "game-rating-tafl"), section(html, "game-rating-talat")
    assert html.index('data-testid="game-rating-tafl"') < html.index("game-rating-talat")
    row = GameRating.objects.get(user=ana, game="tafl")
    assert f'data-testid="game-rating">{row.shown}</strong>' in tafl
    assert row.shown.endswith("?") and "(provisional)" in tafl and "“?”" in tafl
    assert '<strong data-testid="game-rating-games">3</strong>rated games' in tafl
    # the chart: the start and one point per game, from 1500 to the number shown
    assert tafl.count("<circle") == 4 and "<polyline" in tafl
    assert f'aria-label="Tafl rating history from 1500 to {row.display}"' in tafl
    assert 'href="/leaderboard/tafl/"' in tafl
    assert "<h2>Talat</h2>" in talat
    assert '<strong data-testid="game-rating-games">1</strong>rated game<' in talat
    # a player with no rating in the other games: no such section
    html = client.get(reverse("profile", args=[make_user("dag").player.player_id]))
    assert "game-rating-" not in html.content.decode()


def test_a_settled_rating_on_the_profile_has_no_question_mark(client, make_user):
    ana = make_user("ana")
    rated(ana, 1642, game="tablut", variant="", games=40)
    html = client.get(reverse("profile", args=[ana.player.player_id])).content.decode()
    tablut = section(html, "game-rating-tablut")
    assert 'data-testid="game-rating">1642</strong>' in tablut
    assert "provisional" not in tablut and "<svg" not in tablut  # no history rows: no chart
