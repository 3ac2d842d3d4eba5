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


def test_leaves_are_rate_limited_in_words_and_a_refused_leave_leaves_the_player_waiting(
        client, make_user, settings):
    """Issue 41, finding 7: leaves were not limited, and each one changed every lobby page. A
    budget of their own (``pool_leave``): over it, the page and the API say so in words (429)
    and the player is still in the pool."""
    settings.TALU_RATES = {**settings.TALU_RATES, "pool_leave": "2/minute"}
    ann = make_user("ann")
    client.force_login(ann)
    for _ in range(2):
        pool.join(ann, "standard", BLITZ)
        assert client.post(reverse("pool_leave"), HTTP_ACCEPT="application/json").status_code \
            == 200
    pool.join(ann, "standard", BLITZ)
    page = client.post(reverse("pool_leave"), HTTP_ACCEPT="application/json")
    assert page.status_code == 429
    assert "Too many pool leaves" in page.json()["message"]
    assert "still in the pool" in page.json()["message"]
    assert page.json()["pairing"]["status"] == "waiting"
    api = client.delete(reverse("api:pool-me"))
    assert api.status_code == 429 and "Too many pool leaves" in api.json()["detail"]
    assert client.post(reverse("pool_leave"), {"beacon": "1"}).status_code == 429
    assert pool.state(ann)["status"] == "waiting"
    # without the script: back to the lobby, with the words
    r = client.post(reverse("pool_leave"), follow=True)
    assert "Too many pool leaves" in r.content.decode()
    assert PoolEntry.objects.filter(user=ann, status=PoolEntry.WAITING).exists()


def test_a_player_out_of_joins_can_still_leave(make_user, settings):
    """Joins and leaves have a budget each: one who used up their joins is not stuck in the
    pool (a refused leave would let a wave pair them while they are gone)."""
    settings.TALU_RATES = {**settings.TALU_RATES, "pool_join": "2/minute",
                           "pool_leave": "2/minute"}
    ann = make_user("ann")
    pool.join(ann, "standard", BLITZ)
    pool.join(ann, "standard", BLITZ, rated=False)
    with pytest.raises(pool.RateLimited, match="Too many pool joins"):
        pool.join(ann, "standard", BLITZ)
    assert pool.leave(ann) is True
    assert pool.state(ann) == {"status": "idle"}


def test_a_deactivated_account_is_taken_out_and_never_paired(make_user):
    """Issue 41, finding 8: an account deactivated while waiting was still paired. Deactivated
    by a save (the admin's form), it leaves the pool at once; by a bulk update (no signal), the
    next wave takes it out before pairing; either way it is in no game, and those who wait with
    it are paired with each other."""
    ann, ben, cid, dan = (make_user(n) for n in ("ann", "ben", "cid", "dan"))
    for user in (ann, ben, cid):
        pool.join(user, "standard", BLITZ)
    ann.is_active = False
    ann.save()
    assert pool.state(ann) == {"status": "idle"}
    type(ben).objects.filter(pk=ben.pk).update(is_active=False)
    assert waves_in_thread() == []  # cid waits alone: ann and ben are gone
    assert not PoolEntry.objects.filter(user__in=[ann, ben]).exists()
    assert pool.state(cid)["status"] == "waiting"
    pool.join(dan, "standard", BLITZ)
    assert len(waves_in_thread()) == 1
    assert _games_of(cid).get() == _games_of(dan).get()
    assert not _games_of(ann).exists() and not _games_of(ben).exists()
    ben.refresh_from_db()
    with pytest.raises(pool.PoolError, match="deactivated"):
        pool.join(ben, "standard", BLITZ)


def test_a_pair_deactivated_after_the_wave_read_the_pool_is_not_started(make_user):
    """The wave reads the pool, then flips each pair: an account deactivated in between (a bulk
    update, no signal) is not flipped, and no game starts."""
    ann, ben = make_user("ann"), make_user("ben")
    pool.join(ann, "standard", BLITZ)
    pool.join(ben, "standard", BLITZ)
    the_pool = Pool.objects.get()
    type(ann).objects.filter(pk=ann.pk).update(is_active=False)
    assert pool._start(the_pool, ann.pk, ben.pk, random.Random(1)) is None
    assert not Game.objects.exists()
    assert pool.state(ben)["status"] == "waiting"


def test_a_player_at_the_board_is_refused_a_second_join_in_words(client, make_user):
    """Issue 41, finding 11: a player whose pool game was live could join a pool again (and be
    paired into a second game of one sitting). Refused while they play any game on a live
    clock (pool, challenge or event); not for a correspondence game, nor once the game is
    adjourned (R38) or over."""
    from play.lifecycle import start_game

    ann, ben, cid = make_user("ann"), make_user("ben"), make_user("cid")
    pool.join(ann, "standard", BLITZ)
    pool.join(ben, "standard", BLITZ)
    waves_in_thread()
    game = _games_of(ann).get()
    with pytest.raises(pool.Busy, match="you are playing a game"):
        pool.join(ann, "standard", "fischer 600+5", rated=False)
    assert pool.state(ann)["game"]["id"] == str(game.uuid)  # still paired with their game
    client.force_login(ann)
    page = client.post(reverse("pool_join"), {"variant": "standard", "pool": f"{BLITZ}|1"},
                       HTTP_ACCEPT="application/json")
    assert page.status_code == 400 and "finish it" in page.json()["message"]
    api = client.post(reverse("api:pool-me"), {"time_control": BLITZ},
                      content_type="application/json")
    assert api.status_code == 409 and "you are playing a game" in api.json()["detail"]
    assert _games_of(ann).count() == 1 and PoolEntry.objects.get(user=ann).game == game
    # a challenge's game on a live clock counts too; a correspondence game does not
    start_game(cid, make_user("eve"), time_control="correspondence 3d")
    pool.join(cid, "standard", BLITZ)
    pool.leave(cid)
    start_game(cid, make_user("fay"), time_control="fischer 600+5")
    with pytest.raises(pool.Busy):
        pool.join(cid, "standard", BLITZ)
    # adjourned (nobody to move, R38), then over: free to join
    Game.objects.filter(pk=game.pk).update(to_move="")
    assert pool.join(ann, "standard", BLITZ).status == PoolEntry.WAITING
    pool.leave(ann)
    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED, to_move="")
    assert pool.join(ann, "standard", BLITZ).status == PoolEntry.WAITING


def test_a_waiting_player_whose_other_game_starts_is_taken_out_not_paired(make_user):
    """One waiting in a pool whose game on a live clock starts meanwhile (a challenge, an
    event's round) is at the board: the next wave takes them out rather than pair them into a
    second game; an open challenge of a player at the board is not taken by a join either."""
    from play.lifecycle import start_game
    from play.lobby import challenges

    ann, ben, cid, dan = (make_user(n) for n in ("ann", "ben", "cid", "dan"))
    pool.join(ann, "standard", BLITZ)
    pool.join(ben, "standard", BLITZ)
    challenges.open_challenge(cid, time_control=BLITZ)  # fits the pool; open before the game
    start_game(ann, cid, time_control="fischer 600+5")
    assert waves_in_thread() == []
    assert pool.state(ann) == {"status": "idle"}
    assert pool.state(ben)["status"] == "waiting" and _games_of(ann).count() == 1
    assert pool.join(dan, "standard", BLITZ).status == PoolEntry.WAITING
    assert _games_of(cid).count() == 1
