"""``talu replay FILE [--variant V] --json`` (CLI contract)."""

from __future__ import annotations

import argparse
from typing import Any

from play.games.talu import TaluGame

from .common import GameFileError, add_game_arguments, load_game, report_failure, result_dict
from .main import emit


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="check every line of a game and report its result")
    add_game_arguments(p)
    p.set_defaults(func=run)


def replay_report(game: TaluGame) -> dict[str, Any]:
    side = game.side_to_move
    return {
        "ok": True,
        "variant": game.variant.name,
        "rounds": game.rounds_played,
        "board": game.board(),
        "to_move": side.value if side else None,
        "result": result_dict(game),
        "pass_turns": game.pass_turns,
    }


def run(args: argparse.Namespace) -> int:
    try:
        game = load_game(args.file, args.variant)
    except GameFileError as e:
        return report_failure(e, args.json)
    report = replay_report(game)
    if args.json:
        emit(report)
    else:
        r = report["result"]
        status = (f"{r['winner'] or 'no winner'} ({r['reason']})" if r["finished"]
                  else f"unfinished, {report['to_move']} to move")
        print(f"ok: {report['rounds']} rounds, {status}")
    return 0
