"""The other games' rating service (registry/game_ratings/services.py, issue 36):
``rate_finished`` rates a finished game once, leaves out seats without a person and the
computer, needs two rated persons, keeps a history, and refuses bad calls in words."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from play.computer.account import computer_user, forget
from registry.game_ratings import rating
from registry.game_ratings.models import GameRating, GameRatingChange
from registry.game_ratings.services import GameRatingError, rate_finished
from tests.registry.helpers import T0

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(make_user):
    return [make_user(n) for n in ("ana", "ben", "cyd", "dag")]


def row(user, game="tafl", variant="") -> GameRating:
    return GameRating.objects.get(user=user, game=game, variant=variant)


def test_a_two_seat_game_moves_both_ratings_and_keeps_the_history(people):
    ana, ben, *_ = people
    changes = rate_finished(7, "tafl", "", [(ana.pk, 1), (ben.pk, 2)], T0)
    assert [c.user_id for c in changes] == [ana.pk, ben.pk]  # in the order of the seats
    won, lost = changes
    assert won.display_before == lost.display_before == 1500
    assert won.display_after > 1500 > lost.display_after
    assert (won.rank, lost.rank, won.seats, won.game_id, won.at) == (1, 2, 2, 7, T0)
    a, b = row(ana), row(ben)
    assert (a.games, b.games, a.updated) == (1, 1, T0)
    assert a.display == won.display_after and a.shown == f"{won.display_after}?"
    assert (a.mu, a.sigma) == (won.mu_after, won.sigma_after)
    assert (won.mu_before, won.sigma_before) == (rating.MU, rating.SIGMA)
    # the next game starts from where this one left them
    later = T0 + timedelta(hours=1)
    again = rate_finished(8, "tafl", "", [(ben.pk, 1), (ana.pk, 2)], later)
    assert again[0].display_before == lost.display_after
    assert again[1].display_before == won.display_after
    assert row(ana).games == 2 and row(ana).display < won.display_after


def test_a_second_call_for_the_same_game_writes_nothing(people, django_assert_max_num_queries):
    ana, ben, *_ = people
    first = rate_finished(7, "tafl", "", [(ana.pk, 1), (ben.pk, 2)], T0)
    before = [(r.mu, r.sigma, r.games, r.updated) for r in (row(ana), row(ben))]
    with django_assert_max_num_queries(2):  # it reads; nothing is written
        second = rate_finished(7, "tafl", "", [(ana.pk, 1), (ben.pk, 2)], T0 + timedelta(1))
    assert [c.pk for c in second] == [c.pk for c in first]
    assert [(r.mu, r.sigma, r.games, r.updated) for r in (row(ana), row(ben))] == before
    assert GameRatingChange.objects.count() == 2
    # even told another result: the game was rated once, as it ended
    third = rate_finished(7, "tafl", "", [(ana.pk, 2), (ben.pk, 1)], T0)
    assert [c.pk for c in third] == [c.pk for c in first] and row(ana).games == 1


def test_three_seats_with_a_shared_first_place(people):
    ana, ben, cyd, _ = people
    changes = {c.user_id: c for c in
               rate_finished(3, "talat", "", [(ana.pk, 1), (ben.pk, 1), (cyd.pk, 2)], T0)}
    assert changes[ana.pk].display_after == changes[ben.pk].display_after > 1500
    assert changes[cyd.pk].display_after < 1500
    assert {c.seats for c in changes.values()} == {3}
    assert row(ana, "talat").mu == pytest.approx(row(ben, "talat").mu)


@pytest.fixture
def robot(db):
    """The computer's account, its cached id forgotten after the test: the test's rollback
    takes the account away, and a later test's user may get its id."""
    yield computer_user()
    forget()


def test_seats_without_a_person_and_the_computer_are_not_rated(people, robot):
    ana, ben, cyd, _ = people
    # a neutral seat (None) and the computer between two persons: the persons are rated as
    # a two-player game, the first above the second
    changes = rate_finished(5, "talat", "", [(None, 1), (ana.pk, 2), (robot.pk, 3),
                                             (ben.pk, 4)], T0)
    assert [c.user_id for c in changes] == [ana.pk, ben.pk]
    assert changes[0].display_after > 1500 > changes[1].display_after
    assert not GameRating.objects.filter(user=robot).exists()
    # fewer than two rated persons: nothing at all
    assert rate_finished(6, "tafl", "", [(cyd.pk, 1), (robot.pk, 2)], T0) == []
    assert rate_finished(9, "tafl", "", [(cyd.pk, 1), (None, 2)], T0) == []
    assert not GameRating.objects.filter(user=cyd).exists()
    assert not GameRatingChange.objects.filter(game_id__in=[6, 9]).exists()


def test_each_game_and_variant_has_its_own_rating(people):
    ana, ben, *_ = people
    rate_finished(1, "tafl", "11x11", [(ana.pk, 1), (ben.pk, 2)], T0)
    rate_finished(2, "tafl", "9x9", [(ana.pk, 2), (ben.pk, 1)], T0)
    rate_finished(3, "tablut", "", [(ana.pk, 1), (ben.pk, 1)], T0)
    assert row(ana, "tafl", "11x11").display > 1500 > row(ana, "tafl", "9x9").display
    assert row(ana, "tablut").display == 1500 and row(ana, "tablut").games == 1
    assert GameRating.objects.filter(user=ana).count() == 3


@pytest.mark.parametrize(("call", "words"), [
    (dict(game="talu"), "no rated game 'talu'"),
    (dict(game="chess"), "no rated game 'chess'"),
    (dict(variant="Big Board"), "a variant is"),
    (dict(game_id=0), "a game id"),
    (dict(game_id="7"), "a game id"),
    (dict(seats="ab"), "a seat is"),
    (dict(rank=0), "rank is a whole number"),
    (dict(rank=1.5), "rank is a whole number"),
    (dict(at=datetime(2026, 3, 1, 10, 0)), "aware datetime"),
    (dict(twice=True), "holds two seats"),
    (dict(stranger=True), "no such user: 987654"),
])
def test_bad_calls_are_refused_in_words_and_write_nothing(people, call, words):
    ana, ben, *_ = people
    rank = call.pop("rank", 2)
    seats = [(ana.pk, 1), (ben.pk, rank)]
    if call.pop("twice", False):
        seats = [(ana.pk, 1), (ana.pk, 2), (ben.pk, 3)]
    if call.pop("stranger", False):
        seats = [(ana.pk, 1), (987654, 2)]
    args = dict(game_id=7, game="tafl", variant="", seats=seats, at=T0) | call
    with pytest.raises(GameRatingError, match=words):
        rate_finished(**args)
    assert not GameRating.objects.exists() and not GameRatingChange.objects.exists()
