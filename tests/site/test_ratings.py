"""Ratings after live games: SX per player, promotion, freeplay and null games unrated."""

import pytest

from play.lifecycle import start_game
from registry.models import Player, RatingChange
from tests.site.gameplay import FORFEIT_BY_I, NULL_GAME, play_line

pytestmark = pytest.mark.django_db


def test_rated_game_updates_both_ratings_with_figures(game):
    play_line(game, FORFEIT_BY_I)
    assert game.status == "finished" and game.winner == "O" and game.reason == "forfeit"
    changes = {rc.side: rc for rc in RatingChange.objects.filter(game__live=game)}
    assert set(changes) == {"I", "O"}
    assert changes["O"].won and changes["O"].new_rating > 250
    assert not changes["I"].won and changes["I"].new_rating < 250
    assert changes["O"].model == "S1" and changes["O"].figures["points"] > 0
    assert Player.objects.get(user=game.player_o).rating == changes["O"].new_rating


def test_mixed_strata_each_rated_by_own_model(players):
    alice, bob, _ = players
    Player.objects.filter(user=bob).update(stratum=3, rating=1000)
    game = start_game(alice, bob, rated=True)
    play_line(game, FORFEIT_BY_I)
    changes = {rc.side: rc for rc in RatingChange.objects.filter(game__live=game)}
    assert changes["I"].model == "S1" and changes["O"].model == "S3"
    assert changes["O"].figures["coefficient"] is not None and changes["O"].figures["ec"] > 0


def test_freeplay_and_null_games_change_no_rating(players):
    alice, bob, _ = players
    free = start_game(alice, bob, rated=False)
    play_line(free, FORFEIT_BY_I)
    assert free.winner == "O"
    null = start_game(alice, bob, rated=True)
    play_line(null, NULL_GAME)
    assert null.status == "finished" and null.winner == "-" and null.reason == "null"
    assert RatingChange.objects.count() == 0
    assert set(Player.objects.values_list("rating", flat=True)) == {250}


@pytest.mark.parametrize("games_before, wins_before, promoted", [
    (19, 14, True),  # exactly 20 games and 75% won
    (18, 14, False),  # one game short
    (19, 13, False),  # 70% won
])
def test_promotion_by_the_20_75_75_rule(players, games_before, wins_before, promoted):
    alice, bob, _ = players
    Player.objects.filter(user=bob).update(rating=440, stratum_games=games_before,
                                           stratum_wins=wins_before)
    game = start_game(alice, bob, rated=True)
    play_line(game, FORFEIT_BY_I)
    p = Player.objects.get(user=bob)
    rc = RatingChange.objects.get(game__live=game, side="O")
    assert rc.new_rating > 440
    if promoted:
        assert (p.stratum, p.rating, p.stratum_games, p.stratum_wins) == (2, 500, 0, 0)
        assert rc.promoted_to == 2 and rc.rating_after == 500
    else:
        assert p.stratum == 1 and p.rating == rc.new_rating and rc.promoted_to is None
