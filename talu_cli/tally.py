"""``talu tally FILE [--variant V] --json`` (CLI contract; R16-R19)."""

from __future__ import annotations

import argparse

from registry.scoring.tally import tally_game

from .common import GameFileError, add_game_arguments, load_game, report_failure
from .main import emit


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tally", help="derive both players' tallies from a game")
    add_game_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        game = load_game(args.file, args.variant)
    except GameFileError as e:
        return report_failure(e, args.json)
    t = tally_game(game)
    out = {"ok": True, "I": t.codes["I"], "O": t.codes["O"], "captures": t.captures}
    if args.json:
        emit(out)
    else:
        for side in ("I", "O"):
            marks = " ".join(f"{k}:{v}" for k, v in t.codes[side].items() if v)
            print(f"{side}: {marks or '-'} (captures {t.captures[side]})")
    return 0
