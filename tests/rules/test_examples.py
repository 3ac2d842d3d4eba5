"""Smoke test: the shared example games give the expected `talu replay` / `talu tally` output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from talu_cli.main import main

EXAMPLES = Path(__file__).resolve().parents[2].parent / "shared" / "examples"
FILES = sorted(EXAMPLES.glob("*.stgn"))


def _run(capsys, *argv: str) -> tuple[int, dict]:
    code = main(list(argv))
    return code, json.loads(capsys.readouterr().out)


def test_examples_are_present():
    assert len(FILES) >= 20, f"expected the shared examples in {EXAMPLES}"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_replay_matches_example(path, capsys):
    expected = json.loads(path.with_suffix(".json").read_text())
    code, got = _run(capsys, "replay", str(path), "--variant", expected["variant"], "--json")
    exp = expected["replay"]
    if not exp["ok"]:
        assert code == 1 and got["ok"] is False and got["line"] == exp["line"]
        assert got["error"]
        return
    assert code == 0
    for key in ("ok", "variant", "rounds", "to_move", "result"):
        assert got[key] == exp[key], key
    assert {k: sorted(v) for k, v in got["board"].items()} == {
        k: sorted(v) for k, v in exp["board"].items()}
    assert sorted(got["pass_turns"]) == sorted(exp["pass_turns"])


@pytest.mark.parametrize("path", [p for p in FILES if p.name.startswith("legal")],
                         ids=lambda p: p.stem)
def test_tally_matches_example(path, capsys):
    expected = json.loads(path.with_suffix(".json").read_text())
    code, got = _run(capsys, "tally", str(path), "--variant", expected["variant"], "--json")
    assert code == 0
    assert got == expected["tally"]


def test_console_script_runs_without_a_traceback(tmp_path):
    bad = tmp_path / "bad.stgn"
    bad.write_text("001 I: A2-A3\n001 O: H9-H8\n")
    proc = subprocess.run([sys.executable, "-m", "talu_cli", "replay", str(bad), "--json"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 1
    assert json.loads(proc.stdout) == {"ok": False, "line": 2, "error": proc_error(proc.stdout)}
    assert "Traceback" not in proc.stderr


def proc_error(stdout: str) -> str:
    err = json.loads(stdout)["error"]
    assert "H9" in err
    return err
