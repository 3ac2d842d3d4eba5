"""``talu replay --game talat FILE --json`` (CLI-CONTRACT.md, "Talat"): replay an A10 record
(RULINGS-TALAT.md) and report the towers, scores, frozen boards and the result; the first
malformed or illegal turn is ``{"ok": false, "turn": N, "error": "..."}`` and exit 1 (N from
1, 0 for the header or an unreadable file).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from play.games.talat import RecordError, TalatGame, read_record
from play.games.talat.board import KINDS

from .common import GameFileError, read_text
from .main import emit


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="talu replay", description="Replay a Talat record (A10).")
    p.add_argument("file", metavar="FILE", help="a Talat record ('-' for standard input)")
    p.add_argument("--game", required=True, choices=("talat",))
    p.add_argument("--json", action="store_true", help="print the contract's JSON object")
    return p


def report(game: TalatGame) -> dict[str, Any]:
    """The contract's object for a replayed game."""
    pos = game.pos
    return {
        "ok": True, "game": "talat", "variant": game.variant, "turns": len(game.lines),
        "phase": "finished" if game.finished else pos.phase,
        "towers": game.towers(),
        "off": [f"{pos.seats[t // 9]}:{KINDS[t % 9]}" for t in pos.off],
        "captured": game.captured(), "scores": game.scores(), "frozen": game.frozen(),
        "to_move": game.to_move(),
        "result": {"finished": game.finished, "ranks": game.ranks(), "reason": game.reason},
    }


def _fail(turn: int, error: str, as_json: bool) -> int:
    if as_json:
        emit({"ok": False, "turn": turn, "error": error})
    else:
        sys.stderr.write(f"talu: {error}\n")
    return 1


def run_command(argv: Sequence[str]) -> int:
    """``argv`` is the whole command line after ``talu`` (``replay ...``)."""
    args = build_parser().parse_args(list(argv[1:]))
    try:
        text = read_text(args.file)
    except GameFileError as err:
        return _fail(0, err.error, args.json)
    try:
        game = read_record(text)
    except RecordError as err:
        return _fail(err.turn, err.error, args.json)
    out = report(game)
    if args.json:
        emit(out)
    else:
        r = out["result"]
        status = (f"finished ({r['reason']}), ranks {r['ranks']}" if r["finished"]
                  else f"unfinished, seat {out['to_move']} to act")
        print(f"ok: {out['turns']} turns, {status}")
    return 0
