"""The test processes' throw-away keyring (tests/keyring.py) is gone when the process ends, and
one set from outside (a developer's) is used as it is and left alone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# What the conftests do, then a second conftest's turn: it must get the same directory.
SCRIPT = ("import os, pathlib; from tests.keyring import session_keyring; "
          "os.environ['TALU_KEYRING'] = p = session_keyring(); "
          "assert pathlib.Path(p).is_dir(); assert session_keyring() == p; print(p)")


def _run(env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True, timeout=60)
    return done.stdout.strip()


def test_made_keyring_is_removed_at_exit():
    env = {k: v for k, v in os.environ.items() if k != "TALU_KEYRING"}
    path = _run(env)
    assert Path(path).name.startswith("talu-test-keyring-")
    assert not Path(path).exists()


def test_given_keyring_is_kept(tmp_path):
    given = tmp_path / "ring"
    given.mkdir()
    assert _run({**os.environ, "TALU_KEYRING": str(given)}) == str(given)
    assert given.is_dir()


def test_a_keyring_made_by_another_test_process_is_not_shared(tmp_path):
    """xdist's workers inherit their controller's environment: a worker gets a keyring of its
    own, not the one its controller made (two processes making the site's key in one keyring
    would race)."""
    made = tmp_path / "controllers"
    made.mkdir()
    env = {**os.environ, "TALU_KEYRING": str(made), "TALU_TEST_KEYRING_MADE": str(made),
           "TALU_TEST_KEYRING_PID": "1"}
    path = _run(env)
    assert path != str(made) and Path(path).name.startswith("talu-test-keyring-")
