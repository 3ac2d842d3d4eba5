"""Annulling a game recomputes every rating from it on, for every player affected (R30):
S3's Ec couples a player to their opponents' ratings, so an annulment reaches players who
never played the annulled game."""

from __future__ import annotations

import pytest

from registry.corrections import annul_game
from registry.models import AuditEntry, Player, RatingChange, RegistryGame
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
def s3_chain(body):
    """Four S3 players: A-B, then B-C, then C-D, then A-D (each game one hour later)."""
    a, b, c, d = (make_player(n, body=body, stratum=3, rating=r)
                  for n, r in (("A", 1400), ("B", 1200), ("C", 1100), ("D", 1600)))
    g1 = add_game(body, a, b, I_WINS, at=T0)
    g2 = add_game(body, b, c, O_WINS, at=T0 + hours(1))
    g3 = add_game(body, c, d, O_ELIMINATES, at=T0 + hours(2))
    g4 = add_game(body, a, d, I_WINS, at=T0 + hours(3))
    return (a, b, c, d), (g1, g2, g3, g4)


def snapshot():
    return {p.pk: p.rating for p in Player.objects.all()}


def test_annulment_reaches_opponents_of_opponents(s3_chain, admin_user):
    (a, b, c, d), (g1, g2, g3, g4) = s3_chain
    before = snapshot()
    summary = annul_game(g1, reason="the arbiter's report: wrong players seated",
                         actor_user=admin_user)
    after = snapshot()
    # C never played g1, D never played anyone who played g1 before g3: all four move.
    assert all(after[p.pk] != before[p.pk] for p in (a, b, c, d))
    assert after == {**before, **expected_ratings([g2, g3, g4])}
    assert summary.games_rerated == 3 and summary.players_changed == 4
    assert not RatingChange.objects.filter(game=g1).exists()
    # C's rating change in g2 now starts from B's seed, not B's rating after g1.
    rc = RatingChange.objects.get(game=g2, player=c)
    assert rc.model == "S3" and rc.figures["opponent_rating"] == 1200


def test_annulment_is_audited(s3_chain, admin_user):
    (a, *_), (g1, *_) = s3_chain
    old = Player.objects.get(pk=a.pk).rating
    annul_game(g1, reason="wrong players seated", actor_user=admin_user)
    g1.refresh_from_db()
    assert g1.status == RegistryGame.ANNULLED
    entry = AuditEntry.objects.get(action="annul")
    assert entry.actor_user == admin_user and entry.reason == "wrong players seated"
    assert entry.before["status"] == "finished" and entry.after["status"] == "annulled"
    assert entry.after["ratings"][a.player_id] == [old, Player.objects.get(pk=a.pk).rating]


def test_annulling_the_last_game_touches_only_its_players(s3_chain):
    (_a, b, c, _d), (g1, g2, g3, g4) = s3_chain
    before = snapshot()
    annul_game(g4, reason="recorded twice")
    after = snapshot()
    assert after[b.pk] == before[b.pk] and after[c.pk] == before[c.pk]
    assert after == {**before, **expected_ratings([g1, g2, g3])}


def test_annulling_twice_or_without_reason_is_refused(s3_chain):
    _, (g1, *_) = s3_chain
    with pytest.raises(ValueError, match="reason"):
        annul_game(g1, reason=" ")
    annul_game(g1, reason="x")
    before = snapshot()
    with pytest.raises(ValueError, match="already annulled"):
        annul_game(g1, reason="again")
    assert snapshot() == before


def test_annulled_only_game_returns_player_to_start(body):
    p, q = make_player("P", body=body), make_player("Q", body=body)
    g = add_game(body, p, q)
    assert Player.objects.get(pk=p.pk).rating != 250
    annul_game(g, reason="x")
    p.refresh_from_db()
    assert (p.rating, p.games, p.stratum_games, p.wins) == (250, 0, 0, 0)
