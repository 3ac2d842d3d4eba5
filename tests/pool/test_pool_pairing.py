"""The pool's pairing core (R47): one pair per player per wave, minimum total cost (checked
against a brute force), ranges widening with waves, the PSF bound (R27) and no instant rematch."""

from __future__ import annotations

import random

import pytest

from play.lobby import pool_pairing
from play.lobby.pool_pairing import (
    BASE_RANGE,
    WIDEN_PER_WAVE,
    PoolPairingError,
    Seeker,
    acceptable_range,
    accepts,
    in_range,
    pair_wave,
)


def brute_force(pool: list[Seeker]) -> tuple[int, int]:
    """(most pairs, least total cost among matchings with that many) over every matching."""
    best = (0, 0)

    def walk(rest: list[Seeker], pairs: int, total: int) -> None:
        nonlocal best
        if (pairs, -total) > (best[0], -best[1]):
            best = (pairs, total)
        if len(rest) < 2:
            return
        first, others = rest[0], rest[1:]
        walk(others, pairs, total)  # first stays unpaired
        for k, b in enumerate(others):
            if accepts(first, b):
                walk(others[:k] + others[k + 1:], pairs + 1, total + abs(first.rating - b.rating))

    walk(list(pool), 0, 0)
    return best


def random_pool(rng: random.Random, n: int) -> list[Seeker]:
    keys = [f"p{i}" for i in range(n)]
    pool = []
    for key in keys:
        pool.append(Seeker(
            key, rng.randint(900, 1500), waves=rng.randint(0, 6),
            floor=rng.choice([None, None, None, rng.randint(900, 1300)]),
            last_opponent=rng.choice([None, None, rng.choice(keys)])))
    return pool


def test_each_player_in_at_most_one_pair_and_only_acceptable_pairs():
    rng = random.Random(23)
    for _ in range(200):
        pool = random_pool(rng, rng.randint(0, 40))
        wave = pair_wave(pool)
        keys = [k for pair in wave.pairs for k in pair]
        assert len(keys) == len(set(keys))
        by_key = {p.key: p for p in pool}
        for a, b in wave.pairs:
            assert accepts(by_key[a], by_key[b])
        assert wave.cost == sum(abs(by_key[a].rating - by_key[b].rating) for a, b in wave.pairs)


def test_minimum_total_cost_against_brute_force():
    rng = random.Random(47)
    for _ in range(300):
        pool = random_pool(rng, rng.randint(2, 10))
        wave = pair_wave(pool)
        most, least = brute_force(pool)
        assert (len(wave.pairs), wave.cost) == (most, least), pool


def test_the_cheapest_matching_not_the_greedy_one():
    # Greedy on the closest pair takes (1000, 1010) and leaves 940 and 1070 130 apart, out of
    # range; the matching pairs 940-1000 and 1010-1070 (cost 120, two games).
    pool = [Seeker("a", 940), Seeker("b", 1000), Seeker("c", 1010), Seeker("d", 1070)]
    wave = pair_wave(pool)
    assert wave.pairs == (("a", "b"), ("c", "d"))
    assert wave.cost == 120


def test_range_widens_with_waves_waited():
    assert acceptable_range(0) == BASE_RANGE
    assert acceptable_range(4) == BASE_RANGE + 4 * WIDEN_PER_WAVE
    far = 1000 + BASE_RANGE + 3 * WIDEN_PER_WAVE  # needs both to have waited 3 waves
    for waves in range(3):
        assert pair_wave([Seeker("a", 1000, waves), Seeker("b", far, waves)]).pairs == ()
    assert pair_wave([Seeker("a", 1000, 3), Seeker("b", far, 3)]).pairs == (("a", "b"),)
    # one side's long wait does not widen the other's range
    assert pair_wave([Seeker("a", 1000, 50), Seeker("b", far, 0)]).pairs == ()


def test_psf_bound_never_crossed_however_long_they_wait():
    # An S3 player at 1800 with aNPc 1.2 has PSF 1800 x (2/1.2 - 1) = 1200 (R27).
    strong = Seeker("s3", 1800, waves=10_000, floor=1800 * (2 / 1.2 - 1))
    weak = Seeker("w", 1199, waves=10_000)
    assert pair_wave([strong, weak]).pairs == ()
    assert in_range(strong, [weak]) == 0
    at_floor = Seeker("f", 1200, waves=10_000)
    assert pair_wave([strong, at_floor]).pairs == (("f", "s3"),)
    # without the opt-in the same wait pairs them
    assert pair_wave([Seeker("s3", 1800, waves=10_000), weak]).pairs == (("w", "s3"),)


def test_the_pair_that_just_played_is_never_paired_again():
    a = Seeker("a", 1000, waves=100, last_opponent="b")
    b = Seeker("b", 1000, waves=100, last_opponent="a")
    assert pair_wave([a, b]).pairs == ()
    # one-sided memory is enough (b has played someone else since joining? still excluded)
    assert pair_wave([a, Seeker("b", 1000)]).pairs == ()
    c = Seeker("c", 1050)
    assert pair_wave([a, b, c]).paired() in ({"a", "c"}, {"b", "c"})


def test_in_range_counts_acceptable_opponents():
    me = Seeker("me", 1000)
    others = [Seeker("x", 1090), Seeker("y", 1200), Seeker("me", 1000), Seeker("z", 950)]
    assert in_range(me, others) == 2


def test_a_player_twice_is_refused():
    with pytest.raises(PoolPairingError):
        pair_wave([Seeker("a", 1000), Seeker("a", 1010)])


def test_a_large_pool_in_rating_bands_pairs_nearly_everyone_acceptably(monkeypatch):
    rng = random.Random(5)
    pool = random_pool(rng, 600)  # several bands of PARTITION players
    by_key = {p.key: p for p in pool}
    wave = pair_wave(pool)
    keys = [k for pair in wave.pairs for k in pair]
    assert len(keys) == len(set(keys))
    assert all(accepts(by_key[a], by_key[b]) for a, b in wave.pairs)
    with monkeypatch.context() as m:  # the whole pool matched at once: the most there can be
        m.setattr(pool_pairing, "PARTITION", 10_000)
        whole = pair_wave(pool)
    # measured: 278 of 292 here (the rest wait one more wave, their ranges wider)
    assert len(wave.pairs) >= 0.93 * len(whole.pairs) >= 250
    # a pair across two bands' edge is found by the second pass over the players left over
    edge = [Seeker(f"x{i}", 1000 + 1000 * (i // 121) + i % 121, waves=0) for i in range(241)]
    edge[120] = Seeker("x120", 1000 + 120, waves=40)  # alone at the top of the first band
    edge[240] = Seeker("x240", 1000 + 120 + 1000, waves=40)  # alone, 1000 above it
    assert ("x120", "x240") in pair_wave(edge).pairs
