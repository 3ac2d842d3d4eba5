"""Promotion by the 20-75-75 rule (R26) at exactly 20 games, exactly 75% won and a rating
strictly above the limit, never one game, one win or one point earlier."""

from __future__ import annotations

import pytest

from registry.ledger import recompute_all, tally_from_json
from registry.models import Player, RatingChange, StratumRecord
from registry.scoring.figures import figures_from_tally
from tests.registry.helpers import I_WINS, O_WINS, T0, add_game, example, hours, make_player

pytestmark = pytest.mark.django_db

WIN_POINTS = figures_from_tally(tally_from_json(example(I_WINS)[2])).sides["I"].s1_points


@pytest.mark.parametrize("games, wins, rating_after, promoted", [
    (19, 14, 441, True),  # 20 games, 15 won (75%), 441 > 440
    (18, 13, 441, False),  # 19 games: one game short
    (19, 13, 441, False),  # 20 games, 14 won (70%): one win short
    (19, 14, 440, False),  # rating at the limit, not above: one point short
])
def test_s1_threshold(body, games, wins, rating_after, promoted):
    x, y = make_player("X", body=body), make_player("Y", body=body)
    Player.objects.filter(pk=x.pk).update(stratum_games=games, stratum_wins=wins,
                                          rating=rating_after - WIN_POINTS)
    game = add_game(body, x, y, I_WINS)
    x.refresh_from_db()
    rc = RatingChange.objects.get(game=game, player=x)
    assert rc.new_rating == rating_after
    if promoted:
        assert (x.stratum, x.rating, x.stratum_games, x.stratum_wins) == (2, 500, 0, 0)
        assert rc.promoted_to == 2 and rc.rating_after == 500
    else:
        assert (x.stratum, x.rating, rc.promoted_to) == (1, rating_after, None)
        assert x.stratum_games == games + 1


def _season(body, losses_first: int, wins: int):
    x = make_player("X", body=body)
    opponents = [make_player(f"O{i}", body=body) for i in range(losses_first + wins)]
    games = []
    for n, opp in enumerate(opponents):
        name = O_WINS if n < losses_first else I_WINS
        games.append(add_game(body, x, opp, name, at=T0 + hours(n)))
    return x, games


def test_promoted_by_the_twentieth_game_not_the_nineteenth(body):
    x, games = _season(body, losses_first=5, wins=15)
    changes = list(RatingChange.objects.filter(player=x).order_by("played_at"))
    assert [c.promoted_to for c in changes[:19]] == [None] * 19
    assert changes[18].new_rating > 440  # the rating was there a game early
    assert changes[19].promoted_to == 2 and changes[19].rating_after == 500
    x.refresh_from_db()
    assert (x.stratum, x.rating, x.stratum_games, x.games, x.wins) == (2, 500, 0, 20, 15)
    history = list(StratumRecord.objects.filter(player=x).order_by("stratum"))
    assert [(s.stratum, s.games, s.wins, s.promoted_by_id) for s in history] == [
        (1, 20, 15, games[19].pk), (2, 0, 0, None)]
    assert recompute_all().rows_written == 0  # the live path and the cascade agree


def test_not_promoted_at_70_percent(body):
    x, _ = _season(body, losses_first=6, wins=14)
    x.refresh_from_db()
    assert x.stratum == 1 and x.stratum_games == 20 and x.rating > 440


def test_s2_promotion_through_the_registry_starts_s3_at_1000(body):
    """The registry applies an S2 promotion and the S3 start rating; the 875 limit itself (one
    point either side) is pinned in tests/scoring/test_strata_promotion.py."""
    x, y = make_player("X", body=body, stratum=2, rating=500), make_player("Y", body=body)
    Player.objects.filter(pk=x.pk).update(stratum_games=19, stratum_wins=15, rating=870)
    add_game(body, x, y, I_WINS)
    x.refresh_from_db()
    assert x.stratum == 3 and x.rating == 1000
