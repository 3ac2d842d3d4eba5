"""A game's optional parts reach the site through the catalogue (issue 36): the server asks
``play.games.registry`` by the game's key, so a game that gives no computer, review or words
of its own is offered none, and talu's are what they were.

The game without parts is the match's tiny three-seat test game (``tests/match/tinygame.py``),
put in the catalogue for a test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.urls import reverse

from play.computer.account import forget
from play.computer.start import ComputerGameError, play_the_computer
from play.games import registry
from play.games.protocol.parts import NO_PARTS
from play.models import ComputerGame, Game
from play.templatetags.talu_words import result_words

pytestmark = pytest.mark.django_db


@pytest.fixture
def computer_account() -> Iterator[None]:
    """The computer's account made by a test is forgotten after it: the next test's database
    may give its row id to a person (``computer_ids`` caches the ids)."""
    forget()
    yield
    forget()


def test_talu_gives_its_parts():
    parts = registry.parts_of("talu")
    assert parts.computer is not None and parts.computer.levels == tuple(range(1, 9))
    assert registry.computer_for("standard") is parts.computer
    assert registry.computer_for("talu/dynamic") is parts.computer
    assert parts.review is not None and parts.lessons is not None and parts.demo is not None
    assert registry.parts_of("no-such-game") is NO_PARTS


def test_the_computer_is_offered_only_for_a_game_that_gives_one(tiny, make_user,
                                                                 computer_account):
    assert registry.computer_for("tiny/duel") is None
    person = make_user("gamer")
    with pytest.raises(ComputerGameError, match="the computer does not play Duel"):
        play_the_computer(person, "tiny/duel", 3, "1")
    with pytest.raises(ComputerGameError, match="unknown variant"):
        play_the_computer(person, "tiny/nothing", 3)
    assert not ComputerGame.objects.exists()
    # talu's is: its levels and seats as before
    with pytest.raises(ComputerGameError, match="level is a number from 1 to 8"):
        play_the_computer(person, "standard", 9)
    with pytest.raises(ComputerGameError, match="side must be random, I or O"):
        play_the_computer(person, "standard", 3, "1")
    game = play_the_computer(person, "talu/standard", 2, "O")
    assert (game.game, game.variant, game.player_o_id) == ("talu", "standard", person.pk)
    assert ComputerGame.objects.get(game=game).side == "I"


def test_a_game_without_a_review_answers_404_with_words(tiny, client, players):
    alice, bob, _ = players
    game = Game.objects.create(game="tiny", variant="duel", player_i=alice, player_o=bob)
    r = client.get(reverse("game_review", args=[game.uuid]))
    assert r.status_code == 404 and r.json() == {"error": "this game has no review"}


def test_result_words_are_the_games_own_or_its_rules_words(tiny):
    talu = Game(game="talu", variant="standard", status=Game.FINISHED, winner="I",
                reason="decision", detail="O resigned", cause="resignation")
    assert result_words(talu) == "Light won: dark resigned"
    other = Game(game="tiny", variant="race", status=Game.FINISHED, winner="",
                 reason="target", ranks={"1": 1, "2": 1, "3": 3})
    assert result_words(other) == "ranks 1: 1, 2: 1, 3: 3 (target)"
    assert result_words(Game(game="tiny", variant="duel", status=Game.FINISHED,
                             reason="aborted")) == "aborted: no result"


def test_an_archived_game_finds_its_game_by_its_variant():
    """The registry keeps a variant's name, not a game: its words are still the game's."""

    class Archived:  # a RegistryGame as the profile lists it
        status, variant, winner, reason, detail, live = "finished", "dynamic", "O", "invasion", \
            "", None

    assert result_words(Archived()) == \
        "Dark won by invasion: light cannot capture the invader on its home row"
