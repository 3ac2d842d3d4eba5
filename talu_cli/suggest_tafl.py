"""``talu suggest --game tafl|tablut FILE [--level N] [--seed S] --json`` (CLI-CONTRACT.md,
"Other games"): the computer opponent's move (``play.games.tafl.search``) for the side to move
after the OTN game record in FILE, as one OTN move record (T12, its captures and T8 removals
and info suffix written by the rules) that replays legally when appended to the record's
moves. A bad record gets the replay's error (``{"ok": false, "move": N, ...}``, exit 1); a
finished game ``"move": null``.
"""

from __future__ import annotations

import pickle
import sys
from collections.abc import Sequence
from typing import Any

from play.games.tafl import SIDE_NAMES, RecordError, TaflGame, read_record
from play.games.tafl.search import DEFAULT_LEVEL, LEVELS, choose_move

from .common import GameFileError, read_text
from .main import emit
from .replay_tafl import build_parser


def suggestion(game: TaflGame, level: int, seed: int | None) -> dict[str, Any]:
    """The contract's object for the computer's move in ``game`` (not changed)."""
    pos = game.pos
    side = pos.to_move
    choice = choose_move(pos, level, seed=seed)
    assert choice.move is not None  # a record's game has no turn in progress
    after: TaflGame = pickle.loads(pickle.dumps(game))
    after.move(choice.move >> 9, choice.move & 511)  # checked by the rules, as a person's
    for sq in choice.removals:
        after.remove(sq)
    name = pos.geo.name
    steps = [{"move": f"{name(choice.move >> 9)}-{name(choice.move & 511)}"}]
    steps += [{"remove": name(sq)} for sq in choice.removals]
    return {
        "ok": True,
        "game": game.rules.game,
        "variant": game.rules.variant,
        "side": SIDE_NAMES[side],
        "number": len(game.records) + 1,
        "move": after.records[-1],
        "steps": steps,
        "level": choice.level,
        "nodes": choice.nodes,
        "seconds": round(choice.seconds, 3),
        "score": choice.score,
        "depth": choice.depth,
    }


def _fail(move: int | None, error: str, as_json: bool) -> int:
    if as_json:
        emit({"ok": False, "move": move, "error": error})
    else:
        sys.stderr.write(f"talu: move {move}: {error}\n" if move else f"talu: {error}\n")
    return 1


def run_command(argv: Sequence[str]) -> int:
    """``argv``: the command line after ``talu`` (``suggest --game ... FILE ...``)."""
    args = build_parser("suggest").parse_args(list(argv[1:]))
    level = DEFAULT_LEVEL if args.level is None else args.level
    if level not in LEVELS:
        return _fail(0, f"the computer's level is a number from 1 to 8, not {level}", args.json)
    try:
        text = read_text(args.file)
    except GameFileError as err:
        return _fail(0, err.error, args.json)
    try:
        game = read_record(text, args.game, args.variant, args.option)
    except RecordError as err:
        return _fail(err.move, err.error, args.json)
    if game.result is not None:
        winner, reason = game.result
        words = "a draw" if winner is None else f"the {SIDE_NAMES[winner]} won"
        return _fail(None, f"the game is already finished ({words}, {reason}): there is no "
                     "move to play", args.json)
    out = suggestion(game, level, args.seed)
    if args.json:
        emit(out)
    else:
        print(out["move"])
    return 0
