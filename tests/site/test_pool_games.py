"""Quick pairing for every game with two seats (issue 36, issue 42's "pools per game"): a pool
of another game than talu pairs its players by their rating in that game (not talu's), starts
that game's table, says its name, and takes their open challenges of that game only."""

from __future__ import annotations

import pytest
from django.utils import timezone

from play.games.match.match import Match
from play.games.registry import register, unregister
from play.lobby import challenges, pool
from play.models import Challenge, Game, PoolEntry
from play.worker.rounds import waves_in_thread
from registry import services
from registry.game_ratings.models import GameRating
from registry.models import Player
from tests.match.tinygame import TinyRules

pytestmark = pytest.mark.django_db(transaction=True)

BLITZ = "fischer 180+2"


@pytest.fixture(autouse=True)
def _no_wave_wait(settings):
    settings.TALU_POOL_WAVE = 0
    settings.TALU_RATES = {**settings.TALU_RATES, "pool_join": "off", "challenge": "off"}



def _rated(user, display: int) -> None:
    """``user``'s tiny rating shown as ``display`` (1500 + 48 (mu - 25))."""
    GameRating.objects.create(user=user, game="tiny", variant="duel",
                              mu=25 + (display - 1500) / 48, sigma=3.0, games=10,
                              updated=timezone.now())


def test_a_pool_of_another_game_starts_that_games_table(tiny, make_user):
    a, b = make_user("ann"), make_user("ben")
    assert ("tiny/duel", "Tiny race · Duel") in pool.pool_variants()
    assert all(v != "tiny/race" for v, _ in pool.pool_variants())  # three seats: no pool
    pool.join(a, "tiny/duel", BLITZ)
    assert pool.state(a)["pool"]["title"] == "Tiny race · Duel"
    pool.join(b, "tiny/duel", BLITZ)
    waves_in_thread()
    game = Game.objects.get(seats__user=a)
    assert (game.game, game.variant, game.time_control) == ("tiny", "duel", BLITZ)
    assert {s.user_id for s in game.seats.all()} == {a.pk, b.pk}
    assert pool.state(b)["status"] == PoolEntry.PAIRED


def test_a_games_pool_pairs_by_that_games_rating_not_talus(tiny, make_user):
    a, b, c = make_user("ann"), make_user("ben"), make_user("cyd")
    for u in (a, b, c):  # equal in talu: talu's rating would pair anyone with anyone
        services.player_of(u)
    Player.objects.filter(user__in=[a, b, c]).update(rating=500)
    _rated(a, 2400)
    _rated(b, 1500)  # cyd is new to the game: 1500 too
    pool.join(a, "tiny/duel", BLITZ)
    assert PoolEntry.objects.get(user=a).rating == 2400
    pool.join(b, "tiny/duel", BLITZ)
    waves_in_thread()
    assert not Game.objects.exists()  # 900 apart: out of each other's range (R47)
    pool.join(c, "tiny/duel", BLITZ)
    waves_in_thread()
    game = Game.objects.get()
    assert {s.user_id for s in game.seats.all()} == {b.pk, c.pk}


def test_a_games_pool_takes_an_open_challenge_of_that_game_only(tiny, make_user):
    a, b = make_user("ann"), make_user("ben")
    challenges.open_challenge(a, "standard", rated=True, time_control=BLITZ)  # talu's
    tiny_challenge = challenges.open_challenge(a, "tiny/duel", rated=True, time_control=BLITZ)
    entry = pool.join(b, "tiny/duel", BLITZ)
    assert entry.status == PoolEntry.PAIRED and entry.game.game == "tiny"
    tiny_challenge.refresh_from_db()
    assert tiny_challenge.game_id == entry.game_id


def test_a_player_at_the_board_in_another_game_may_not_wait(tiny, make_user):
    a, b, c = make_user("ann"), make_user("ben"), make_user("cyd")
    pool.join(a, "tiny/duel", BLITZ)
    pool.join(b, "tiny/duel", BLITZ)
    waves_in_thread()
    with pytest.raises(pool.Busy, match="you are playing a game"):
        pool.join(a, "standard", BLITZ)
    pool.join(c, "standard", BLITZ)  # cyd is free


def test_the_psf_bound_is_talus_only(tiny, make_user):
    a = make_user("ann")
    services.player_of(a)
    Player.objects.filter(user=a).update(stratum=3, rating=2000)
    with pytest.raises(pool.PoolError, match="PSF bound is for S3 players"):
        pool.join(a, "tiny/duel", BLITZ, psf_only=True)


def test_a_challenge_keeps_its_variants_options_and_refuses_others(make_user):
    """T1's kind of option (tafl's immunity): a challenge names the variant's own options, the
    game starts with them, and an option the variant lacks is refused in words, nothing
    kept. A pool never takes a challenge with options (it plays the variant as it is)."""
    from play.games.protocol import Variant
    from tests.match import tinygame
    duel = tinygame.VARIANTS["duel"]

    class WithOption(TinyRules):
        variants = {**tinygame.VARIANTS, "duel": Variant(
            "tiny", "duel", "Duel", duel.seats, {"target": 10, "fast": False}, duel.offers)}

    register(Match(WithOption()))
    try:
        _options_kept_and_checked(make_user)
    finally:
        unregister("tiny")


def _options_kept_and_checked(make_user):
    a, b, c = make_user("ann"), make_user("ben"), make_user("cyd")
    with pytest.raises(challenges.ChallengeError, match="Duel has no option 'wild'"):
        challenges.open_challenge(a, "tiny/duel", options={"wild": True})
    with pytest.raises(challenges.ChallengeError, match="'fast' is bool"):
        challenges.open_challenge(a, "tiny/duel", options={"fast": "yes"})
    assert not Challenge.objects.exists()
    ch = challenges.open_challenge(a, "tiny/duel", time_control=BLITZ, options={"fast": True})
    entry = pool.join(c, "tiny/duel", BLITZ)  # the pool leaves it alone
    assert entry.status == PoolEntry.WAITING
    game = challenges.accept_challenge(b, ch.pk)
    assert game.options == {"fast": True}
