"""The server side of a newcomer's first game (issue 24): the rules and lesson pages, a lesson's
check with bad input, a game's review, the rematch, a player's games, the demo game, the API's
index and the favicon. Bad input gets words and a 4xx, never a 500."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from play.commands.path import execute
from play.commands.submission import Submission
from play.computer.account import forget
from play.computer.start import play_the_computer
from play.games.protocol import Resign, player
from play.lifecycle import start_game
from play.models import Challenge, Game
from tests.site.gameplay import FORFEIT_BY_I, play_line

pytestmark = pytest.mark.django_db


def test_rules_and_lessons_pages(client):
    page = client.get(reverse("rules")).content.decode()
    assert "How to play talu" in page and 'class="diagram"' in page and "<script>" not in page
    assert client.get(reverse("lessons")).status_code == 200
    lesson = client.get(reverse("lesson", args=["chain"])).content.decode()
    assert 'id="lesson-data"' in lesson and "Capture both D5 and D6" in lesson
    assert client.get(reverse("lesson", args=["no-such"])).status_code == 404


@pytest.mark.parametrize("steps", ["{", "{}", "3", '"x"'])
def test_a_lesson_check_refuses_bad_input_with_words(client, steps):
    r = client.get(reverse("lesson_try", args=["capture"]), {"steps": steps})
    assert r.status_code == 400 and "JSON list of steps" in r.json()["error"]


def test_a_lesson_check_answers_with_the_rules_core(client):
    url = reverse("lesson_try", args=["capture"])
    bad = client.get(url, {"steps": json.dumps([{"kind": "move", "from": "D4", "to": "D6"}])})
    assert bad.status_code == 200 and bad.json()["error"].startswith("D6 is not next to D4")
    good = client.get(url, {"steps": json.dumps([{"kind": "capture", "from": "D4", "to": "D5"},
                                                 {"kind": "exit", "to": "E5"}])}).json()
    assert good["solved"] and good["error"] is None


def test_a_finished_game_reviewed(client, game):
    play_line(game, FORFEIT_BY_I)
    game.refresh_from_db()
    data = client.get(reverse("game_review", args=[game.uuid])).json()
    assert data["frames"][0]["caption"] == "Opening position"
    assert data["turns"][-1]["label"] == "004 I" and data["version"] == game.version
    assert data["result"] == ("Dark won: light forfeited, three of its turns in a row counted "
                              "as passes")
    missing = "00000000-0000-0000-0000-000000000000"
    assert client.get(reverse("game_review", args=[missing])).status_code == 404


def test_rematch_offers_the_same_game_with_colours_swapped(client, game, players):
    alice, bob, carol = players
    client.force_login(alice)
    live = client.post(reverse("rematch", args=[game.uuid]))
    assert live.status_code == 302 and not Challenge.objects.exists()  # not while it is live
    play_line(game, FORFEIT_BY_I)
    client.force_login(carol)
    client.post(reverse("rematch", args=[game.uuid]))
    assert not Challenge.objects.exists()  # a spectator offers nothing
    client.force_login(alice)
    client.post(reverse("rematch", args=[game.uuid]))
    c = Challenge.objects.get()
    assert (c.creator, c.opponent, c.side, c.variant, c.rated) == (alice, bob, "O", "standard",
                                                                    True)


def test_a_rematch_keeps_the_time_control(client, players):
    """A 10+5 game's rematch is a 10+5 challenge, not an untimed one."""
    alice, bob, _ = players
    game = start_game(alice, bob, variant="dynamic", rated=False, time_control="fischer 600+5")
    play_line(game, FORFEIT_BY_I)
    client.force_login(bob)
    client.post(reverse("rematch", args=[game.uuid]))
    c = Challenge.objects.get()
    assert (c.creator, c.opponent, c.side, c.variant, c.rated, c.time_control) == (
        bob, alice, "I", "dynamic", False, "fischer 600+5")


