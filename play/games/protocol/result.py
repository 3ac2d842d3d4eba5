"""How a game ended (``play.games.protocol``): the seats' ranks, with ties, and why.

Every game's result is a ranking of its played seats: rank 1 is best, equal ranks are a tie
(two seats both ranked 1 is a draw; a three-seat game may end 1, 1, 3). Games that keep
points give ``scores`` beside the ranks (Talat, A6). A result with no ranks at all is a game
without a result: a **null** game (R39; talu's "-", no rating change) or an **aborted** one
(R37, reason ``aborted``). A two-seat game's winner is the seat ranked 1 alone (``winner``),
which is what talu's records and the site's pages have always stored.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

ABORTED = "aborted"


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended: ``ranks`` seat -> rank (1 best, ties allowed; empty: no result),
    ``reason`` the game's word for why (talu: elimination, invasion, forfeit, null, decision;
    ``aborted``, R37), ``detail`` in words, ``cause`` why a decision off the board was made
    (R37: ``time``, ``resignation``, ``abandonment``; "" for a result on the board), and
    ``scores`` seat -> points where the game keeps them."""

    ranks: Mapping[str, int]
    reason: str
    detail: str = ""
    cause: str = ""
    scores: Mapping[str, float] | None = field(default=None)

    def __post_init__(self) -> None:
        ranks = dict(self.ranks)
        if ranks:
            values = sorted(ranks.values())
            # ranks are "competition" ranks: 1, 1, 3 (two tied first, then third)
            for i, r in enumerate(values):
                if r < 1 or r > len(values) or (i and r != values[i - 1] and r != i + 1) or \
                        (not i and r != 1):
                    raise ValueError(f"ranks must be 1..N with ties (1, 1, 3), not {ranks}")
        object.__setattr__(self, "ranks", ranks)

    @classmethod
    def won(cls, winner: str | None, seats: Iterable[str], reason: str, detail: str = "",
            cause: str = "") -> Result:
        """A game ``winner`` won against every other seat (all of them ranked 2); None: no
        result (a null game, or aborted)."""
        if winner is None:
            return cls({}, reason, detail, cause)
        return cls({s: 1 if s == winner else 2 for s in seats}, reason, detail, cause)

    @classmethod
    def by_order(cls, order: Iterable[Iterable[str]], reason: str, detail: str = "",
                 cause: str = "", scores: Mapping[str, float] | None = None) -> Result:
        """Ranks from groups of seats, best first (a group ties): [["1"], ["2", "3"]] ranks
        1, 2, 2."""
        ranks: dict[str, int] = {}
        for group in order:
            rank = len(ranks) + 1
            for seat in group:
                ranks[seat] = rank
        return cls(ranks, reason, detail, cause, scores)

    @property
    def winner(self) -> str | None:
        """The seat ranked 1 alone, or None (a tie for first, a null or aborted game)."""
        first = [s for s, r in self.ranks.items() if r == 1]
        return first[0] if len(first) == 1 else None

    @property
    def ranked(self) -> bool:
        """Whether the game has a result (not null, not aborted)."""
        return bool(self.ranks)

    def to_json(self) -> dict[str, Any]:
        return {"ranks": dict(self.ranks), "scores": dict(self.scores) if self.scores else None,
                "reason": self.reason, "cause": self.cause, "detail": self.detail,
                "winner": self.winner}


def place_of(ranks: dict[str, int], seat: str) -> str:
    """A seat's place in a finished game's ``ranks`` as the lists of games say it: "won"
    (first, and someone was not), "lost" (below first), "drawn" (everyone first), "null" (no
    ranks: a null game, an aborted one, a seat without a rank)."""
    mine = ranks.get(seat)
    if mine is None:
        return "null"
    if max(ranks.values()) == 1:
        return "drawn"
    return "won" if mine == 1 else "lost"
