"""``talu replay --game tafl|tablut FILE --json`` (CLI-CONTRACT.md, "Other games"): replay an
OTN game record (T13) and report the position and the result; the first malformed or illegal
move is ``{"ok": false, "move": N, "error": "..."}`` and exit 1 (N from 1, 0 for the header).
Its parser is also ``talu suggest --game``'s (``talu_cli.suggest_tafl``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from play.games.tafl import SIDE_NAMES, RecordError, TaflGame, read_record
from play.games.tafl.board import ATTACKER, DEFENDER, KING

from .common import GameFileError, read_text
from .main import emit

GAMES = ("tafl", "tablut")


def build_parser(command: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=f"talu {command}",
                                description="Replay a tafl or Tablut OTN game record.")
    p.add_argument("file", metavar="FILE", help="an OTN game record ('-' for standard input)")
    p.add_argument("--game", required=True, choices=GAMES)
    p.add_argument("--variant", default=None,
                   help="the board when the record has no [variant:] tag (11x11, 9x9, ...)")
    p.add_argument("--option", action="append", default=[], metavar="OPTION",
                   help="an option when the record has no [options:] tag (immunity)")
    p.add_argument("--json", action="store_true", help="print the contract's JSON object")
    if command == "suggest":
        p.add_argument("--level", type=int, default=None)
        p.add_argument("--seed", type=int, default=None)
    return p


def report(game: TaflGame) -> dict[str, Any]:
    """The contract's object for a replayed game."""
    pos, geo = game.pos, game.geo
    rules = game.rules
    board: dict[str, Any] = {"attackers": [], "defenders": [], "king": None}
    for sq, p in enumerate(pos.board):
        if p == ATTACKER:
            board["attackers"].append(geo.name(sq))
        elif p == DEFENDER:
            board["defenders"].append(geo.name(sq))
        elif p == KING:
            board["king"] = geo.name(sq)
    r = game.result
    return {
        "ok": True, "game": rules.game, "variant": rules.variant,
        "options": ["immunity"] if rules.immunity else [],
        "moves": len(game.records), "board": board,
        "to_move": None if r is not None else SIDE_NAMES[pos.to_move],
        "result": {"finished": r is not None,
                   "winner": None if r is None or r[0] is None else SIDE_NAMES[r[0]],
                   "reason": None if r is None else r[1]},
    }


def _fail(move: int, error: str, as_json: bool) -> int:
    if as_json:
        emit({"ok": False, "move": move, "error": error})
    else:
        sys.stderr.write(f"talu: move {move}: {error}\n" if move else f"talu: {error}\n")
    return 1


def run_command(argv: Sequence[str]) -> int:
    """``argv`` is the whole command line after ``talu`` (``replay ...``)."""
    command, rest = argv[0], list(argv[1:])
    args = build_parser(command).parse_args(rest)
    try:
        text = read_text(args.file)
    except GameFileError as err:
        return _fail(0, err.error, args.json)
    try:
        game = read_record(text, args.game, args.variant, args.option)
    except RecordError as err:
        return _fail(err.move, err.error, args.json)
    out = report(game)
    if args.json:
        emit(out)
    else:
        r = out["result"]
        status = (f"{r['winner'] or 'drawn'} ({r['reason']})" if r["finished"]
                  else f"unfinished, {out['to_move']} to move")
        print(f"ok: {out['moves']} moves, {status}")
    return 0
