"""What every game-reading subcommand shares: reading a file into a TaluGame, and reporting errors.

Every failure becomes ``{"ok": false, "line": N, "error": "..."}`` and exit 1 (line 0 when the
file itself cannot be read), never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from play.games.talu import VARIANTS, NotationError, TaluError, TaluGame, read_stgn

from .main import emit


class GameFileError(Exception):
    def __init__(self, line: int, error: str) -> None:
        super().__init__(error)
        self.line = line
        self.error = error


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="an STGN file ('-' for standard input)")
    parser.add_argument("--variant", default="standard", choices=list(VARIANTS))
    parser.add_argument("--json", action="store_true", help="print the contract's JSON object")


def read_text(path: str) -> str:
    """The text of the file ``path`` ("-": standard input), every game's record alike; a
    ``GameFileError`` (line 0) in words when it cannot be read."""
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError) as e:
        raise GameFileError(0, f"cannot read {path}: {e}") from None


def load_game(path: str, variant: str) -> TaluGame:
    """Read and replay an STGN file; raise GameFileError with the failing line."""
    text = read_text(path)
    try:
        return read_stgn(text, variant)
    except NotationError as e:
        raise GameFileError(e.line, e.reason) from None
    except TaluError as e:  # pragma: no cover - every rule error carries a line
        raise GameFileError(0, str(e)) from None


def report_failure(err: GameFileError, as_json: bool) -> int:
    if as_json:
        emit({"ok": False, "line": err.line, "error": err.error})
    else:
        where = f"line {err.line}: " if err.line else ""
        sys.stderr.write(f"talu: {where}{err.error}\n")
    return 1


def result_dict(game: TaluGame) -> dict[str, Any]:
    if game.outcome is None:
        return {"finished": False, "winner": None, "reason": None}
    o = game.outcome
    return {"finished": True, "winner": o.winner.value if o.winner else None,
            "reason": o.reason.value}
