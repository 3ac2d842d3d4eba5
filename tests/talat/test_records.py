"""A10 records: written and read back, errors naming the turn with the state unchanged,
decisions in the header (A8, A10), and many seeded random games played to the end that
round-trip through write, read and ``talu replay --game talat``."""

from __future__ import annotations

import json

import pytest

from play.games.talat import RecordError, read_record, write_record
from talu_cli.main import main

from .helpers import random_game

OPENING = """[Game "talat"] [Variant "three"]
[Seat1 "ana"]

1. 1 @12:a1 L6
2. 2 @12:a5 S3
3. 3 @23:e5 M4
"""


def test_a_record_is_written_and_read_back():
    g = random_game(7, "three", turns=40)
    text = write_record(g, {"1": "ana", "2": "ben", "3": "cy"}, {"Date": "2026.11.29"})
    assert text.startswith('[Game "talat"]\n[Variant "three"]\n[Seat1 "ana"]\n')
    assert "\n1. 1 @" in text and "\n40. " in text and "[Result" not in text
    back = read_record(text)
    assert back.lines == g.lines and back.towers() == g.towers()
    assert back.to_move() == g.to_move() and not back.finished


def test_tags_on_one_line_and_a_missing_variant_means_three():
    g = read_record(OPENING.replace(' [Variant "three"]', ""))
    assert g.variant == "three" and g.towers() == {"12:a1": "1:L6", "12:a5": "2:S3",
                                                   "23:e5": "3:M4"}


@pytest.mark.parametrize("line, turn, words", [
    ("4. 1 @12:a2 M6", 4, "turn 4 (1 @12:a2 M6): 12:a2 is not on 1's start lines (12 row 1, "
                          "31 row 5) (A3)"),
    ("4. 1 @12:a1 M6", 4, "turn 4 (1 @12:a1 M6): 12:a1 is taken by 1:L6 (A3)"),
    ("4. 2 @23:a1 M6", 4, "turn 4 (2 @23:a1 M6): it is seat 1's turn, not seat 2's (A3)"),
    ("5. 1 @12:b1 M6", 4, "numbered 5 where turn 4 was due"),
    ("4. 1 12:a1-a2", 4, "turn 4 (1 12:a1-a2): placement is not over: place a tower (A3)"),
    ("4. 1 12:a1a2", 4, "not an action"),
    ("4. 4 @12:b1 M6", 4, "'4' is not a seat"),
    ("4. 1>Z @12:b1 M6", 4, "'1>Z' is not a seat"),
])
def test_a_bad_turn_is_named(line, turn, words):
    with pytest.raises(RecordError) as err:
        read_record(OPENING + line + "\n")
    assert err.value.turn == turn and words in err.value.error


def test_a_move_on_a_frozen_board_names_the_turn():  # A7
    for seed in range(50):
        g = random_game(seed, "three", turns=27)
        while not g.finished and g.frozen() == []:
            g.play(g.pos.legal()[0] if seed % 2 else g.pos.legal()[-1])
        if g.finished:
            continue
        board, mover = g.frozen()[0], g.to_move()
        mine = [sq for sq, t in g.towers().items() if sq.startswith(board + ":")
                and t.startswith(mover + ":")]
        if mine:
            break
    else:
        pytest.fail("no game with a frozen board and a tower of the seat to move on it")
    n = len(g.lines) + 1
    text = write_record(g) + f"{n}. {mover} {mine[0]}-{mine[0][-2]}3\n"
    with pytest.raises(RecordError) as err:
        read_record(text)
    assert err.value.turn == n
    assert err.value.error == (f"turn {n} ({mover} {mine[0]}-{mine[0][-2]}3): {board} is "
                               "frozen: nobody moves on it (A7)")


def test_a_finished_game_checks_its_result_and_a_decision_ends_one():  # A8, A10
    g = random_game(3, "three")
    assert g.finished and g.reason == "frozen"
    text = write_record(g)
    ranks = g.ranks()
    assert f'[Ranks "{" ".join(str(ranks[s]) for s in "123")}"]' in text
    wrong = text.replace("[Ranks", "[Ignored").replace("[Result", "[Ranks \"2 2 1\"] [Was")
    with pytest.raises(RecordError, match=r"the game ended \(frozen\) with ranks"):
        read_record(wrong)
    scores = g.scores()
    bad = text.replace(f"1:{scores['1']} ", f"1:{scores['1'] + 1} ")
    with pytest.raises(RecordError, match=r"\[Result\] gives seat 1"):
        read_record(bad)
    # an unfinished game with ranks: a decision (R37) ending it after its last turn
    part = random_game(3, "three", turns=35)
    scores = part.scores()
    decided = write_record(part).replace(
        "[Variant \"three\"]", f"[Variant \"three\"]\n[Result \"1:{scores['1']} "
        f"2:{scores['2']} 3:{scores['3']}\"]\n[Ranks \"2 1 3\"]")
    back = read_record(decided)
    assert back.finished and back.reason == "decision" and back.to_move() is None
    assert back.ranks() == {"1": 2, "2": 1, "3": 3}
    with pytest.raises(RecordError, match="1 1 3"):
        read_record(decided.replace('"2 1 3"', '"1 3 3"'))


def test_a_seat_that_left_replays():  # A8 and the Left tag
    g = random_game(4, "three", turns=40)
    g.leave("2")
    rng_line = None
    while not g.finished and len(g.lines) < 60:
        g.play(g.pos.legal()[0])
        rng_line = g.lines[-1]
    assert rng_line is not None and not any(line.startswith("2 ") for line in g.lines[40:])
    text = write_record(g)
    assert '[Left "2:40"]' in text
    back = read_record(text)
    assert back.lines == g.lines and back.to_move() == g.to_move()
    short = write_record(random_game(4, "three", turns=30))
    with pytest.raises(RecordError, match=r'Left "3:99"\]: the record has 30 turns'):
        read_record('[Left "3:99"]\n' + short)


def _cli(capsys, path):
    code = main(["replay", "--game", "talat", str(path), "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_random_games_end_round_trip_and_the_cli_agrees(tmp_path, capsys):
    reasons = set()
    for seed in range(60):
        variant = ("three", "two")[seed % 2]
        g = random_game(seed, variant)
        assert g.finished and len(g.lines) < 400
        reasons.add(g.reason)
        text = write_record(g)
        back = read_record(text)
        assert back.lines == g.lines and back.ranks() == g.ranks()
        assert write_record(back) == text
        if seed % 10 == 0:
            path = tmp_path / f"{seed}.talat"
            path.write_text(text)
            code, out = _cli(capsys, path)
            assert code == 0 and out["turns"] == len(g.lines) and out["phase"] == "finished"
            assert out["towers"] == g.towers() and out["scores"] == g.scores()
            assert out["result"] == {"finished": True, "ranks": g.ranks(), "reason": g.reason}
    assert "frozen" in reasons
