"""``talu replay --game talat FILE --json`` exactly as CLI-CONTRACT.md's "Talat" says: the
keys in order, the position, exit 1 with the turn and the words of the first bad turn."""

from __future__ import annotations

import json

from play.games.talat import write_record
from talu_cli.main import main

from .helpers import random_game


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr().out
    return code, json.loads(out)


def test_replay_an_unfinished_two_seat_game(tmp_path, capsys):
    g = random_game(5, "two", turns=40)
    path = tmp_path / "g.talat"
    path.write_text(write_record(g, {"1": "ana", "2": "ben"}))
    code, out = _run(capsys, "replay", "--game", "talat", str(path), "--json")
    assert code == 0
    assert list(out) == ["ok", "game", "variant", "turns", "phase", "towers", "off",
                         "captured", "scores", "frozen", "to_move", "result"]
    assert out["ok"] is True and out["game"] == "talat" and out["variant"] == "two"
    assert out["turns"] == 40 and out["phase"] == "play"
    assert len(out["towers"]) == 26 - sum(len(c) for c in g.captured().values())
    assert len(out["off"]) == 1 and out["off"][0].startswith("Z:")
    assert set(out["captured"]) == {"1", "2"} and set(out["scores"]) == {"1", "2"}
    assert out["to_move"] == g.to_move() and out["frozen"] == g.frozen()
    assert out["result"] == {"finished": False, "ranks": None, "reason": None}


def test_replay_a_placement_in_progress(tmp_path, capsys):
    path = tmp_path / "p.talat"
    path.write_text('[Game "talat"]\n\n1. 1 @12:a1 L6\n2. 2 @23:c1 S3\n')
    code, out = _run(capsys, "replay", "--game", "talat", str(path), "--json")
    assert code == 0 and out["phase"] == "placement" and out["to_move"] == "3"
    assert out["towers"] == {"12:a1": "1:L6", "23:c1": "2:S3"} and out["off"] == []
    assert out["scores"] == {"1": 0, "2": 0, "3": 0} and out["frozen"] == []


def test_the_first_bad_turn_exits_1(tmp_path, capsys):
    path = tmp_path / "bad.talat"
    path.write_text('[Game "talat"]\n\n1. 1 @12:a1 L6\n2. 2 @12:a1 S3\n')
    code, out = _run(capsys, "replay", "--game", "talat", str(path), "--json")
    assert code == 1
    assert out == {"ok": False, "turn": 2, "error": "turn 2 (2 @12:a1 S3): 12:a1 is not on "
                   "2's start lines (12 row 5, 23 row 1) (A3)"}
    path.write_text('[Game "talat"] [Variant "four"]\n')
    code, out = _run(capsys, "replay", "--game", "talat", str(path), "--json")
    assert code == 1 and out["turn"] == 0 and "unknown variant 'four'" in out["error"]
    code, out = _run(capsys, "replay", "--game", "talat", str(tmp_path / "none"), "--json")
    assert code == 1 and out["turn"] == 0 and out["error"].startswith("cannot read")


def test_a_finished_game(tmp_path, capsys):
    g = random_game(8, "three")
    path = tmp_path / "f.talat"
    path.write_text(write_record(g))
    code, out = _run(capsys, "replay", "--game", "talat", str(path), "--json")
    assert code == 0 and out["phase"] == "finished" and out["to_move"] is None
    assert out["result"] == {"finished": True, "ranks": g.ranks(), "reason": "frozen"}
    assert len(out["frozen"]) >= 2
