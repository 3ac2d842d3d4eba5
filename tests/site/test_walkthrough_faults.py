"""Newcomer faults found in issue 39's walk-through, as the pages show them (the browser's own
are in ``newcomer/test_walkthrough_39.py``):

2. quick pairing never said why two waiting players were not paired (R47: never the two who
   just played each other): it says so, and what to do instead;
6. the computer's level defaulted to 3 (now 1, "beginner", for a player's first games); the
   stall dialog cited "(stalling, R13)"; sign-up spoke of "stratum S1"; a rating change
   came with no word of why;
7. the profile's history: a bare won/lost link for a game, and "strength of opponents
   -82.4%" meaning nothing without the help.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

from play.commands.player import submit_as
from play.lifecycle import start_game
from play.lobby import pool
from play.worker.loop import run_due
from tests.site.gameplay import FORFEIT_BY_I, play_line

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
BLITZ = "fischer 180+2"


@pytest.fixture(autouse=True)
def _no_wave_wait(settings):
    settings.TALU_POOL_WAVE = 0


def _played(a, b) -> None:
    """``a`` and ``b`` have just played each other (a rated game, resigned)."""
    game = start_game(a, b, rated=True)
    assert submit_as(game.uuid, b, "resign", seq="r").ok
    run_due()


# 2 ------------------------------------------------------------------------------------------
def test_two_waiting_players_who_just_met_are_told_why_they_are_not_paired(client, make_user):
    ann, ben, cy = make_user("ann"), make_user("ben"), make_user("cy")
    _played(ann, ben)
    pool.join(ann, "standard", BLITZ)
    pool.join(ben, "standard", BLITZ)
    assert pool.state(ann)["in_range"] == 0
    assert pool.state(ann)["last_opponent"] == {"name": "ben"}
    assert pool.state(ben)["last_opponent"] == {"name": "ann"}
    client.force_login(ann)
    page = client.get(reverse("lobby")).content.decode()
    said = re.search(r'data-last-opponent[^>]*>(.*?)</p>', page, re.S)
    assert said and "ben" in said.group(1)
    words = " ".join(said.group(1).split())
    assert "just played each other" in words and "rematch" in words and "challenge" in words
    # a third player is paired as usual, and nobody is told anything
    pool.join(cy, "standard", BLITZ)
    assert "last_opponent" not in pool.state(cy)


def test_a_player_alone_in_the_pool_is_told_nothing_of_a_last_opponent(client, make_user):
    ann, ben = make_user("ann"), make_user("ben")
    _played(ann, ben)
    pool.join(ann, "standard", BLITZ)
    assert "last_opponent" not in pool.state(ann)
    client.force_login(ann)
    page = client.get(reverse("lobby")).content.decode()
    assert re.search(r'data-last-opponent[^>]*\bhidden\b', page)


# 6 ------------------------------------------------------------------------------------------
def _computer_level_selected(page: str) -> str:
    select = re.search(r'<select name="level"[^>]*>(.*?)</select>', page, re.S)
    assert select, "no computer level on the lobby"
    chosen = re.search(r'<option value="(\d)"[^>]*selected>([^<]*)<', select.group(1))
    return f"{chosen.group(1)} {chosen.group(2)}"


def test_the_computer_level_starts_at_beginner_for_a_players_first_games(client, make_user):
    ann = make_user("ann")
    client.force_login(ann)
    assert _computer_level_selected(client.get(reverse("lobby")).content.decode()) == \
        "1 1 (beginner)"


def test_a_player_with_games_behind_them_gets_the_middle_level(client, make_user):
    ann, ben = make_user("ann"), make_user("ben")
    for _ in range(5):
        play_line(start_game(ann, ben, rated=False), FORFEIT_BY_I)
    client.force_login(ann)
    assert _computer_level_selected(client.get(reverse("lobby")).content.decode()).startswith(
        "3")


def test_sign_up_and_the_stall_dialog_speak_plainly(client):
    page = client.get(reverse("signup")).content.decode()
    assert "stratum S1" not in page and "rating of 250" in page
    js = (ROOT / "static/games/talu.js").read_text()
    assert "(stalling, R13)" not in js  # the dialog's words, not a rule's number


def test_a_rating_change_comes_with_a_word_of_why(client, make_user):
    ann, ben = make_user("ann"), make_user("ben")
    play_line(start_game(ann, ben, rated=True), FORFEIT_BY_I)
    page = client.get(reverse("profile", args=[ann.player.player_id])).content.decode()
    why = re.search(r'data-testid="rating-change-help"[^>]*>(.*?)</p>', page, re.S)
    assert why and 'href="/rules/#ratings"' in why.group(1)
    rules = client.get(reverse("rules")).content.decode()
    assert 'id="ratings"' in rules and "half" in rules  # S1: a loss takes half the points


# 7 ------------------------------------------------------------------------------------------
def test_the_history_names_the_opponent_and_the_date_and_explains_strength(client,
                                                                           make_user):
    ann, ben = make_user("ann"), make_user("ben")
    play_line(start_game(ann, ben, rated=True), FORFEIT_BY_I)  # ann (light) forfeits
    page = client.get(reverse("profile", args=[ann.player.player_id])).content.decode()
    row = re.search(r'<td data-testid="history-game">(.*?)</td>', page, re.S)
    assert row, "no game column"
    text = " ".join(re.sub(r"<[^>]+>", " ", row.group(1)).split())
    assert re.fullmatch(r"lost against ben \w+ \d{1,2}, \d{4}", text), text
    strength = re.search(r'data-testid="ei-words"[^>]*>(.*?)<', page, re.S)
    assert strength and re.search(r"(weaker|stronger|as strong)", strength.group(1))
    # the chart: dates under it and a rating axis
    chart = re.search(r'<svg class="chart".*?</svg>', page, re.S).group(0)
    assert 'data-testid="chart-dates"' in chart and ">rating<" in chart
