"""Finding people (issue 39): the header's search finds players by name, username or player
id, junk gets words and no 500, and "challenge this player" on a profile fills in the lobby's
challenge form."""

from __future__ import annotations

import pytest

from registry import services

pytestmark = pytest.mark.django_db


def test_a_player_is_found_by_username_and_by_id(make_user, client):
    for name in ("ana", "anabel"):
        make_user(name)
    ben = make_user("ben")
    page = client.get("/players/", {"q": "ana"}).content.decode()
    assert page.index(">ana<") < page.index(">anabel<")  # the exact name first
    assert ">ben<" not in page
    pid = services.player_of(ben).player_id
    assert ">ben<" in client.get("/players/", {"q": pid[:6].lower()}).content.decode()
    assert "Nobody found" in client.get("/players/", {"q": "zzz"}).content.decode()
    assert 'data-testid="player-search"' in client.get("/").content.decode()  # in the header


def test_junk_searches_get_words_not_errors(client):
    out = client.get("/players/", {"q": "a\u202eb"})  # a bidi override: the search says why
    assert out.status_code == 400 and 'data-testid="search-error"' in out.content.decode()
    for junk in ("x\x00y", "line\nbreak"):  # the site's own check of every query answers
        assert client.get("/players/", {"q": junk}).status_code == 400
    assert client.get("/players/", {"q": "x" * 5000}).status_code == 200  # cut, not refused


def test_challenge_this_player_fills_in_the_opponent(make_user, client):
    ana, ben = make_user("ana"), make_user("ben")
    client.force_login(ana)
    profile = client.get(f"/players/{services.player_of(ben).player_id}/").content.decode()
    assert 'href="/?opponent=ben#challenge-form" data-testid="challenge-player"' in profile
    own = client.get(f"/players/{services.player_of(ana).player_id}/").content.decode()
    assert 'data-testid="challenge-player"' not in own  # not oneself
    lobby = client.get("/", {"opponent": "ben"}).content.decode()
    assert 'name="opponent" value="ben"' in lobby
