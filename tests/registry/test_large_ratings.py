"""Ratings beyond 32 bits are stored and recomputed, not refused by the database.

S2 and S3 are multiplicative (R22 new = old x Pc, R23 new = old x APc, both up to 2), so a
player who keeps winning without being promoted (a win rate under 75%, R26) can double a rating
game after game; 31 doublings of 1,000 pass 2^31. The registry benchmark's generator hit it: a
recompute failed with an out-of-range integer and rolled back. The columns are 64-bit now.
"""

from __future__ import annotations

import pytest

from registry.ledger import recompute_all
from registry.models import Player, RatingChange
from tests.registry.helpers import I_WINS, T0, add_game, expected_ratings, hours, make_player

pytestmark = pytest.mark.django_db

BIG = 3_000_000_000  # > 2^31 - 1


def test_a_rating_above_two_to_the_31_is_kept_through_a_recompute(body):
    rich = make_player("Rich", body=body, stratum=2, rating=BIG)
    other = make_player("Other", body=body, stratum=2, rating=600)
    games = [add_game(body, rich, other, I_WINS, at=T0 + hours(n)) for n in range(3)]
    recompute_all()

    rich.refresh_from_db()
    expected = expected_ratings(games)
    assert rich.rating == expected[rich.pk] > BIG
    assert RatingChange.objects.filter(player=rich).order_by("played_at").first().old_rating == BIG
    assert Player.objects.get(pk=other.pk).rating == expected[other.pk]
