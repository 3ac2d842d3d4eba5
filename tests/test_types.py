"""The game contract is type-checked in every run of the suite (issue 36): mypy, strict, over
the contract (``play/games/protocol``), the match, the clock, the registry, talu's rules and
commands and the tiny test game, as ``[tool.mypy]`` in pyproject.toml names them. A game's
rules satisfy ``GameRules`` structurally, each with its own state
(``tests/match/conformance.py``, ``tests/match/tinygame.py``); a game that breaks the
contract is found, which the second test shows on a game that does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _mypy(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, check=False)


def test_the_contract_and_the_games_type_check():
    out = _mypy()
    assert out.returncode == 0, out.stdout[-6000:] + out.stderr[-2000:]


BROKEN = """
from play.games.protocol import GameRules, Variant
from tests.match.tinygame import Race, TinyRules


class Listed(TinyRules):
    def to_act(self, e: Race) -> list[str]:  # type: ignore[override]
        return [e.mover]


class Half:
    key = "half"
    variants: dict[str, Variant] = {}


RACE: GameRules[Race] = TinyRules()
LISTED: GameRules[Race] = Listed()
HALF: GameRules[Race] = Half()
OTHER_STATE: GameRules[int] = TinyRules()
"""


def test_a_game_that_breaks_the_contract_is_found(tmp_path: Path):
    """mypy's own verdict on games that do not satisfy ``GameRules``: one whose seats to act
    are a list (the contract: a tuple), one that lacks most of the contract, and the tiny game
    taken for a game of another state; the tiny game as itself passes."""
    module = tmp_path / "broken_game.py"
    module.write_text(BROKEN)
    out = _mypy("--cache-dir", str(tmp_path / "cache"), str(module))
    assert out.returncode == 1, out.stdout + out.stderr
    errors = [line.split(": error: ", 1)[1] for line in out.stdout.splitlines()
              if ": error: " in line]
    assert len(errors) == 3, out.stdout
    for error, name, protocol in zip(errors, ("Listed", "Half", "TinyRules"),
                                     ("GameRules[Race]", "GameRules[Race]", "GameRules[int]"),
                                     strict=True):
        assert f'expression has type "{name}", variable has type "{protocol}"' in error
    assert "def to_act(self, e: Race) -> list[str]" in out.stdout
