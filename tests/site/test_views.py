"""Pages: sign up, lobby challenge and accept, game page, record downloads, profile."""

import pytest
import yaml
from django.urls import reverse

from play.models import Game
from registry.models import Player
from tests.site.gameplay import FORFEIT_BY_I, play_line

pytestmark = pytest.mark.django_db


def test_signup_makes_a_registered_player(client):
    r = client.post(reverse("signup"), {"username": "dora", "password1": "a-Long-pass-77",
                                        "password2": "a-Long-pass-77"})
    assert r.status_code == 302
    p = Player.objects.get(user__username="dora")
    assert len(p.player_id) == 18 and p.player_id.isalnum() and p.player_id.upper() == p.player_id
    assert (p.stratum, p.rating) == (1, 250)
    assert client.get(reverse("lobby")).status_code == 200
    assert client.post(reverse("logout")).status_code == 302


def test_challenge_accept_and_game_page(client, players):
    alice, bob, carol = players
    client.force_login(alice)
    client.post(reverse("challenge_new"), {"variant": "dynamic", "rated": "0", "side": "O",
                                           "opponent": "bob"})
    client.force_login(carol)
    page = client.get(reverse("lobby")).content.decode()
    assert "accept-alice" not in page  # the challenge names bob
    client.force_login(bob)
    state = client.get(reverse("lobby_state")).json()
    assert [c["creator"] for c in state["challenges"]] == ["alice"]
    r = client.post(reverse("challenge_accept", args=[state["challenges"][0]["id"]]))
    game = Game.objects.get()
    assert r.status_code == 302 and r.url == reverse("game", args=[game.uuid])
    assert (game.player_i, game.player_o, game.variant, game.rated) == (bob, alice, "dynamic",
                                                                         False)
    html = client.get(r.url).content.decode()
    assert 'data-side="I"' in html and "initial-state" in html
    client.force_login(carol)
    assert 'data-role="spectator"' in client.get(r.url).content.decode()
    assert client.get(reverse("lobby_state")).json()["live"][0]["id"] == str(game.uuid)


def test_records_downloads_and_profile(client, game):
    play_line(game, FORFEIT_BY_I)
    kinds = {}
    for rec in game.archive.records.all():
        r = client.get(reverse("game_record", args=[game.uuid, rec.kind.lower(), rec.session]))
        assert r.status_code == 200 and "attachment" in r["Content-Disposition"]
        kinds[rec.kind] = r.content.decode()
    assert set(kinds) == {"STGN", "STGE", "STSE", "STDGS"}
    assert kinds["STGN"].splitlines()[-1] == "!: O"
    stse = yaml.safe_load(kinds["STSE"])["session"]
    stge = yaml.safe_load(kinds["STGE"])
    assert stse["meta"]["previous_hash"] == stge["tail"]["hash"]
    assert stse["turns"][-1] == "!: O"
    assert "affiliated_body" in stse["tail"]["signatures"]
    assert yaml.safe_load(kinds["STDGS"])["tally"]["player_O"]["F.a"] == 4
    p = Player.objects.get(user=game.player_o)
    html = client.get(reverse("profile", args=[p.player_id])).content.decode()
    assert "<svg" in html and "<polyline" in html and str(p.rating) in html
    assert client.get(reverse("profile", args=["NOSUCHPLAYER000000"])).status_code == 404
    assert "Traceback" not in client.get("/games/not-a-uuid/").content.decode()
