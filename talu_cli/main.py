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


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    sys.exit(main())