def test_a_rematch_against_the_computer_starts_at_once(client, make_user, settings):
    """The computer accepts no challenge: its rematch is a new game against it at the same
    level, variant and clock, colours swapped, started at once (no challenge left open)."""
    forget()
    erin = make_user("erin")
    game = play_the_computer(erin, "dynamic", 2, "I", "fischer 180+2")
    execute(Submission(game.uuid, player("I"), Resign(), game.version))
    client.force_login(erin)
    page = client.get(reverse("game", args=[game.uuid])).content.decode()
    assert "Play the computer again" in page and "Offer a rematch" not in page
    r = client.post(reverse("rematch", args=[game.uuid]))
    new = Game.objects.exclude(pk=game.pk).get()
    assert r.status_code == 302 and r.url == reverse("game", args=[new.uuid])
    assert not Challenge.objects.exists()
    assert (new.player_o, new.variant, new.rated, new.time_control) == (
        erin, "dynamic", False, "fischer 180+2")
    [computer] = new.computer_seats.all()
    assert (computer.side, computer.level) == ("I", 2)


def test_a_computer_account_made_by_another_process_is_seen(make_user):
    """A process that asked before the computer's account existed cached "no computer" for
    good: the account made later by another process (whose ``forget`` reaches only itself)
    was never recognised here, and its games offered an adjournment it never accepts."""
    from django.contrib.auth import get_user_model

    from play.computer.account import computer_ids, is_computer
    from play.models import ComputerAccount
    forget()
    assert computer_ids() == set()
    other = get_user_model().objects.create_user(username="computer")  # another process's
    ComputerAccount.objects.create(user=other)  # ... without this process's forget()
    assert is_computer(other)


def test_my_games_need_a_login_and_search(client, game, players):
    alice, _bob, carol = players
    assert client.get(reverse("my_games")).status_code == 302
    client.force_login(alice)
    page = client.get(reverse("my_games")).content.decode()
    assert "vs bob" in page and "being played" in page
    assert "No game matches" in client.get(reverse("my_games"), {"q": "carol"}).content.decode()
    client.force_login(carol)
    assert "No games yet" in client.get(reverse("my_games")).content.decode()


def test_my_games_are_found_by_the_words_of_their_results(client, players):
    """The list reads "lost · Dark won: light resigned"; a search for "resigned" or "lost"
    found nothing (only the stored reason, "decision", was searched)."""
    alice, bob, carol = players
    resigned = start_game(alice, bob, rated=False)
    execute(Submission(resigned.uuid, player("I"), Resign(), resigned.version))
    won = start_game(carol, alice, rated=False)
    execute(Submission(won.uuid, player("I"), Resign(), won.version))
    live = start_game(alice, carol, rated=False)
    client.force_login(alice)

    def found(q: str) -> set:
        page = client.get(reverse("my_games"), {"q": q}).content.decode()
        _, _, rows = page.partition('<table class="list" data-testid="my-games">')
        rows = rows.partition("</table>")[0]
        return {g for g in (resigned, won, live) if f"/games/{g.uuid}/" in rows}

    assert found("resigned") == {resigned, won}
    assert found("lost") == {resigned}
    assert found("won") == {won}
    assert found("carol") == {won, live}
    assert found("live") == {live}
    assert found("invasion") == set()


def test_my_games_say_a_result_as_the_lobby_does(client, game, players):
    """One wording of a result (``describe_result``): a game aborted before its first turn
    was played has no result (R37), in the player's list as in the lobby."""
    alice = players[0]
    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED, winner="", reason="aborted",
                                           cause="aborted",
                                           detail="I did not complete the opening turn in time")
    client.force_login(alice)
    mine = client.get(reverse("my_games")).content.decode()
    assert "aborted: no result" in mine and "opening turn" not in mine


def test_an_aborted_game_is_not_called_annulled_on_a_profile():
    """The registry keeps an aborted game (R37) with the status annulled: the profile said
    "annulled" where the game page and the player's list say it was aborted."""
    from types import SimpleNamespace

    from play.templatetags.talu_words import result_words
    aborted = SimpleNamespace(status="annulled", winner="", reason="aborted", live=None)
    assert result_words(aborted) == "aborted: no result"
    annulled = SimpleNamespace(status="annulled", winner="I", reason="invasion", live=None)
    assert result_words(annulled) == "annulled"


