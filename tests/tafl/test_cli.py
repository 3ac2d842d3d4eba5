"""``talu replay --game tafl|tablut FILE --json`` exactly as CLI-CONTRACT.md "Other games"
says; ``suggest --game tafl`` a clear error until the computer plays tafl; talu unchanged."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from play.games.tafl import Rules, TaflGame, decode, write_record
from talu_cli.main import main


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr().out
    return code, json.loads(out) if out.strip().startswith("{") else out


def _game(rules, plies, seed=2):
    rng = random.Random(seed)
    g = TaflGame(rules)
    while g.result is None and g.pos.plies < plies:
        g.move(*decode(rng.choice(g.pos.legal_moves())))
        while g.pos.pending:
            g.remove(rng.choice(g.pos.removal_choices()))
    return g


def test_replay_an_unfinished_tafl_game(tmp_path, capsys):
    g = _game(Rules("tafl", 11), 37)
    path = tmp_path / "g.otn"
    path.write_text(write_record(g, attackers="ana", defenders="ben"))
    code, out = _run(capsys, "replay", "--game", "tafl", str(path), "--json")
    assert code == 0
    assert list(out) == ["ok", "game", "variant", "options", "moves", "board", "to_move",
                         "result"]
    assert out["ok"] is True and out["game"] == "tafl" and out["variant"] == "11x11"
    assert out["options"] == [] and out["moves"] == 37 and out["to_move"] == "defenders"
    assert out["result"] == {"finished": False, "winner": None, "reason": None}
    board = g.pos.board
    assert len(out["board"]["attackers"]) == board.count(1)
    assert len(out["board"]["defenders"]) == board.count(2)
    assert out["board"]["king"] == g.geo.name(g.pos.king)


def test_replay_a_finished_tablut_game_and_the_variant_from_the_command_line(tmp_path, capsys):
    g = _game(Rules("tablut", 9), 1000, seed=4)
    assert g.result is not None
    text = write_record(g)
    path = tmp_path / "t.otn"
    path.write_text("\n".join(line for line in text.splitlines()
                              if not line.startswith("[variant")) + "\n")
    code, out = _run(capsys, "replay", "--game", "tablut", str(path), "--json")
    assert code == 0 and out["game"] == "tablut" and out["variant"] == "9x9"
    winner = None if g.result[0] is None else ("attackers", "defenders")[g.result[0]]
    assert out["result"] == {"finished": True, "winner": winner, "reason": g.result[1]}
    assert out["to_move"] is None


def test_variant_and_option_from_the_command_line(tmp_path, capsys):
    path = tmp_path / "g.otn"
    path.write_text("1. d2-c2 c4-c3\n")
    code, out = _run(capsys, "replay", "--game", "tafl", "--variant", "7x7", "--option",
                     "immunity", str(path), "--json")
    assert code == 0 and out["variant"] == "7x7" and out["options"] == ["immunity"]
    assert out["moves"] == 2 and out["to_move"] == "attackers"


def test_a_resignation_is_a_decision(tmp_path, capsys):
    path = tmp_path / "g.otn"
    path.write_text("[variant:tafl 7x7]\n\n1. d2-c2 ---\n")
    code, out = _run(capsys, "replay", "--game", "tafl", str(path), "--json")
    assert code == 0 and out["moves"] == 1
    assert out["result"] == {"finished": True, "winner": "attackers", "reason": "decision"}


@pytest.mark.parametrize("text,move,words", [
    ("[variant:tafl 7x7]\n\n1. d2-c2 d4-e4\n", 2, "Kd4-e4: e4 is taken"),
    ("[variant:tafl 8x8]\n\n1. d2-c2\n", 0, "unknown variant"),
    ("[variant:tablut 9x9]\n[options:immunity]\n\n1. e3-c3\n", 0, "tablut has no options"),
    ("[variant:tablut 9x9]\n\n1. e4-e3\n", 1, "e3 is taken"),
    ("[variant:tablut 9x9]\n\n1. e3-d3 e2-e3\n2. Ke5-e4\n", 3, "Ke5-e4: e4 is taken"),
])
def test_errors_name_the_move(tmp_path, capsys, text, move, words):
    path = tmp_path / "bad.otn"
    path.write_text(text)
    code, out = _run(capsys, "replay", "--game", "tablut" if "tablut" in text else "tafl",
                     str(path), "--json")
    assert code == 1 and out["ok"] is False and out["move"] == move and words in out["error"]
    assert list(out) == ["ok", "move", "error"]


def test_the_king_may_not_return_to_the_throne(tmp_path, capsys):
    path = tmp_path / "bad.otn"
    path.write_text("[variant:tablut 9x9]\n\n1. e4-b4 a4-a3\n2. Ke5-e4 a3-a2\n"
                    "3. Ke4-e5\n")
    code, out = _run(capsys, "replay", "--game", "tablut", str(path), "--json")
    assert (code, out["move"]) == (1, 5) and "the king may not return to the throne" in \
        out["error"]


def test_the_other_games_record_and_a_missing_file(tmp_path, capsys):
    path = tmp_path / "t.otn"
    path.write_text("[variant:tablut 9x9]\n\n1. e4-b4\n")
    code, out = _run(capsys, "replay", "--game", "tafl", str(path), "--json")
    assert code == 1 and out["move"] == 0 and "tablut game, not tafl" in out["error"]
    code, out = _run(capsys, "replay", "--game", "tafl", str(tmp_path / "none"), "--json")
    assert code == 1 and out["move"] == 0 and "cannot read" in out["error"]


def test_talu_replay_is_unchanged_and_game_talu_is_the_default(tmp_path):
    path = tmp_path / "empty.stgn"
    path.write_text("")
    plain = subprocess.run([sys.executable, "-m", "talu_cli", "replay", str(path), "--json"],
                           capture_output=True, text=True, check=False)
    said = subprocess.run([sys.executable, "-m", "talu_cli", "replay", "--game", "talu",
                           str(path), "--json"], capture_output=True, text=True, check=False)
    assert plain.returncode == said.returncode and plain.stdout == said.stdout
    assert json.loads(plain.stdout)["variant"] == "standard"  # talu's own contract
