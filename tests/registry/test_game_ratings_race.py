"""Two workers rating at once (registry/game_ratings/services.py, issue 36): the same finished
game twice rates it once; two games of one player both count, one after the other. On the
services lane (PostgreSQL) the threads really overlap on the rating rows' locks; on SQLite the
one writer serialises them."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from itertools import pairwise

import pytest
from django.db import OperationalError, connection

from registry.game_ratings.models import GameRating, GameRatingChange
from registry.game_ratings.services import rate_finished
from tests.registry.helpers import T0

pytestmark = pytest.mark.django_db(transaction=True)


def together(*calls) -> list:
    """Run ``calls`` on threads of their own, released at once; their answers in order."""
    barrier = threading.Barrier(len(calls))
    answers: list = [None] * len(calls)
    errors: list[BaseException] = []

    def run(i: int, call) -> None:
        barrier.wait()
        try:
            for attempt in range(200):  # SQLite may answer "busy" past its timeout: again
                try:
                    answers[i] = call()
                    return
                except OperationalError:
                    if attempt == 199:
                        raise
                    time.sleep(0.01)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    return answers


def test_two_workers_rating_one_game_rate_it_once(make_user):
    ana, ben, cyd = (make_user(n) for n in ("ana", "ben", "cyd"))
    seats = [(ana.pk, 1), (ben.pk, 2), (cyd.pk, 2)]
    for game_id in range(1, 6):  # five rounds of the race, each a new game
        first, second = together(
            lambda g=game_id: rate_finished(g, "talat", "", seats, T0 + timedelta(hours=g)),
            lambda g=game_id: rate_finished(g, "talat", "", seats, T0 + timedelta(hours=g)))
        assert [c.pk for c in first] == [c.pk for c in second]
        assert len(first) == 3
    assert GameRatingChange.objects.count() == 15
    assert set(GameRating.objects.values_list("games", flat=True)) == {5}
    # the history is one unbroken chain: each game starts where the one before ended
    for user in (ana, ben, cyd):
        chain = list(GameRatingChange.objects.filter(user=user).order_by("at")
                     .values_list("mu_before", "mu_after"))
        assert all(a[1] == b[0] for a, b in pairwise(chain))


def test_two_games_of_one_player_finishing_at_once_both_count(make_user):
    ana, ben, cyd = (make_user(n) for n in ("ana", "ben", "cyd"))
    # rated before, so both writers find ana's row and would read it at once unlocked
    rate_finished(1, "tafl", "", [(ana.pk, 1), (ben.pk, 2), (cyd.pk, 3)], T0)
    for n in range(1, 6):
        at = T0 + timedelta(hours=n)
        together(lambda g=10 * n, at=at: rate_finished(g, "tafl", "", [(ana.pk, 1), (ben.pk, 2)],
                                                       at),
                 lambda g=10 * n + 1, at=at: rate_finished(g, "tafl", "",
                                                           [(cyd.pk, 1), (ana.pk, 2)], at))
    row = GameRating.objects.get(user=ana, game="tafl")
    assert row.games == 11
    # each game read the one before's result, not the same old row: no lost update
    chain = list(GameRatingChange.objects.filter(user=ana).order_by("pk")
                 .values_list("mu_before", "mu_after"))
    assert all(a[1] == b[0] for a, b in pairwise(chain)) and row.mu == chain[-1][1]
