"""Seats and variants (``play.games.protocol``): who sits at a game, as the game names them.

A game declares its variants, each with its seats in the order they play (talu: ``I`` and
``O``, the book's letters, shown as light and dark; tafl: ``attackers`` and ``defenders``;
Talat: ``1``, ``2``, ``3``) and its options. A seat is held by a person, by the computer, or
by nobody (a **neutral** seat, like Talat's Zihin in the two-player game: its pieces are on
the board, but no one sits there, no clock runs for it and it is never ranked).

Seat ids are the game's words in its log, its notation and its records; ``label`` is what a
person reads. The server keeps seats by id and never interprets them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

PERSON, NEUTRAL = "person", "neutral"
SEAT_KINDS = (PERSON, NEUTRAL)
#: A seat id: short, a word a URL and a log can hold (letters, digits, "-", "_").
SEAT_ID = re.compile(r"^[A-Za-z0-9_-]{1,16}$")


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """One seat of a variant: its ``id`` (the log's word), its ``label`` (a person's word) and
    whether a player holds it (``person``: a person or the computer) or nobody (``neutral``)."""

    id: str
    label: str
    kind: str = PERSON

    def __post_init__(self) -> None:
        if not SEAT_ID.match(self.id):
            raise ValueError(f"a seat id is 1-16 letters, digits, '-' or '_', not {self.id!r}")
        if self.kind not in SEAT_KINDS:
            raise ValueError(f"a seat is a {' or '.join(SEAT_KINDS)} seat, not {self.kind!r}")

    @property
    def played(self) -> bool:
        """Whether someone (a person or the computer) holds this seat."""
        return self.kind == PERSON


@dataclass(frozen=True, slots=True)
class Variant:
    """One variant of a game: ``key`` namespaced by the game (``talu/standard``,
    ``tafl/11x11``), ``name`` the game's own word for it (``standard``), its seats in playing
    order, and the options it takes with their defaults (the game checks values it is given,
    ``GameRules.options``). ``offers`` are the agreements players may offer each other besides
    adjournment (``null`` for talu, ``draw`` for a game that has draws)."""

    game: str
    name: str
    title: str
    seats: tuple[SeatSpec, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    offers: tuple[str, ...] = ()
    # Worked out once (``__post_init__``): a step's command reads ``played`` (who may act),
    # and a variant never changes (the seam's benchmark counts a step's instructions).
    _key: str = field(init=False, repr=False, compare=False)
    _seat_ids: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _played: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        ids = tuple(s.id for s in self.seats)
        object.__setattr__(self, "_key", f"{self.game}/{self.name}")
        object.__setattr__(self, "_seat_ids", ids)
        object.__setattr__(self, "_played", tuple(s.id for s in self.seats if s.played))
        if len(set(ids)) != len(ids):
            raise ValueError(f"{self.key}: seat ids repeat: {list(ids)}")
        if len(self.played) < 1:
            raise ValueError(f"{self.key}: a variant has at least one played seat")

    @property
    def key(self) -> str:
        return self._key

    @property
    def seat_ids(self) -> tuple[str, ...]:
        return self._seat_ids

    @property
    def played(self) -> tuple[str, ...]:
        """The seats someone holds, in playing order (neutral seats left out)."""
        return self._played

    def seat(self, seat_id: str) -> SeatSpec:
        for s in self.seats:
            if s.id == seat_id:
                return s
        raise KeyError(f"{self.key} has no seat {seat_id!r} (its seats: "
                       f"{', '.join(self.seat_ids)})")

    def label(self, seat_id: str) -> str:
        """A seat's label for people ("light"), its id when the variant has no such seat."""
        for s in self.seats:
            if s.id == seat_id:
                return s.label
        return seat_id
