"""R25: a mixed game rates each player with their own model from the same record."""

from __future__ import annotations

import pytest

from registry.scoring.s1 import score_s1
from registry.scoring.s2 import score_s2
from registry.scoring.s3 import score_s3
from registry.scoring.sx import parse_model, score_game

from .helpers import make_tally


def test_r25_mixed_game_each_side_own_model():
    tally = make_tally({"C.c": 1, "G.c": 1}, {"G.c": 1}, captures=(2, 1), rounds=22, winner="I")
    game = score_game(tally, {"I": "S1", "O": "S3"}, {"I": 300, "O": 1000})
    assert game["I"].model == "S1" and game["O"].model == "S3"
    assert game["I"] == score_s1(tally, "I", 300)
    assert game["O"] == score_s3(tally, "O", 1000, 300)  # Ec from the S1 player's rating
    assert game["I"].points is not None and game["I"].coefficient is None
    assert game["O"].points is None and game["O"].coefficient is not None
    fixed = score_game(tally, {"I": "S2", "O": "S2"}, {"I": 300, "O": 1000})  # event model
    assert fixed["I"] == score_s2(tally, "I", 300) and fixed["O"] == score_s2(tally, "O", 1000)


def test_null_game_changes_no_rating_in_any_model():
    tally = make_tally({"A.b": 2}, captures=(2, 0), winner=None, reason="null")
    for models in ({"I": "S1", "O": "S2"}, {"I": "S3", "O": "S3"}):
        game = score_game(tally, models, {"I": 700, "O": 1200})
        assert not game.rated
        assert game["I"].new == 700 and game["O"].new == 1200


def test_unfinished_game_changes_no_rating():
    tally = make_tally(captures=(3, 0), winner=None, reason=None)
    game = score_game(tally, {"I": "S3", "O": "S1"}, {"I": 1500, "O": 250})
    assert game["I"].new == 1500 and game["O"].new == 250 and game["I"].coefficient is None


@pytest.mark.parametrize(("text", "model"), [("S1", "S1"), ("s2", "S2"), ("3", "S3")])
def test_parse_model(text, model):
    assert parse_model(text) == model


@pytest.mark.parametrize("text", ["S0", "S4", "SX", "", "S"])
def test_parse_model_rejects(text):
    with pytest.raises(ValueError, match="S1, S2 or S3"):
        parse_model(text)


def test_negative_rating_is_refused():
    with pytest.raises(ValueError):
        score_game(make_tally(), {"I": "S1", "O": "S1"}, {"I": -1, "O": 250})
