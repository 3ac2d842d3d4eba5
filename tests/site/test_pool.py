"""Quick pairing (R47) on the site: join and leave (rate limited), waves in the worker that
start exactly one game per pair, the PSF opt-in (R27) for S3 players only, the just-played
exclusion, two workers racing one wave, and the API for apps and bots."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from play.lobby import pool
from play.models import Game, Pool, PoolEntry
from play.worker.rounds import waves_in_thread
from registry import services
from registry.models import Player

pytestmark = pytest.mark.django_db(transaction=True)

BLITZ = "fischer 180+2"


@pytest.fixture(autouse=True)
def _no_wave_wait(settings):
    settings.TALU_POOL_WAVE = 0  # every round may run a wave: the tests need not sleep
    settings.TALU_RATES = {**settings.TALU_RATES, "pool_join": "off"}


def _s3(user, rating: int, anpc: float | None = None) -> None:
    services.player_of(user)
    Player.objects.filter(user=user).update(stratum=3, rating=rating, anpc=anpc)


def _games_of(user):
    return Game.objects.filter(Q(player_i=user) | Q(player_o=user))


def test_two_players_in_one_pool_get_one_game(make_user):
    a, b = make_user("ann"), make_user("ben")
    pool.join(a, "standard", BLITZ, rated=True)
    assert pool.state(a)["status"] == "waiting"
    assert pool.state(a)["players_waiting"] == 1 and pool.state(a)["in_range"] == 0
    pool.join(b, "standard", BLITZ, rated=True)
    assert pool.state(a)["in_range"] == 1
    started = waves_in_thread()
    assert len(started) == 1
    game = Game.objects.get()
    assert {game.player_i, game.player_o} == {a, b}
    assert (game.variant, game.time_control, game.rated) == ("standard", BLITZ, True)
    for user in (a, b):
        st = pool.state(user)
        assert st["status"] == "paired" and st["game"]["id"] == str(game.uuid)
    assert waves_in_thread() == []  # nobody is paired twice
    assert Game.objects.count() == 1


def test_pools_do_not_mix_and_leaving_takes_one_out_at_once(make_user):
    a, b, c = make_user("ann"), make_user("ben"), make_user("cid")
    pool.join(a, "standard", BLITZ, rated=True)
    pool.join(b, "standard", BLITZ, rated=False)  # freeplay: another pool
    pool.join(c, "standard", BLITZ, rated=True)
    assert pool.leave(c) is True
    assert pool.state(c) == {"status": "idle"}
    waves_in_thread()
    assert Game.objects.count() == 0
    assert pool.leave(c) is False
    # joining another pool moves the player
    pool.join(b, "standard", BLITZ, rated=True)
    assert PoolEntry.objects.filter(user=b).count() == 1
    waves_in_thread()
    assert _games_of(a).get() == _games_of(b).get()


def test_unknown_pools_are_refused_with_words(make_user):
    a = make_user("ann")
    with pytest.raises(pool.PoolError, match="unknown variant"):
        pool.join(a, "chess", BLITZ)
    with pytest.raises(pool.PoolError, match="no pool for"):
        pool.join(a, "standard", "correspondence 3d")
    assert not PoolEntry.objects.exists()


def test_joins_are_rate_limited(make_user, settings):
    settings.TALU_RATES = {**settings.TALU_RATES, "pool_join": "2/minute"}
    a = make_user("ann")
    pool.join(a, "standard", BLITZ)
    pool.join(a, "standard", BLITZ)
    with pytest.raises(pool.RateLimited, match="Too many pool joins"):
        pool.join(a, "standard", BLITZ)


def test_the_pair_that_just_played_waits_for_someone_else(make_user):
    a, b, c = make_user("ann"), make_user("ben"), make_user("cid")
    pool.join(a, "standard", BLITZ)
    pool.join(b, "standard", BLITZ)
    waves_in_thread()
    first = Game.objects.get()
    Game.objects.filter(pk=first.pk).update(status=Game.FINISHED)
    pool.join(a, "standard", BLITZ)
    pool.join(b, "standard", BLITZ)
    for _ in range(5):
        assert waves_in_thread() == []
    assert pool.state(a)["waves"] == 5  # waiting widens their range
    pool.join(c, "standard", BLITZ)
    waves_in_thread()
    assert _games_of(c).count() == 1
    assert Game.objects.count() == 2


def test_psf_opt_in_is_for_s3_players_and_never_crossed(make_user):
    low, strong, weak = make_user("low"), make_user("strong"), make_user("weak")
    with pytest.raises(pool.PoolError, match="S3 players"):
        pool.join(low, "standard", BLITZ, psf_only=True)
    _s3(strong, 1800, anpc=1.2)  # PSF 1200 (R27)
    _s3(weak, 1150)
    entry = pool.join(strong, "standard", BLITZ, psf_only=True)
    assert entry.floor == pytest.approx(1200)
    pool.join(weak, "standard", BLITZ)
    for _ in range(30):  # far past the widening that would take 650 points
        assert waves_in_thread() == []
    assert pool.state(strong)["range"] > 650 and pool.state(strong)["in_range"] == 0
    pool.leave(weak)
    at_floor = make_user("floor")
    _s3(at_floor, 1200)  # exactly the PSF: APc = 1 at aNPc, not below it
    pool.join(at_floor, "standard", BLITZ)
    for _ in range(10):  # 600 apart: the newcomer's own range must widen to 600 (R47)
        assert waves_in_thread() == []
    assert len(waves_in_thread()) == 1
    assert _games_of(strong).get() == _games_of(at_floor).get()


def test_two_workers_racing_one_wave_start_each_game_once(make_user):
    users = [make_user(f"p{i}") for i in range(10)]
    for u in users:
        pool.join(u, "standard", BLITZ)
    the_pool = Pool.objects.get()
    stale = Pool.objects.get(pk=the_pool.pk)  # the second worker read the same wave number
    first = pool.run_wave(the_pool, rng=random.Random(1))
    assert len(first) == 5
    assert pool.run_wave(stale, rng=random.Random(2)) is None  # lost the claim: did nothing
    # Even past the claim (two overlapping waves), a pair already taken is never started again
    a, b = first[0].users
    assert pool._start(stale, a, b, random.Random(3)) is None
    assert Game.objects.count() == 5
    for u in users:
        assert _games_of(u).count() == 1


def test_api_join_read_leave(client, make_user):
    a, b = make_user("ann"), make_user("ben")
    url = reverse("api:pool-me")
    assert client.get(url).status_code in (401, 403)
    client.force_login(a)
    assert client.get(url).json() == {"status": "idle"}
    r = client.post(url, {"variant": "standard", "time_control": BLITZ, "rated": False},
                    content_type="application/json")
    assert r.status_code == 201 and r.json()["status"] == "waiting"
    assert r.json()["pool"]["time"] == "3+2" and r.json()["pool"]["rated"] is False
    bad = client.post(url, {"time_control": "fischer 1+0"}, content_type="application/json")
    assert bad.status_code == 400
    listing = client.get(reverse("api:pool-list")).json()
    row = next(p for p in listing if p["time_control"] == BLITZ and not p["rated"]
               and p["variant"] == "standard")
    assert row["waiting"] == 1 and row["time"] == "3+2"
    assert client.delete(url).status_code == 204
    assert client.delete(url).status_code == 409
    client.post(url, {"time_control": BLITZ, "rated": False}, content_type="application/json")
    pool.join(b, "standard", BLITZ, rated=False)
    waves_in_thread()
    st = client.get(url).json()
    assert st["status"] == "paired"
    assert client.get(st["game"]["url"]).status_code == 200
    assert client.delete(url).status_code == 409  # the game has started


def test_api_joins_are_rate_limited(client, make_user, settings):
    settings.TALU_RATES = {**settings.TALU_RATES, "pool_join": "1/minute"}
    client.force_login(make_user("ann"))
    url = reverse("api:pool-me")
    assert client.post(url, {}, content_type="application/json").status_code == 201
    assert client.post(url, {}, content_type="application/json").status_code == 429


def test_an_open_challenge_that_fits_is_taken_instead_of_waiting(make_user):
    from play.lobby import challenges
    from play.models import Challenge

    host, far_host, named_host, joiner = (make_user(n) for n in ("host", "far", "named",
                                                                  "joiner"))
    _s3(far_host, 1800)  # out of a newcomer's range (250 +- 100)
    challenges.open_challenge(far_host, time_control=BLITZ)
    challenges.open_challenge(named_host, time_control=BLITZ, opponent="host")  # not for joiner
    challenges.open_challenge(host, time_control="fischer 600+5")  # another pool
    fits = challenges.open_challenge(host, time_control=BLITZ)
    entry = pool.join(joiner, "standard", BLITZ, rated=True)
    assert entry.status == PoolEntry.PAIRED
    game = _games_of(joiner).get()
    assert {game.player_i, game.player_o} == {host, joiner}
    assert Challenge.objects.get(pk=fits.pk).game == game
    assert pool.state(joiner)["game"]["id"] == str(game.uuid)
    assert Challenge.objects.filter(status=Challenge.OPEN).count() == 3


def test_200_players_joining_and_leaving_under_two_workers(django_user_model):
    """200 players join and leave at random between waves run by two workers that read the
    pools at the same time (one wins each claim, the other's stale wave does nothing): every
    game has two players who were both waiting, nobody is in two games, nobody who left is
    paired afterwards or still in the pool."""
    rng = random.Random(2023)
    users = django_user_model.objects.bulk_create(
        [django_user_model(username=f"sim{i}") for i in range(200)])
    waiting: set[int] = set()
    left: set[int] = set()
    for step in range(40):
        for u in rng.sample(users, 15):
            if u.pk in waiting and rng.random() < 0.4:
                pool.leave(u)
                waiting.discard(u.pk)
                left.add(u.pk)
            elif u.pk not in waiting and not _games_of(u).exists():
                pool.join(u, "standard", BLITZ, rated=step % 2 == 0)
                waiting.add(u.pk)
                left.discard(u.pk)
        seen = list(Pool.objects.all())  # both workers read the pools now
        stale = list(Pool.objects.all())
        for first, second in zip(seen, stale, strict=True):
            started = pool.run_wave(first, rng=rng) or []
            assert pool.run_wave(second, rng=rng) is None
            for pairing in started:
                assert set(pairing.users) <= waiting
                waiting -= set(pairing.users)
    games = list(Game.objects.all())
    assert games
    players = [p for g in games for p in (g.player_i_id, g.player_o_id)]
    assert len(players) == len(set(players))  # nobody in two games
    assert not set(players) & left
    still = set(PoolEntry.objects.filter(status=PoolEntry.WAITING).values_list("user_id",
                                                                               flat=True))
    assert still == waiting and not still & left
    paired = set(PoolEntry.objects.filter(status=PoolEntry.PAIRED).values_list("user_id",
                                                                               flat=True))
    assert paired == set(players)


def test_waves_every_few_seconds_and_at_once_when_the_pool_is_large(make_user, settings):
    settings.TALU_POOL_WAVE = 3600
    settings.TALU_POOL_LARGE = 4
    far = [make_user(f"far{i}") for i in range(4)]
    for i, u in enumerate(far):  # 1000 points apart: nobody in anyone's range yet
        _s3(u, 1000 + 1000 * i)
    pool.join(far[0], "standard", BLITZ)
    assert pool.due_pools()  # never waved: due
    waves_in_thread()
    pool.join(far[1], "standard", BLITZ)
    third = pool.join(far[2], "standard", BLITZ)
    assert pool.due_pools() == []  # the last wave was just now, and 3 is not large
    assert not pool.wants_wave_now(third)  # nobody in range: no wave at once either
    fourth = pool.join(far[3], "standard", BLITZ)
    assert [p.pk for p in pool.due_pools()] == [Pool.objects.get().pk]  # 4: at once
    assert pool.wants_wave_now(fourth)


def test_a_pair_found_at_a_join_is_paired_at_once_and_widens_nobody(make_user, settings):
    """R47, early waves: two players who accept each other are paired at the workers' next
    round, however far off the regular wave is; that wave widens nobody's range and keeps the
    regular waves' time (benchmarks/bench_matchmaking.py: seconds of waiting before)."""
    settings.TALU_POOL_WAVE = 3600
    settings.TALU_POOL_EARLY_WAVES = True  # beyond R47 as written: off by default
    far, ann, ben = make_user("far"), make_user("ann"), make_user("ben")
    _s3(far, 2000)
    pool.join(far, "standard", BLITZ)
    assert waves_in_thread() == []  # never waved: a regular wave, far waits it
    regular_at = Pool.objects.get().wave_at
    first = pool.join(ann, "standard", BLITZ)
    assert not pool.wants_wave_now(first)  # far is 1,750 points away
    assert waves_in_thread() == [] and Pool.objects.get().wave == 1  # nothing claimed
    second = pool.join(ben, "standard", BLITZ)
    assert pool.wants_wave_now(second)
    started = waves_in_thread()
    assert [set(p.users) for p in started] == [{ann.pk, ben.pk}]
    assert _games_of(ann).get() == _games_of(ben).get()
    the_pool = Pool.objects.get()
    assert (the_pool.wave, the_pool.wave_at) == (2, regular_at)
    assert pool.state(far)["waves"] == 1  # not widened by the early wave
    assert waves_in_thread() == []  # nobody paired twice


def test_by_default_a_pair_found_at_a_join_waits_for_the_regular_wave(make_user, settings):
    """R47 as written: waves every few seconds, and at once only when the pool is large; two
    players who accept each other in a small pool are paired by the next regular wave, not
    by their join (``TALU_POOL_EARLY_WAVES`` off, the default)."""
    settings.TALU_POOL_WAVE = 3600
    ann, ben = make_user("ann"), make_user("ben")
    pool.join(ann, "standard", BLITZ)
    assert waves_in_thread() == []  # never waved: the first regular wave, ann alone
    second = pool.join(ben, "standard", BLITZ)
    assert not pool.wants_wave_now(second)
    assert waves_in_thread() == []  # the next regular wave is an hour away
    assert pool.state(ann)["status"] == pool.state(ben)["status"] == "waiting"
    Pool.objects.update(wave_at=timezone.now() - timedelta(seconds=3601))  # the hour is past
    started = waves_in_thread()
    assert [set(p.users) for p in started] == [{ann.pk, ben.pk}]
