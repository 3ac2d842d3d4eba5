"""R45 in the pure R30 replay: a phase is one rating entry at its close, Ec from the ratings
at its opening, every phase game counted for R26, promotion checked after the update."""

from __future__ import annotations

import math

import pytest

from registry.scoring.cascade import PlayerState, RatedGame
from registry.scoring.phase import PhaseChange, PhaseStart, RatedPhase, replay
from registry.scoring.strata import START_RATING
from tests.hettlandic.helpers import game


def states(**ratings: tuple[int, int]) -> dict[str, PlayerState]:
    """name=(stratum, rating) -> seeds."""
    return {p: PlayerState(p, stratum=s, rating=r) for p, (s, r) in ratings.items()}


def test_nothing_moves_until_the_close_then_old_times_final_coefficient():
    games = tuple(game(f"g{k}", "A", "B", "I", 1.2, 0.9) for k in range(4))
    seeds = states(A=(3, 1600), B=(3, 1600))
    opened = replay([PhaseStart("P", ("A", "B"))], seeds)
    assert opened.players["A"].rating == 1600 and opened.changes == []
    closed = replay([PhaseStart("P", ("A", "B")), RatedPhase("P", games)], seeds)
    (change,) = closed.changes
    assert isinstance(change, PhaseChange)
    a, b = change.sides["A"], change.sides["B"]
    assert a.new == 1920 and b.new == 1440  # 1600 x 1.2, 1600 x 0.9 (geometric mean of equal APc)
    assert a.victory_score == 120 and b.victory_score == 90
    assert closed.players["A"].games == 4 and closed.players["A"].wins == 4
    assert closed.players["B"].stratum_games == 4 and closed.players["B"].stratum_wins == 0


def test_final_coefficient_is_geometric_and_rounded_half_up():
    games = (game("g1", "A", "B", "I", 1.25, 0.8), game("g2", "B", "A", "I", 1.25, 0.8))
    result = replay([RatedPhase("P", games)], states(A=(3, 1001), B=(3, 1001)))
    side = result.changes[0].sides["A"]
    assert side.final_coefficient == pytest.approx(math.sqrt(1.25 * 0.8)) == 1.0
    assert side.new == 1001
    # 1501 x 1.1 = 1651.1 -> 1651; 1505 x 1.1 = 1655.5 -> 1656 (R24 half up)
    one = (game("g1", "A", "B", "I", 1.1, 0.9),)
    assert replay([RatedPhase("P", one)], states(A=(3, 1501), B=(3, 1501))) \
        .players["A"].rating == 1651
    assert replay([RatedPhase("P", one)], states(A=(3, 1505), B=(3, 1505))) \
        .players["A"].rating == 1656


def test_ec_uses_the_ratings_at_the_opening_even_after_an_outside_game():
    # A plays an ordinary rated game during the phase (its rating moves at once, R41), but the
    # phase's Ec still uses 1600 v 1600, and the close multiplies the rating A then has.
    seeds = states(A=(3, 1600), B=(3, 1600), X=(3, 1600))
    outside = RatedGame("x1", "A", "X", game("x1", "A", "X", "I", 1.1, 0.9).figures, None)
    phase_game = game("g1", "A", "B", "I", 1.2, 0.9)  # NPc chosen for Ec = 1 (equal ratings)
    result = replay([PhaseStart("P", ("A", "B")), outside, RatedPhase("P", (phase_game,))],
                    seeds)
    change = result.changes[1].sides["A"]
    assert change.start_rating == 1600 and change.old == 1760  # after the outside game
    assert change.games[0].ec == 1.0 and change.games[0].apc == pytest.approx(1.2)
    assert change.new == round(1760 * 1.2)
    # without the opening marker (nothing known of the start) the closing ratings are used
    no_start = replay([outside, RatedPhase("P", (phase_game,))], seeds)
    assert no_start.changes[1].sides["A"].games[0].ec != 1.0


def test_promotion_counts_phase_games_and_is_checked_after_the_update():
    # S2 player at 860 with no games in S2: 20 phase games, 16 wins, rating above 875 after
    games = tuple(game(f"g{k}", "A", "B", "I" if k < 16 else "O", 1.05 if k < 16 else 0.97,
                       0.95 if k < 16 else 1.03) for k in range(20))
    result = replay([RatedPhase("P", games)], states(A=(2, 860), B=(3, 1200)))
    a = result.changes[0].sides["A"]
    assert a.new > 875 and a.wins == 16 and len(a.games) == 20
    assert a.promoted_to == 3 and a.rating_after == 1000
    st = result.players["A"]
    assert (st.stratum, st.rating, st.stratum_games, st.promotions) == (3, 1000, 0, [("P", 3)])
    # 19 phase games would not be enough: R26 wants 20 in the stratum
    short = replay([RatedPhase("P", games[:19])], states(A=(2, 860), B=(3, 1200)))
    assert short.changes[0].sides["A"].promoted_to is None
    assert short.players["A"].stratum_games == 19


def test_null_games_count_for_nothing_and_new_players_start_at_250():
    games = (game("g1", "N1", "N2", None), game("g2", "N1", "N2", "O", 0.9, 1.2))
    result = replay([RatedPhase("P", games)])
    side = result.changes[0].sides["N2"]
    assert side.old == START_RATING and len(side.games) == 1
    assert result.players["N2"].games == 1


def test_annulling_a_phase_game_recomputes_the_phase_and_what_follows():
    seeds = states(A=(3, 1600), B=(3, 1600), C=(3, 1600))
    g1 = game("g1", "A", "B", "I", 1.3, 0.8)
    g2 = game("g2", "B", "A", "I", 1.1, 0.9)
    later = RatedGame("L", "A", "C", game("L", "A", "C", "I", 1.1, 0.9).figures, "S3")
    full = [PhaseStart("P", ("A", "B")), RatedPhase("P", (g1, g2)), later]
    before = replay(full, seeds)
    annulled = [PhaseStart("P", ("A", "B")), RatedPhase("P", (g2,)), later]
    after = replay(annulled, seeds)
    assert before.changes[0].sides["A"].new != after.changes[0].sides["A"].new
    assert after.changes[0].sides["A"].new == round(1600 * 0.9)
    # the later game's Ec moved with A's rating: C's rating after it moves too (R30)
    assert before.players["C"].rating != after.players["C"].rating
