"""T12 move records and T13 game records: written and read back, and every bad input
refused with the move's number and words, nothing changed."""

from __future__ import annotations

import random
import re

import pytest

from play.games.tafl import (
    IllegalMove,
    MalformedMove,
    RecordError,
    Rules,
    TaflGame,
    decode,
    read_record,
    write_record,
)
from play.games.tafl.otn import parse_move
from play.games.tafl.records import notation, rules_string

from .helpers import setup


def _game(pos) -> TaflGame:
    g = TaflGame(pos.rules)
    g.pos = pos
    return g


def _random_game(rules: Rules, seed: int, plies: int = 400) -> TaflGame:
    rng = random.Random(seed)
    g = TaflGame(rules)
    while g.result is None and g.pos.plies < plies:
        g.move(*decode(rng.choice(g.pos.legal_moves())))
        while g.pos.pending:
            g.remove(rng.choice(g.pos.removal_choices()))
    return g


def test_move_records_name_the_king_and_every_removal():  # T12
    g = _game(setup("t: c1 c5 g1, T: b3 d3 c4 a7, K: f6"))
    g.play_record("c1-c3xc4/c3")  # a capture, then tafl's self-removal at its own square
    assert g.records == ["c1-c3xc4/c3"]
    g = _game(setup("t: c4 e1 g7, K: d4, T: a7"))
    g.play_record("e1-e4xKd4++")
    assert g.records == ["e1-e4xKd4++"] and g.result == (0, "king_captured")
    g = _game(setup("t: g7 g1, K: a4, T: e7", to_move="defenders"))
    g.play_record("a4-a2--")  # the king's move written without K is accepted (T15)
    assert g.records == ["Ka4-a2--"]


def test_a_t8_removal_is_the_records_choice():  # T8, T12
    for choice in ("b1", "a2"):
        g = _game(setup("t: b4 a3 c1 g1, K: a1, T: b1 a2 g7"))
        g.play_record(f"b4-b2x{choice}")
        assert g.records == [f"b4-b2x{choice}-"]  # the king on the edge, a free square by him
    g = _game(setup("t: b4 a3 c1 g1, K: a1, T: b1 a2 g7"))
    with pytest.raises(IllegalMove, match="names no piece of the enclosed group a1/b1/a2"):
        g.play_record("b4-b2")
    with pytest.raises(IllegalMove, match="the king is removed last"):
        g.play_record("b4-b2xKa1")
    assert g.pos.plies == 0 and not g.pos.pending and g.pos.board[g.geo.square("b4")] == 1


@pytest.mark.parametrize("record,words", [
    ("c1-c3xc3", "leaves out c4"),
    ("c1-c3xc4", "leaves out c3"),
    ("c1-c3xc4/c3/b3", "does not capture b3"),
    ("c1-c3xKc4/c3", "xK is written before the king's square"),
    ("Kc1-c3xc4/c3", "K is written before the king's square, and the piece on c1 is a soldier"),
    ("c1-c3xc4/c3+", r"'\+' says the king may be captured next move, and no attacker"),
    ("c1-c3xc4/c3-", "'-' says the king may escape along the edge, and he cannot"),
    ("c1-c3xc4/c3++", r"'\+\+' says the king is captured, and he is not"),
    ("c1-d2", "along its rank or its file"),
])
def test_records_that_lie_are_refused_and_change_nothing(record, words):  # T12, T15
    g = _game(setup("t: c1 c5 g1, T: b3 d3 c4 a7, K: f6"))
    before = bytes(g.pos.board)
    with pytest.raises(IllegalMove, match=words):
        g.play_record(record)
    assert bytes(g.pos.board) == before and g.records == [] and g.pos.plies == 0


@pytest.mark.parametrize("text", ["e4e7", "e4-e7x", "z1-z2", "e4-e7---", "Te4-e5"])
def test_malformed_move_records(text):
    with pytest.raises(MalformedMove):
        parse_move(text, Rules("tafl", 11).geo)


def test_suffixes_raichi_and_threat():  # T12, T15
    g = _game(setup("K: b7, T: a7 d7 c6, t: a8 i1", n=9, game="tablut", to_move="defenders"))
    g.play_record("Kb7-c7-")  # raichi after the move
    assert g.records == ["Kb7-c7-"]
    t = _game(setup("t: c4 e1 g7, K: d4, T: a7", to_move="defenders"))
    t.play_record("a7-a6+")  # the king stays capturable: e1-e4 would take him
    assert t.records == ["a7-a6+"]
    edge = _game(setup("t: g7 g1, K: c4, T: e7", to_move="defenders"))
    edge.play_record("Kc4-a4-")  # tafl: the king on the edge with a free square along it
    assert edge.records == ["Kc4-a4-"]


@pytest.mark.parametrize("game,n", [("tafl", 7), ("tafl", 9), ("tafl", 11), ("tafl", 13),
                                    ("tablut", 9)])
