"""The games the site plays and their variants: the one place variant names live.

A variant name (``game.type`` in the records, R3/R31) names a game and its parameters. Talu's
three are its rules' own table (R3, ``play.games.talu.variants``); a second game of the tafl
family plugs in by adding its rules here, and nothing on the server path changes.
"""

from __future__ import annotations

from typing import Any

from play.games.protocol import GameOptions, GameRules, State
from play.games.talu.protocol import RULES as TALU

GAMES: dict[str, GameRules] = {TALU.name: TALU}

#: variant name -> the rules that play it, in the order players are offered them.
VARIANTS: dict[str, GameRules] = {name: TALU for name in TALU.variants}
VARIANT_NAMES: tuple[str, ...] = tuple(VARIANTS)
DEFAULT_VARIANT = "standard"


def variant_choices() -> list[tuple[str, str]]:
    """(value, label) pairs for forms and model fields."""
    return [(name, name) for name in VARIANT_NAMES]


def rules_for(variant: str) -> GameRules:
    """The rules that play ``variant``; ``KeyError`` naming the known ones."""
    try:
        return VARIANTS[variant]
    except KeyError:
        raise KeyError(f"unknown variant {variant!r} (known: {', '.join(VARIANT_NAMES)})") \
            from None


def rules_of(state: State) -> GameRules:
    return GAMES[state.game]


def new_state(variant: str, options: GameOptions | None = None) -> Any:
    return rules_for(variant).new_state(variant, options or GameOptions())
