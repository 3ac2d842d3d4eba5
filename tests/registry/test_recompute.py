"""The full recompute (R30): equal to the pure cascade, writes only what differs, and heals
missing or stale per-game figures from the stored tallies (never from notation)."""

from __future__ import annotations

import pytest

from registry import figcache
from registry.ledger import recompute_all
from registry.models import Player, RatingChange, RegistryGame, StratumRecord
from tests.registry.helpers import (
    I_WINS,
    O_ELIMINATES,
    O_WINS,
    T0,
    add_game,
    expected_ratings,
    hours,
    make_player,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(body):
    ps = [make_player(f"P{i}", body=body, stratum=1 + i % 3, rating=(250, 500, 1200)[i % 3])
          for i in range(6)]
    names = (I_WINS, O_WINS, O_ELIMINATES)
    return [add_game(body, ps[n % 6], ps[(n * 5 + 1) % 6], names[n % 3], at=T0 + hours(n))
            for n in range(30) if n % 6 != (n * 5 + 1) % 6]


def state():
    return (sorted(Player.objects.values_list("pk", "rating", "stratum", "games", "wins")),
            sorted(RatingChange.objects.values_list("game_id", "player_id", "new_rating",
                                                    "rating_after")),
            sorted(StratumRecord.objects.values_list("player_id", "stratum", "games", "wins",
                                                     "rating_end")))


def test_recompute_equals_cascade_and_writes_nothing_when_in_step(season):
    assert {p.pk: p.rating for p in Player.objects.all()} == expected_ratings(season)
    before = state()
    summary = recompute_all()
    assert summary.rows_written == 0 and summary.games_rerated == len(season)
    assert state() == before


def test_recompute_repairs_every_kind_of_row(season):
    before = state()
    RatingChange.objects.filter(game=season[3]).delete()
    RatingChange.objects.filter(game=season[5]).update(new_rating=1, figures={})
    Player.objects.update(rating=7, games=0)
    StratumRecord.objects.all().delete()
    summary = recompute_all()
    assert summary.rows_written >= 2 + 2 + 6
    assert state() == before


def test_stale_figures_are_rebuilt_from_the_tally(season):
    before = state()
    RegistryGame.objects.filter(pk__in=[g.pk for g in season[:5]]).update(figures={})
    RegistryGame.objects.filter(pk=season[6].pk).update(figures={"v": -1})
    recompute_all()
    assert state() == before
    assert all(figcache.is_current(f) for f in RegistryGame.objects.values_list("figures",
                                                                                flat=True))
