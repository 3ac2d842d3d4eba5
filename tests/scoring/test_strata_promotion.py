"""R26: new players, sub-strata and the 20-75-75 promotion, at and just short of each edge."""

from __future__ import annotations

import pytest

from registry.scoring.cascade import PlayerState, cascade
from registry.scoring.strata import (
    START_RATING,
    is_player_id,
    is_promotion_due,
    new_player_id,
    substratum,
)

from .helpers import record, s1_figures, win_for


def test_r26_new_player_starts_in_s1_at_250_with_18_char_id():
    pid = new_player_id()
    assert is_player_id(pid) and len(pid) == 18 and pid == pid.upper()
    assert not is_player_id("abcdefghijklmnopqr") and not is_player_id("ABC")
    result = cascade([record("g1", "A", "B", win_for("I", 10))])
    assert START_RATING == 250
    assert result.changes[0]["I"].old == 250 and result.changes[0]["I"].model == "S1"
    assert result.players["B"].stratum == 1


def wins_from_250(n: int, points: int = 10) -> list:
    return [record(f"g{k}", "A", f"X{k}", win_for("I", points)) for k in range(1, n + 1)]


def test_r26_promotion_at_exactly_20_games_not_19():
    # +10 a win: after 19 wins A has 440 (not above the limit), after 20 wins 450.
    result = cascade(wins_from_250(20))
    assert [c["I"].promoted_to for c in result.changes[:19]] == [None] * 19
    assert result.changes[18]["I"].new == 440
    last = result.changes[19]["I"]
    assert last.new == 450 and last.promoted_to == 2 and last.rating_after == 500
    a = result.players["A"]
    assert (a.stratum, a.rating, a.stratum_games, a.stratum_wins) == (2, 500, 0, 0)
    assert a.games == 20 and a.wins == 20  # history kept
    assert a.promotions == [("g20", 2)]


def test_r26_no_promotion_before_20_games_even_far_above_the_limit():
    seed = {"A": PlayerState("A", rating=480, stratum_games=18, stratum_wins=18)}
    result = cascade([record("g", "A", "B", win_for("I", 10))], seed)
    assert result.changes[0]["I"].promoted_to is None and result.players["A"].stratum == 1


@pytest.mark.parametrize(("wins_before", "promoted"), [(14, True), (13, False)])
def test_r26_promotion_needs_75_percent_exactly(wins_before, promoted):
    # 19 games before, then a win: 15/20 = 75% promotes, 14/20 = 70% does not.
    seed = {"A": PlayerState("A", rating=430, stratum_games=19, stratum_wins=wins_before)}
    result = cascade([record("g", "A", "B", win_for("I", 20))], seed)
    assert (result.players["A"].stratum == 2) is promoted


@pytest.mark.parametrize(("points", "promoted"), [(10, False), (12, True)])
def test_r26_promotion_needs_rating_above_the_limit_not_at_it(points, promoted):
    seed = {"A": PlayerState("A", rating=430, stratum_games=19, stratum_wins=19)}
    result = cascade([record("g", "A", "B", win_for("I", points))], seed)
    assert result.changes[0]["I"].new == 430 + points
    assert (result.changes[0]["I"].promoted_to == 2) is promoted


def test_r26_s2_promotion_over_875_to_s3_base_1000():
    assert not is_promotion_due(2, 20, 15, 875)
    assert is_promotion_due(2, 20, 15, 876)
    assert not is_promotion_due(2, 20, 14, 900)
    assert not is_promotion_due(3, 100, 100, 5000)  # no S4


def test_r26_promotion_counts_only_rated_decided_games():
    seed = {"A": PlayerState("A", rating=430, stratum_games=19, stratum_wins=19)}
    null = record("n", "A", "B", s1_figures(None, 0, 0))
    result = cascade([null], seed)
    assert result.players["A"].stratum_games == 19 and result.players["A"].rating == 430


def test_r26_no_demotion():
    seed = {"A": PlayerState("A", stratum=2, rating=510)}
    losses = [record(f"g{k}", "A", f"X{k}", win_for("O", 40)) for k in range(30)]
    result = cascade(losses, seed)
    a = result.players["A"]
    assert a.stratum == 2 and a.rating < 500
    assert substratum(2, a.rating) == "gamma"


def test_promoted_player_is_rated_by_the_new_model_next_game():
    games = [*wins_from_250(20), record("next", "A", "Z", win_for("I", 10))]
    change = cascade(games).changes[-1]["I"]
    assert change.model == "S2" and change.old == 500 and change.coefficient is not None


@pytest.mark.parametrize(
    ("stratum", "rating", "name"),
    [
        (1, 100, "gamma"), (1, 250, "gamma"), (1, 344, "gamma"), (1, 345, "beta"),
        (1, 439, "beta"), (1, 440, "alpha"), (1, 520, "alpha"),
        (2, 689, "gamma"), (2, 690, "beta"), (2, 879, "beta"), (2, 880, "alpha"),
        (3, 1374, "gamma"), (3, 1375, "beta"), (3, 1750, "alpha"), (3, 1999, "alpha"),
        (3, 2000, "elite"),
    ],
)  # fmt: skip
def test_substrata_by_the_books_table(stratum, rating, name):
    assert substratum(stratum, rating) == name


def test_r26_promotion_progress_shows_each_condition_as_the_rule_decides_it():
    from registry.scoring.strata import promotion_progress

    assert promotion_progress(3, 40, 40, 5000) is None  # S3: nowhere to go
    p = promotion_progress(2, 19, 15, 876)
    assert (p["games_ok"], p["win_rate_ok"], p["rating_ok"]) == (False, True, True)
    assert (p["win_rate"], p["win_rate_needed"], p["rating_limit"], p["next"]) == (
        78.9, 75, 875, "S3")
    p = promotion_progress(1, 20, 14, 500)  # 70%: below the share, whatever the rounding
    assert not p["win_rate_ok"] and not is_promotion_due(1, 20, 14, 500)
    assert promotion_progress(1, 0, 0, 250)["win_rate"] is None
    for games, wins, rating in [(20, 15, 876), (20, 15, 875), (19, 15, 900), (24, 18, 900)]:
        p = promotion_progress(2, games, wins, rating)
        assert is_promotion_due(2, games, wins, rating) == (
            p["games_ok"] and p["win_rate_ok"] and p["rating_ok"])
