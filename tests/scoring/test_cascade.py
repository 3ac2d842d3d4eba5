"""R30: ratings are a pure function of the chronological list of rated game records."""

from __future__ import annotations

import pytest

from registry.scoring.cascade import PlayerState, RatedGame, annul, apply_game, cascade, correct
from registry.scoring.figures import figures_from_tally
from registry.scoring.sx import score_game

from .helpers import make_tally, record, win_for

S3 = {"A": PlayerState("A", stratum=3, rating=1500),
      "B": PlayerState("B", stratum=3, rating=1400),
      "C": PlayerState("C", stratum=3, rating=1450)}  # fmt: skip

CLEAN_WIN_I = figures_from_tally(
    make_tally({"A.b": 3, "C.c": 1, "G.c": 1}, {"A.a": 1, "G.c": 1}, captures=(3, 1), rounds=20)
)
FORFEIT_O = figures_from_tally(
    make_tally({"E.a": 2}, {"D.d": 1}, captures=(0, 1), rounds=33, winner="O", reason="forfeit")
)


def test_r30_annulling_recomputes_coupled_players():
    games = [record("g1", "A", "B", CLEAN_WIN_I), record("g2", "B", "C", FORFEIT_O)]
    full = cascade(games, S3)
    annulled = annul(games, "g1", S3)
    # C never played g1, but B's rating at the start of g2 changes, and with it C's Ec.
    assert full.players["C"].rating != annulled.players["C"].rating
    assert annulled.players["A"].rating == 1500
    assert [c.game_id for c in annulled.changes] == ["g2"]
    assert annulled.players["C"].rating == cascade(games[1:], S3).players["C"].rating


def test_correcting_a_record_is_one_call():
    games = [record("g1", "A", "B", CLEAN_WIN_I), record("g2", "B", "C", FORFEIT_O)]
    fixed = record("g1", "A", "B", FORFEIT_O)  # the arbiter reverses g1
    corrected = correct(games, fixed, S3)
    assert corrected.changes[0]["O"].new != cascade(games, S3).changes[0]["O"].new
    assert [c.game_id for c in corrected.changes] == ["g1", "g2"]
    assert corrected.players == cascade([fixed, games[1]], S3).players


def test_cascade_does_not_change_its_inputs():
    games = [record("g1", "A", "B", CLEAN_WIN_I)]
    seed = {"A": PlayerState("A", stratum=3, rating=1500)}
    cascade(games, seed)
    assert seed["A"].rating == 1500 and seed["A"].games == 0
    assert cascade(games, seed).players["A"].rating == cascade(games, seed).players["A"].rating


def test_cascade_matches_direct_scoring_of_the_tally():
    tally = make_tally({"A.c": 1, "G.b": 1}, {"B.a": 2, "G.b": 1}, captures=(1, 0), rounds=44)
    seed = {"A": PlayerState("A", stratum=2, rating=800),
            "B": PlayerState("B", stratum=3, rating=1100)}  # fmt: skip
    change = cascade([RatedGame.from_tally("g", "A", "B", tally)], seed).changes[0]
    direct = score_game(tally, {"I": "S2", "O": "S3"}, {"I": 800, "O": 1100})
    for side in "IO":
        assert change[side].new == direct[side].new
        assert change[side].coefficient == pytest.approx(direct[side].coefficient, abs=1e-12)


def test_event_fixed_model_overrides_the_strata():
    seed = {"A": PlayerState("A", stratum=1, rating=300)}
    change = cascade([record("g", "A", "B", CLEAN_WIN_I, model="S3")], seed).changes[0]
    assert change["I"].model == change["O"].model == "S3"
    assert change["I"].stratum == change["O"].stratum == 1


def test_null_games_are_kept_but_move_nothing():
    null = figures_from_tally(make_tally(captures=(2, 0), winner=None, reason="null"))
    result = cascade([record("n", "A", "B", null)])
    change = result.changes[0]
    assert not change.rated and change["I"].new == change["I"].old == 250
    assert change["I"].points == 8 + 0  # S1 points still shown, like the CLI
    assert result.players["A"].games == 0


def test_apply_game_is_the_step_of_the_cascade():
    games = [record(f"g{k}", "A" if k % 2 else "B", "B" if k % 2 else "A", win_for("I", 12))
             for k in range(6)]  # fmt: skip
    players: dict[str, PlayerState] = {}
    steps = [apply_game(players, g) for g in games]
    assert steps == cascade(games).changes
    assert players == cascade(games).players


def test_records_reject_nonsense():
    with pytest.raises(ValueError):
        RatedGame("g", "A", "A", CLEAN_WIN_I)
    with pytest.raises(ValueError):
        RatedGame("g", "A", "B", CLEAN_WIN_I, model="S9")