def test_the_demo_game_is_real_play(client):
    call_command("demo_data", stdout=open("/dev/null", "w"))  # noqa: SIM115
    call_command("demo_data", stdout=open("/dev/null", "w"))  # noqa: SIM115 - idempotent
    game = Game.objects.get()
    assert (game.status, game.winner, game.reason) == ("finished", "O", "invasion")
    assert game.stgn.count("x") >= 8 and "E5xD5 D5xC5-C6" in game.stgn  # captures, a chain
    home = client.get(reverse("lobby")).content.decode()
    assert reverse("game", args=[game.uuid]) in home and "Dark won by invasion" in home


def test_api_index_and_favicon(client):
    index = client.get("/api/v1/").json()
    assert index["games"].endswith("/api/v1/games/") and len(index["leaderboards"]) == 3
    icon = client.get("/favicon.ico")
    assert icon.status_code == 301 and icon["Location"].endswith("favicon.svg")


def test_pages_hold_no_inline_script(client, game, players):
    """Every script is a static file and no element has an on...= handler: the pages work under
    a Content-Security-Policy without 'unsafe-inline' (the hardening issue's)."""
    import re

    alice = players[0]
    client.force_login(alice)
    pages = [reverse("lobby"), reverse("rules"), reverse("lessons"),
             reverse("lesson", args=["honor"]), reverse("game", args=[game.uuid]),
             reverse("my_games"), reverse("profile", args=[alice.player.player_id]),
             reverse("leaderboard")]
    for url in pages:
        html = client.get(url).content.decode()
        scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", html, re.S)
        for attrs, body in scripts:
            assert "src=" in attrs or 'type="application/json"' in attrs, (url, attrs)
            assert "src=" not in attrs or not body.strip(), url
        assert not re.search(r"\son[a-z]+\s*=", html), url


def test_a_lesson_check_refuses_json_nested_too_deeply(client, no_error_logs):
    """5,000 nested arrays in ``steps`` were a RecursionError in the JSON decoder: a 500."""
    r = client.get(reverse("lesson_try", args=["capture"]), {"steps": "[" * 5000 + "]" * 5000})
    assert r.status_code == 400 and "JSON list of steps" in r.json()["error"]


def test_the_demo_data_has_a_player_in_every_stratum(client):
    """Issue 39, finding 8: a newcomer logged in as carol sees what an S3 player sees (her PSF
    in the lobby, R27/R47); dave is S2, alice and bob (the sample game's) S1; idempotent."""
    from registry.models import Player

    call_command("demo_data", stdout=open("/dev/null", "w"))  # noqa: SIM115
    call_command("demo_data", stdout=open("/dev/null", "w"))  # noqa: SIM115 - idempotent
    strata = dict(Player.objects.filter(user__username__in=["alice", "bob", "carol", "dave"])
                  .values_list("user__username", "stratum"))
    assert strata == {"alice": 1, "bob": 1, "carol": 3, "dave": 2}
    carol = Player.objects.get(user__username="carol")
    assert (carol.start_stratum, carol.start_rating) == (3, 1400)  # carried over (R26)
    client.force_login(carol.user)
    assert 'data-testid="psf-only"' in client.get(reverse("lobby")).content.decode()


def test_watch_a_demo_game_is_a_game_won_on_the_board(client, players):
    """Issue 39, finding 5: the demo link picks a game won on the board, not the longest
    recent game (a shuffling null game)."""
    from play.views import demo_game

    call_command("demo_data", stdout=open("/dev/null", "w"))  # noqa: SIM115
    sample = Game.objects.get()
    alice, bob = players[0], players[1]
    null_game = start_game(alice, bob)
    Game.objects.filter(pk=null_game.pk).update(status=Game.FINISHED, winner="-",
                                                reason="stalling", version=500)
    resigned = start_game(alice, bob)
    Game.objects.filter(pk=resigned.pk).update(status=Game.FINISHED, winner="I",
                                               cause="resignation", reason="decision",
                                               version=400)
    assert demo_game() == sample
    assert f'href="{reverse("game", args=[sample.uuid])}" data-testid="demo-game"' in \
        client.get(reverse("lobby")).content.decode()
