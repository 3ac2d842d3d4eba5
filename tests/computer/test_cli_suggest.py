"""``talu suggest`` exactly as in ../shared/CLI-CONTRACT.md: the computer's turn as one canonical
STGN line that replays when appended to the file, and the errors of the other subcommands."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from play.games.talu import TaluGame, read_stgn
from play.games.talu.search import LEVELS
from play.games.talu.search.turns import Budget, find_win
from talu_cli.main import main

from .test_search_legal import _random_turn


def _run(capsys, *args: str) -> tuple[int, dict]:
    code = main(["suggest", *args, "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out)


@pytest.mark.parametrize("variant,opening", [
    ("standard", "001 I: H2-H3 H3-H4 H4-H5 H5-H6\n"),
    ("dynamic", "001 I: A2-A3 A3-A4\n001 O: H7-H6\n"),
    ("grand-master", ""),
])
def test_the_suggested_turn_appended_to_the_file_replays(tmp_path: Path, capsys, variant: str,
                                                         opening: str) -> None:
    path = tmp_path / "game.stgn"
    path.write_text(opening)
    code, out = _run(capsys, str(path), "--variant", variant, "--level", "2", "--seed", "7")
    assert code == 0 and out["ok"] is True
    before = read_stgn(opening, variant)
    assert out["side"] == before.side_to_move.value and out["round"] == before.round
    assert out["level"] == 2 and 0 < out["nodes"] <= LEVELS[2].nodes and out["seconds"] >= 0
    assert out["turn"].startswith(f"{before.round:03d} {out['side']}: ")
    after = read_stgn(opening + out["turn"] + "\n", variant)  # replays legally
    assert len(after.turns) == len(before.turns) + 1
    assert out["steps"] == [s.to_dict() for s in after.turns[-1].steps]


def test_a_seed_repeats_the_suggestion(tmp_path: Path, capsys) -> None:
    path = tmp_path / "game.stgn"
    path.write_text("001 I: H2-H3\n")
    first = _run(capsys, str(path), "--level", "1", "--seed", "3")[1]
    again = _run(capsys, str(path), "--level", "1", "--seed", "3")[1]
    assert first["turn"] == again["turn"]


def _a_game_with_a_win_at_hand() -> str:
    """The STGN of a game from random play at the first turn that can win at once (R10, R11)."""
    rng = random.Random(5)
    while True:
        game = TaluGame()
        while game.outcome is None:
            if find_win(game.turn.copy(), Budget(50_000), 50_000) is not None:
                return game.stgn()
            _random_turn(game, rng)


def test_an_immediate_win_is_suggested_with_its_mark(tmp_path: Path, capsys) -> None:
    text = _a_game_with_a_win_at_hand()
    path = tmp_path / "won.stgn"
    path.write_text(text)
    code, out = _run(capsys, str(path), "--level", "1", "--seed", "1")
    assert code == 0 and out["turn"].endswith(" !")  # R15: the decisive turn's mark
    after = read_stgn(text + out["turn"] + "\n")
    assert after.outcome is not None and after.outcome.winner.value == out["side"]


def test_a_finished_game_is_refused_with_a_null_line(tmp_path: Path, capsys) -> None:
    path = tmp_path / "done.stgn"
    # Three turns in a row counting as passes null a game (R12).
    path.write_text("001 I: .\n001 O: .\n002 I: .\n!: -\n")
    g = read_stgn(path.read_text())
    assert g.outcome is not None
    code, out = _run(capsys, str(path))
    assert code == 1 and out["ok"] is False and out["line"] is None
    assert "finished" in out["error"]


def test_an_illegal_file_names_its_line(tmp_path: Path, capsys) -> None:
    path = tmp_path / "bad.stgn"
    path.write_text("001 I: H2-H3\n001 O: A2-A3\n")
    code, out = _run(capsys, str(path))
    assert code == 1 and out == {"ok": False, "line": 2, "error": out["error"]}
    assert "A2" in out["error"]


def test_the_installed_command_and_a_bad_level() -> None:
    talu = Path(sys.executable).with_name("talu")
    ok = subprocess.run([str(talu), "suggest", "-", "--json", "--level", "1"], input="",
                        capture_output=True, text=True, check=False, timeout=60)
    assert ok.returncode == 0 and json.loads(ok.stdout)["turn"].startswith("001 I: ")
    bad = subprocess.run([str(talu), "suggest", "-", "--level", "9"], input="",
                         capture_output=True, text=True, check=False, timeout=60)
    assert bad.returncode != 0 and "level" in bad.stderr and "Traceback" not in bad.stderr