def test_random_games_write_and_replay_to_the_same_game(game, n):  # T12, T13
    for seed in range(6):
        g = _random_game(Rules(game, n, immunity=seed % 2 == 1 and game == "tafl"), seed)
        text = write_record(g, attackers="ana", defenders="ben", date="2026.11.29",
                            site="talu", time_control="untimed")
        back = read_record(text)
        assert back.records == g.records and back.pos.board == g.pos.board
        assert back.result == g.result and back.rules == g.rules
        assert read_record(notation(g)).records == g.records


def test_game_record_tags_and_rules_string():  # T13
    g = _random_game(Rules("tafl", 11), 3, plies=6)
    text = write_record(g, attackers="ana", defenders="ben", date="2026.11.29", site="talu",
                        time_control="5+3", termination="resignation", result="attackers")
    lines = text.splitlines()
    assert lines[:8] == ["[variant:tafl 11x11]", "[attackers:ana]", "[defenders:ben]",
                         "[date:2026.11.29]", "[site:talu]", "[time-control:5+3]",
                         "[result:1]", "[termination:resignation]"]
    assert lines[8] == f"[rules:{rules_string(g.rules)}]" and lines[9] == ""
    assert lines[10].startswith("1. ") and len(lines[10].split()) == 3
    assert rules_string(Rules("tablut", 9)).startswith("dim:9 atkf:n esc:e ka:y tfr:d start:/")
    assert read_record(text).result == (0, "decision")


def _record(moves: str, *tags: str) -> str:
    return "\n".join([*tags, "", moves]) + "\n"


@pytest.mark.parametrize("tags,words", [
    (["[variant:tafl 8x8]"], "unknown variant '8x8'"),
    (["[variant:chess 8x8]"], "unknown variant 'chess 8x8'"),
    (["[variant:tablut 9x9]", "[options:immunity]"], "tablut has no options"),
    (["[variant:tafl 9x9]", "[options:berserk]"], "unknown option 'berserk'"),
    (["[variant:tafl 9x9]", "[rules:dim:11 esc:e]"], "says dim:11, and tafl 9x9 is dim:9"),
    (["[variant:tafl 9x9]", "[rules:dim:9 atkf:n]"], "atkf:n"),
    (["[variant:tafl 9x9]", "[rules:esc:c]"], "esc:c"),
    (["[variant:tafl 9x9]", "[result:2]"], "is not a result"),
])
def test_header_faults_are_errors_at_move_0(tags, words):  # T15
    with pytest.raises(RecordError, match=words) as err:
        read_record(_record("1. e1-e2", *tags))
    assert err.value.move == 0


def test_the_other_games_variant_is_a_header_fault():  # T15
    with pytest.raises(RecordError, match="the record is a tablut game, not tafl") as err:
        read_record(_record("", "[variant:tablut 9x9]"), game="tafl")
    assert err.value.move == 0


def test_a_result_tag_that_contradicts_the_rules():  # T15
    text = write_record(_random_game(Rules("tafl", 7), 1))
    winner = read_record(text).result
    assert winner is not None
    wrong = "-1" if winner[0] == 0 else "1"
    with pytest.raises(RecordError, match="says a win of the") as err:
        read_record(re.sub(r"\[result:[^]]*\]", f"[result:{wrong}]", text))
    assert err.value.move == 0


def test_result_unknown_and_resignation():  # T13, T12
    g = read_record(_record("1. d2-c2 ---", "[variant:tafl 7x7]", "[result:?]"))
    assert g.result == (0, "decision") and len(g.records) == 1
    with pytest.raises(RecordError, match="the game is over") as err:
        read_record(_record("1. d2-c2 ---\n2. c2-c1", "[variant:tafl 7x7]"))
    assert err.value.move == 2
    open_game = read_record(_record("1. d2-c2", "[variant:tafl 7x7]", "[result:?]"))
    assert open_game.result is None and open_game.pos.to_move == 1


@pytest.mark.parametrize("moves,number,words", [
    ("1. d2-c2 d3-e3\n3. c2-c1", 3, "turn 3 where turn 2 was due"),
    ("1. d2-c2\n2. c2-c1", 2, "turn 1 holds one move, and only the last turn may"),
    ("1. d2-c2 d3-e3 a4-a3", 1, "holds 3 moves"),
    ("1. d2-c2 d4-e4", 2, "Kd4-e4: e4 is taken"),
    ("1. d2-d3", 1, "d3 is taken"),
    ("1. d2 c2", 1, "is not a move record"),
    ("1. d2-c2 a4-a3", 2, "the piece on a4 is the attackers', and the defenders are to"),
])
def test_bad_turns_name_their_move(moves, number, words):  # T13, T15
    with pytest.raises(RecordError, match=words) as err:
        read_record(_record(moves, "[variant:tafl 7x7]"))
    assert err.value.move == number
