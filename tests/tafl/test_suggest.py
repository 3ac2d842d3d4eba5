"""``talu suggest --game tafl|tablut FILE [--level N] [--seed S] --json`` as CLI-CONTRACT.md
("Other games") says: one OTN move record (T12) for the side to move that, appended to the
file's moves, replays legally with ``talu replay --game``; a bad record gets the replay's error
and exit 1; talu's own ``suggest`` is unchanged."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from play.games.tafl import Rules, TaflGame, decode, write_record
from play.games.tafl.board import ATTACKERS
from play.games.tafl.search.evaluate import capture_at_hand, escapes_now
from talu_cli.main import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code = main(list(argv))
    out = capsys.readouterr().out
    return code, json.loads(out) if out.strip().startswith("{") else out


def _game(rules: Rules, plies: int, seed: int) -> TaflGame:
    rng = random.Random(seed)
    g = TaflGame(rules)
    while g.result is None and g.pos.plies < plies:
        g.move(*decode(rng.choice(g.pos.legal_moves())))
        while g.pos.pending:
            g.remove(rng.choice(g.pos.removal_choices()))
    return g


def _appended(text: str, moves: int, record: str) -> str:
    """The record with one more move (T13: two moves a turn line, the last may hold one)."""
    lines = text.rstrip("\n").splitlines()
    if moves % 2:
        lines[-1] += f" {record}"
    else:
        lines.append(f"{moves // 2 + 1}. {record}")
    return "\n".join(lines) + "\n"


def _suggest_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str,
                        text: str, *extra: str) -> tuple[dict[str, Any], dict[str, Any]]:
    path = tmp_path / "g.otn"
    path.write_text(text)
    code, before = _run(capsys, "replay", "--game", game, str(path), "--json")
    assert code == 0, before
    code, out = _run(capsys, "suggest", "--game", game, str(path), "--json", *extra)
    assert code == 0, out
    assert out["ok"] is True and out["side"] == before["to_move"]
    assert out["number"] == before["moves"] + 1
    path.write_text(_appended(text, before["moves"], out["move"]))
    code, after = _run(capsys, "replay", "--game", game, str(path), "--json")
    assert code == 0, after  # the suggestion replays legally, captures and suffix included
    assert after["moves"] == before["moves"] + 1
    return out, after


@pytest.mark.parametrize("rules,plies,level", [
    (Rules("tafl", 7), 0, 8),
    (Rules("tafl", 9, immunity=True), 9, 4),
    (Rules("tafl", 11), 17, 6),
    (Rules("tafl", 13), 6, 1),
    (Rules("tablut", 9), 0, 5),
    (Rules("tablut", 9), 14, 3),
], ids=str)
def test_the_suggested_move_replays_legally_when_appended(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], rules: Rules, plies: int,
        level: int) -> None:
    g = _game(rules, plies, seed=plies)
    assert g.result is None
    out, _ = _suggest_and_replay(tmp_path, capsys, rules.game, write_record(g),
                                 "--level", str(level), "--seed", "3")
    assert out["game"] == rules.game and out["variant"] == rules.variant
    assert out["level"] == level and out["steps"][0]["move"] in out["move"]
    assert {"nodes", "seconds", "score", "depth"} <= set(out)


@pytest.mark.parametrize("game,n", [("tafl", 7), ("tafl", 9), ("tablut", 9)])
def test_a_win_at_hand_is_suggested_with_its_mark(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str],
                                                  game: str, n: int) -> None:
    """Random games until the side to move can win at once (T7 a capture of the king, T9 an
    escape): every level suggests the win, written ``++``/``--`` (T12), and the replay of
    the record with it says the game is over."""
    for seed in range(400):
        g = _game(Rules(game, n), random.Random(seed).randint(4, 60), seed)
        if g.result is not None:
            continue
        pos = g.pos
        if pos.to_move == ATTACKERS and capture_at_hand(pos) >= 0:
            want = ("attackers", "king_captured", "++")
        elif pos.to_move != ATTACKERS and escapes_now(pos) and pos.return_ban() < 0:
            want = ("defenders", "escape", "--")
        else:
            continue
        out, after = _suggest_and_replay(tmp_path, capsys, game, write_record(g),
                                         "--level", "1", "--seed", str(seed))
        assert out["move"].endswith(want[2])
        assert after["result"] == {"finished": True, "winner": want[0], "reason": want[1]}
        return
    pytest.fail("no position with a win at hand")  # pragma: no cover


def test_a_seed_repeats_the_suggestion(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.otn"
    path.write_text(write_record(_game(Rules("tafl", 11), 10, seed=1)))
    runs = [_run(capsys, "suggest", "--game", "tafl", str(path), "--json", "--level", "1",
                 "--seed", str(s))[1]["move"] for s in (7, 7, 8, 9, 10, 11)]
    assert runs[0] == runs[1] and len(set(runs)) > 1


def test_a_finished_game_has_no_suggestion(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    g = _game(Rules("tablut", 9), 1000, seed=4)
    assert g.result is not None
    path = tmp_path / "done.otn"
    path.write_text(write_record(g))
    code, out = _run(capsys, "suggest", "--game", "tablut", str(path), "--json")
    assert code == 1 and out["ok"] is False and out["move"] is None
    assert "already finished" in out["error"]


@pytest.mark.parametrize("text", [
    "[variant:tafl 7x7]\n\n1. d2-c2 e4-e2 d1-d5\n",  # three moves in a turn line
    "[variant:tafl 7x7]\n\n1. d2-d5\n",  # through a piece
    "[variant:tablut 9x9]\n",  # the other game
    "[variant:tafl 8x8]\n",  # no such board
])
def test_a_bad_record_gets_the_replay_s_error(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              text: str) -> None:
    path = tmp_path / "bad.otn"
    path.write_text(text)
    code, replayed = _run(capsys, "replay", "--game", "tafl", str(path), "--json")
    assert code == 1
    code, out = _run(capsys, "suggest", "--game", "tafl", str(path), "--json")
    assert code == 1 and out == replayed and out["ok"] is False


def test_a_level_out_of_range_is_refused_in_words(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.otn"
    path.write_text("[variant:tafl 7x7]\n")
    code, out = _run(capsys, "suggest", "--game", "tafl", str(path), "--json", "--level", "9")
    assert code == 1 and out["ok"] is False and "from 1 to 8" in out["error"]
    assert not (tmp_path / "g.otn").read_text().count("1.")  # nothing written


def test_the_console_script_and_talu_s_own_suggest(tmp_path: Path) -> None:
    """Through ``python -m talu_cli`` as an arbiter runs it; ``suggest`` without ``--game``
    is still talu's (its STGN turn line, ``turn``)."""
    path = tmp_path / "g.otn"
    path.write_text("[variant:tablut 9x9]\n")
    done = subprocess.run([sys.executable, "-m", "talu_cli", "suggest", "--game", "tablut",
                           str(path), "--level", "2", "--json"], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0 and json.loads(done.stdout)["side"] == "defenders"  # T2
    plain = tmp_path / "g.stgn"
    plain.write_text("")
    talu = subprocess.run([sys.executable, "-m", "talu_cli", "suggest", str(plain), "--level",
                           "1", "--seed", "1", "--json"], capture_output=True, text=True,
                          check=False)
    assert talu.returncode == 0 and json.loads(talu.stdout)["turn"].startswith("001 I")
