"""The tally of a game (book 6.5.1.9, rulings R16-R19), derived from a replayed game.

Humans never author tallies (book 6.5.1.9): this module is the only place they are made, from the
engine's history of a game, so a tally is always reproducible from notation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# R19: every code is present in every tally, zero-filled, in this order.
CODES: tuple[str, ...] = (
    "A.a", "A.b", "A.c", "A.d", "A.e",
    "B.a", "B.b", "B.c",
    "C.a", "C.b", "C.c",
    "D.d", "D.e", "D.f",
    "E.a", "E.b", "E.c",
    "F.a",
    "G.a", "G.b", "G.c", "G.d",
)  # fmt: skip


def empty_codes() -> dict[str, int]:
    """A zero-filled code map (R19)."""
    return dict.fromkeys(CODES, 0)


@dataclass
class Tally:
    """Both players' tallies plus the facts the scoring models need besides the codes.

    ``winner`` is "I", "O" or None; ``reason`` is the outcome reason of the engine
    (elimination, invasion, forfeit, null, decision) or None while the game is unfinished.
    A game is *rateable* only when it is decided with a winner (R12: a null game changes no
    rating; an unfinished game has no result).
    """

    codes: dict[str, dict[str, int]] = field(
        default_factory=lambda: {"I": empty_codes(), "O": empty_codes()}
    )
    captures: dict[str, int] = field(default_factory=lambda: {"I": 0, "O": 0})
    rounds: int = 0
    winner: str | None = None
    reason: str | None = None

    @property
    def rateable(self) -> bool:
        return self.winner is not None
