"""``--stagger`` of benchmarks/bench_load.py: the load benchmark's games start at different
points of their lives, played there through the site's own service, so their ends come at a
steady rate; a game that ends on the way is replaced by a fresh one, as on a real site."""

from __future__ import annotations

import random

import pytest

from play.lifecycle import start_game
from play.models import Game
from tests import benchload

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def bench():
    yield from benchload.module()


@pytest.fixture
def pair(make_user):
    return [make_user("stag-i"), make_user("stag-o")]


def test_a_game_is_advanced_by_the_steps_asked(bench, pair):
    game = start_game(*pair, variant="standard", rated=False)
    uuid = bench.advance(str(game.uuid), [u.pk for u in pair], 12, random.Random(3))
    assert uuid == str(game.uuid)
    game.refresh_from_db()
    assert game.version == 12 and game.is_live


def test_a_game_that_ends_on_the_way_is_replaced_by_a_fresh_one(bench, pair):
    game = start_game(*pair, variant="standard", rated=False)
    uuid = bench.advance(str(game.uuid), [u.pk for u in pair], 1500, random.Random(3))
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    fresh = Game.objects.get(uuid=uuid)
    assert fresh.pk != game.pk and fresh.version == 0 and fresh.is_live
    assert {fresh.player_i_id, fresh.player_o_id} == {u.pk for u in pair}
