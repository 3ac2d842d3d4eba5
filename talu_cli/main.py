"""The ``talu`` console script: a conforming parser (../shared/CLI-CONTRACT.md).

Each subcommand lives in its own module exposing ``register(subparsers)``; the module sets
``func`` on its parser, a callable taking the parsed args and returning the exit code. Output
shapes are a contract read by other tools: change them only by adding keys.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence

SUBCOMMAND_MODULES = (
    "talu_cli.replay",
    "talu_cli.tally",
    "talu_cli.score",
    "talu_cli.records",
    "talu_cli.suggest",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="talu", description="Validate, tally, score and verify talu games.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in SUBCOMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:  # a real missing dependency, not an absent subcommand
                raise
            continue
        module.register(sub)
    return parser


def emit(obj: object) -> None:
    """Print one JSON object on stdout (the contract's machine-readable form)."""
    sys.stdout.write(json.dumps(obj, sort_keys=False) + "\n")


#: ``replay``/``suggest --game G``: the module that reads G's records (talu's is the default).
OTHER_GAMES = {"tafl": "talu_cli.replay_tafl", "tablut": "talu_cli.replay_tafl",
               "talat": "talu_cli.replay_talat"}
#: ``suggest --game G``: the module of G's computer (``talu_cli.suggest_tafl``).
OTHER_SUGGEST = {"tafl": "talu_cli.suggest_tafl", "tablut": "talu_cli.suggest_tafl"}


def _game_option(argv: list[str]) -> str | None:
    """The value of ``--game`` on a ``replay``/``suggest`` command line, None without one."""
    for i, arg in enumerate(argv):
        if arg == "--game" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--game="):
            return arg.split("=", 1)[1]
    return None


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    game = _game_option(args_list) if args_list[:1] in (["replay"], ["suggest"]) else None
    table = OTHER_SUGGEST if args_list[:1] == ["suggest"] else OTHER_GAMES
    if game in table:
        try:
            module = table[game]
            return int(importlib.import_module(module).run_command(args_list))
        except KeyboardInterrupt:
            return 130
        except BrokenPipeError:
            return 1
    if game == "talu":  # the default, said out loud
        i = args_list.index("--game") if "--game" in args_list else -1
        args_list = (args_list[:i] + args_list[i + 2:] if i >= 0
                     else [a for a in args_list if a != "--game=talu"])
    parser = build_parser()
    args = parser.parse_args(args_list)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    sys.exit(main())
