"""``talu score FILE --model-I M --rating-I R --model-O M --rating-O R [--variant V] --json``.

Rates one game for both players, each with their own model (SX, R25), from their ratings at
game start (CLI contract). Beside the contract's keys every side carries ``detail``: the
intermediate figures (category points, ratios, Pc / NPc / Ec / APc, S1 points) that explain
the change, for arbiters checking a rating by hand.

The rules engine and the tally are imported inside :func:`run`, so ``talu score --help`` and
argument errors never depend on them.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from registry.scoring.sx import GameScore, SideResult, parse_model, score_game

from .main import emit

#: The contract's variants (R3); the engine validates them again when it reads the file.
VARIANT_NAMES = ("standard", "grand-master", "dynamic")


def _model(text: str) -> str:
    try:
        return parse_model(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _rating(text: str) -> int:
    """A rating at game start: a whole number >= 0 (R24: ratings are whole numbers)."""
    try:
        value = int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"rating must be a whole number such as 250, not {text!r}"
        ) from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"rating cannot be negative ({value})")
    return value


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "score",
        help="rate a game for both players (S1, S2 or S3 each)",
        description="Rate a finished game: each player with their own model from their "
        "rating at game start. A null or unfinished game changes no rating.",
    )
    p.add_argument("file", metavar="FILE", help="an STGN file ('-' for standard input)")
    p.add_argument("--model-I", dest="model_I", metavar="M", type=_model, required=True,
                   help="scoring model of player I: S1, S2 or S3")  # fmt: skip
    p.add_argument("--rating-I", dest="rating_I", metavar="R", type=_rating, required=True,
                   help="rating of player I at game start")  # fmt: skip
    p.add_argument("--model-O", dest="model_O", metavar="M", type=_model, required=True,
                   help="scoring model of player O: S1, S2 or S3")  # fmt: skip
    p.add_argument("--rating-O", dest="rating_O", metavar="R", type=_rating, required=True,
                   help="rating of player O at game start")  # fmt: skip
    p.add_argument("--variant", default="standard", choices=VARIANT_NAMES)
    p.add_argument("--json", action="store_true", help="print the contract's JSON object")
    p.set_defaults(func=run)


def side_report(result: SideResult) -> dict[str, Any]:
    """The contract's per-side object, plus ``detail``."""
    return {
        "model": result.model,
        "old": result.old,
        "new": result.new,
        "coefficient": result.coefficient,
        "points": result.points,
        "detail": result.detail(),
    }


def score_report(score: GameScore) -> dict[str, Any]:
    return {
        "ok": True,
        "I": side_report(score["I"]),
        "O": side_report(score["O"]),
        "rated": score.rated,
        "result": {"winner": score.winner, "reason": score.reason},
    }


def _describe(side: str, result: SideResult) -> str:
    change = result.new - result.old
    text = f"{side}: {result.model} {result.old} -> {result.new} ({change:+d})"
    if result.points is not None:
        text += f", {result.points} points"
    if result.coefficient is not None:
        name = "Pc" if result.model == "S2" else "APc"
        text += f", {name} {result.coefficient:.3f}"
    return text


def run(args: argparse.Namespace) -> int:
    from registry.scoring.tally import tally_game

    from .common import GameFileError, load_game, report_failure

    try:
        game = load_game(args.file, args.variant)
    except GameFileError as e:
        return report_failure(e, args.json)
    tally = tally_game(game)
    score = score_game(
        tally,
        models={"I": args.model_I, "O": args.model_O},
        ratings={"I": args.rating_I, "O": args.rating_O},
    )
    if args.json:
        emit(score_report(score))
    else:
        if not score.rated:
            state = "null game" if tally.reason == "null" else "unfinished game"
            sys.stdout.write(f"{state}: no rating changes\n")
        for side in ("I", "O"):
            sys.stdout.write(_describe(side, score[side]) + "\n")
    return 0
