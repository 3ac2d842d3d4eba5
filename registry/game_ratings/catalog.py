"""The games rated here and their names: every game of the catalogue
(``play.games.registry``) but talu, whose ratings are the book's ledger (R30), not a
Weng-Lin rating; and any game being built before its package lands (``PLANNED``: none now,
Talat landed with issue 37), so its board and ratings exist from its first game.
"""

from __future__ import annotations

import re

#: The games being built, key -> name, until the catalogue has them.
PLANNED: dict[str, str] = {}
TALU = "talu"

#: A game or variant key as stored and as it appears in an address: short, lower case.
KEY_RE = re.compile(r"[a-z0-9][a-z0-9_.-]{0,39}")


def rated_games() -> dict[str, str]:
    """The games rated by this app, key -> name, in the order they are shown."""
    from play.games.registry import titles
    games = {k: v for k, v in titles().items() if k != TALU}
    return {**games, **{k: v for k, v in PLANNED.items() if k not in games}}


def game_name(key: str) -> str | None:
    """The name of the rated game ``key``, or None when the site rates no such game."""
    return rated_games().get(key)


def is_key(text: str) -> bool:
    """Whether ``text`` has the form of a game or variant key (the empty variant aside)."""
    return KEY_RE.fullmatch(text) is not None
