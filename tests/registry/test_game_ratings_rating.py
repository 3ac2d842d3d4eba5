"""The other games' rating maths (registry/game_ratings/rating.py, issue 36): openskill's
Plackett-Luce as published, results moving ratings the right way for two and three seats with
ties, symmetry, and the Elo-like number people see."""

from __future__ import annotations

import subprocess
import sys

import pytest
from openskill.models import PlackettLuce

from registry.game_ratings import rating
from registry.game_ratings.rating import START, Rating, RatingError, rate


def test_the_library_gives_its_documented_example():
    """openskill.py's own example, by value: its README's "Limited Example" and its user manual
    (docs/source/manual.rst, "p1: mu=26.964294621803063, sigma=8.177962604389991"; at
    openskill.me/en/stable/manual.html), v6.2.0: two teams of two new players, the first
    wins. Our model is that model with those defaults."""
    for model in (PlackettLuce(), rating.MODEL):
        r = model.rating
        [[a, b], [x, y]] = model.rate([[r(), r()], [r(), r()]])
        for won in (a, b):
            assert won.mu == pytest.approx(26.964294621803063, abs=1e-12)
            assert won.sigma == pytest.approx(8.177962604389991, abs=1e-12)
        for lost in (x, y):
            assert lost.mu == pytest.approx(23.035705378196937, abs=1e-12)
            assert lost.sigma == pytest.approx(8.177962604389991, abs=1e-12)
    assert (rating.MU, rating.SIGMA, rating.BETA) == (25.0, 25 / 3, 25 / 6)


def test_a_win_a_loss_and_a_draw_move_two_ratings_the_right_way():
    after = rate({"light": 1, "dark": 2}, {"light": START, "dark": START})
    assert after["light"].mu > START.mu > after["dark"].mu
    assert after["light"].mu - START.mu == pytest.approx(START.mu - after["dark"].mu)
    assert after["light"].sigma < START.sigma  # a game taught the model something
    # the same game the other way round
    flipped = rate({"light": 2, "dark": 1}, {"light": START, "dark": START})
    assert flipped["dark"] == after["light"] and flipped["light"] == after["dark"]
    # a draw of equals moves neither skill; between unequals the weaker gains
    drawn = rate({"a": 1, "b": 1}, {"a": START, "b": START})
    assert drawn["a"].mu == pytest.approx(START.mu) and drawn["a"].sigma < START.sigma
    strong, weak = Rating(30, 3), Rating(20, 3)
    drawn = rate({"s": 1, "w": 1}, {"s": strong, "w": weak})
    assert drawn["s"].mu < strong.mu and drawn["w"].mu > weak.mu
    # an upset moves more than the expected result
    upset = rate({"s": 2, "w": 1}, {"s": strong, "w": weak})
    expected = rate({"s": 1, "w": 2}, {"s": strong, "w": weak})
    assert upset["w"].mu - weak.mu > expected["s"].mu - strong.mu > 0


def test_three_seats_with_two_sharing_first_place():
    before = {1: START, 2: START, 3: START}
    after = rate({1: 1, 2: 1, 3: 2}, before)
    assert after[1] == after[2]  # tied seats of equal ratings end equal
    assert after[1].mu > START.mu > after[3].mu
    assert sum(r.mu for r in after.values()) == pytest.approx(3 * START.mu)
    # only the order of ranks counts: 1, 1, 3 (competition ranking) is 1, 1, 2
    assert rate({1: 1, 2: 1, 3: 3}, before) == after
    # a clear first place gains more than a shared one
    assert rate({1: 1, 2: 2, 3: 3}, before)[1].mu > after[1].mu


def test_symmetric_inputs_give_symmetric_outputs():
    a, b, c = Rating(27.5, 6.1), Rating(22.0, 4.0), Rating(25.0, 8.0)
    one = rate({"x": 1, "y": 2, "z": 2}, {"x": a, "y": b, "z": c})
    # the same game with the seats named and listed otherwise
    two = rate({"q": 2, "p": 1, "r": 2}, {"r": b, "q": c, "p": a})
    for mine, theirs in (("x", "p"), ("y", "r"), ("z", "q")):
        assert one[mine].mu == pytest.approx(two[theirs].mu, abs=1e-9)
        assert one[mine].sigma == pytest.approx(two[theirs].sigma, abs=1e-9)
    # four equal players in two tied pairs: each pair's members end equal
    four = rate({"a": 1, "b": 1, "c": 2, "d": 2}, dict.fromkeys("abcd", START))
    assert four["a"] == four["b"] and four["c"] == four["d"]
    assert four["a"].mu - START.mu == pytest.approx(START.mu - four["c"].mu)


def test_fewer_than_two_rated_seats_change_nothing():
    assert rate({"only": 1}, {"only": START}) == {"only": START}
    assert rate({}, {}) == {}


@pytest.mark.parametrize(("ranks", "ratings", "words"), [
    ({"a": 0, "b": 1}, {"a": START, "b": START}, "whole number from 1"),
    ({"a": "1", "b": 2}, {"a": START, "b": START}, "whole number from 1"),
    ({"a": True, "b": 2}, {"a": START, "b": START}, "whole number from 1"),
    ({"a": 1, "b": 2}, {"a": START}, "both a rank and a rating"),
    ({"a": 1, "b": 2}, {"a": START, "b": (25, 8)}, "not a Rating"),
])
def test_bad_input_is_refused_in_words(ranks, ratings, words):
    with pytest.raises(RatingError, match=words):
        rate(ranks, ratings)


@pytest.mark.parametrize(("mu", "sigma"), [(float("nan"), 1), (25, 0), (25, -1),
                                           (float("inf"), 2)])
def test_a_rating_is_finite_with_a_positive_sigma(mu, sigma):
    with pytest.raises(RatingError):
        Rating(mu, sigma)


def test_the_number_shown_starts_at_1500_and_reads_like_elo():
    assert START.display == 1500 and START.provisional and rating.shown(START) == "1500?"
    won = rate({"a": 1, "b": 2}, {"a": START, "b": START})["a"]
    assert rating.shown(won) == f"{won.display}?" and 1550 < won.display < 1700
    settled = Rating(rating.display_mu(1700), 1.0)
    assert settled.display == 1700 and not settled.provisional
    assert rating.shown(settled) == "1700"
    # 200 points apart, the higher-rated player wins about 76% of the time, as in Elo
    # (1 / (1 + 10 ** (-200 / 400)) = 0.760); the model's own prediction says so
    a = rating.MODEL.rating(mu=rating.display_mu(1700), sigma=1e-6)
    b = rating.MODEL.rating(mu=rating.display_mu(1500), sigma=1e-6)
    elo = 1 / (1 + 10 ** (-200 / 400))
    assert rating.MODEL.predict_win([[a], [b]])[0] == pytest.approx(elo, abs=0.005)


def test_provisional_lasts_a_first_stretch_of_games():
    """Winning and losing in turn against settled players, the "?" goes after about ten
    games (not after one, nor after a hundred)."""
    me, games = START, 0
    while me.provisional:
        ranks = {"me": 1, "them": 2} if games % 2 == 0 else {"me": 2, "them": 1}
        me = rate(ranks, {"me": me, "them": Rating(25, 2)})["me"]
        games += 1
    assert 8 <= games <= 15


def test_the_maths_imports_no_django():
    code = ("import sys, registry.game_ratings.rating\n"
            "print(','.join(m for m in sys.modules if m == 'django' or m.startswith('django.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""
