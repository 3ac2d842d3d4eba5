"""The games rated here and their names, until the game catalogue of issue 36 exists.

``GAME_NAMES`` is a stand-in: when the games become packages, the catalogue replaces it (the
rest of this app asks only ``game_name`` and ``rated_games``). Talu is not here on purpose: its
ratings are the book's ledger (R30), not a Weng-Lin rating.
"""

from __future__ import annotations

import re

#: game key -> the name shown (replace with the game catalogue when it exists)
GAME_NAMES: dict[str, str] = {"tafl": "Tafl", "tablut": "Tablut", "talat": "Talat"}

#: A game or variant key as stored and as it appears in an address: short, lower case.
KEY_RE = re.compile(r"[a-z0-9][a-z0-9_.-]{0,39}")


def rated_games() -> dict[str, str]:
    """The games rated by this app, key -> name, in the order they are shown."""
    return dict(GAME_NAMES)


def game_name(key: str) -> str | None:
    """The name of the rated game ``key``, or None when the site rates no such game."""
    return GAME_NAMES.get(key)


def is_key(text: str) -> bool:
    """Whether ``text`` has the form of a game or variant key (the empty variant aside)."""
    return KEY_RE.fullmatch(text) is not None
