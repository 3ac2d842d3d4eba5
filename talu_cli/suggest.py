"""``talu suggest FILE [--variant V] [--level N] [--seed S] --json`` (CLI contract).

The computer opponent's turn (``play.games.talu.search``) for the side to move after the game
in FILE, as one canonical STGN turn line (R15) that replays legally when appended to FILE, and
as the steps a step-by-step client would send.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from play.games.talu import TaluGame, read_stgn
from play.games.talu.search import DEFAULT_LEVEL, LEVELS, choose_turn

from .common import GameFileError, add_game_arguments, load_game, report_failure
from .main import emit


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("suggest", help="the computer opponent's turn for the side to move")
    add_game_arguments(p)
    p.add_argument("--level", type=int, default=DEFAULT_LEVEL, choices=sorted(LEVELS),
                   help=f"1 (a beginner) to 8 (the strongest); default {DEFAULT_LEVEL}")
    p.add_argument("--seed", type=int, default=None,
                   help="makes the lower levels' randomness repeatable")
    p.set_defaults(func=run)


def suggestion(game: TaluGame, level: int, seed: int | None) -> dict[str, Any]:
    """The contract's object for the computer's turn in ``game`` (which is not changed)."""
    side = game.side_to_move
    assert side is not None
    round_ = game.round
    choice = choose_turn(game, level, seed=seed)
    after = read_stgn(game.stgn(), game.variant)  # the line is written by the rules core
    for step in choice.steps:
        after.play(step)
    line = after.stgn_lines()[len(game.turns)]
    return {
        "ok": True,
        "side": side.value,
        "round": round_,
        "turn": line,
        "steps": [s.to_dict() for s in choice.steps],
        "level": choice.level,
        "nodes": choice.nodes,
        "seconds": round(choice.seconds, 3),
        "score": choice.score,
        "depth": choice.depth,
    }


def run(args: argparse.Namespace) -> int:
    try:
        game = load_game(args.file, args.variant)
    except GameFileError as e:
        return report_failure(e, args.json)
    if game.outcome is not None:
        error = f"the game is already finished ({game._outcome_text()}): there is no turn to play"
        if args.json:
            emit({"ok": False, "line": None, "error": error})
        else:
            print(f"talu: {error}", file=sys.stderr)
        return 1
    out = suggestion(game, args.level, args.seed)
    if args.json:
        emit(out)
    else:
        print(out["turn"])
    return 0
