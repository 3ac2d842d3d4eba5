"""The games the site plays and their variants: the one place game and variant names live.

Each game is a pure package with a ``GameRules`` (``play.games.protocol.rules``), run by the
match (``play.games.match.Match``). A variant is keyed by its game (``talu/standard``,
``tafl/11x11``); talu's variants are also known by their bare names (``standard``), as every
talu game and record has always named them (R3, R31). Adding a game is adding its ``Match``
to ``GAMES``; nothing on the server path changes.
"""

from __future__ import annotations

from typing import Any

from play.games.match.match import Match
from play.games.protocol import GameOptions, State, Variant
from play.games.talu.protocol import RULES as TALU

GAMES: dict[str, Match] = {m.name: m for m in (TALU,)}

#: variant key -> the match that plays it, in the order players are offered them; talu's
#: bare names first (what its rows and records store).
VARIANTS: dict[str, Match] = {
    **{name: TALU for name in TALU.variants},
    **{v.key: m for m in GAMES.values() for v in m.variants.values()},
}
#: The variant names a talu game is created with (its rows, forms and records).
VARIANT_NAMES: tuple[str, ...] = tuple(TALU.variants)
DEFAULT_VARIANT = "standard"


def variant_choices() -> list[tuple[str, str]]:
    """(value, label) pairs for forms and model fields."""
    return [(name, name) for name in VARIANT_NAMES]


def rules_for(variant: str) -> Match:
    """The match that plays ``variant``; ``KeyError`` naming the known ones."""
    try:
        return VARIANTS[variant]
    except KeyError:
        raise KeyError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})") \
            from None


def variant_of(variant: str) -> Variant:
    """The ``Variant`` (seats, options, offers) named ``variant``."""
    return rules_for(variant).variant(variant)


def rules_of(state: State) -> Match:
    return GAMES[state.game]


def new_state(variant: str, options: GameOptions | None = None) -> Any:
    return rules_for(variant).new_state(variant, options or GameOptions())
