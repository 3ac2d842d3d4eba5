"""Who sends a command to a game (R40): a player (a seat), an arbiter, the clock, the computer
opponent, or the system, as ``Actor`` values (``play.games.protocol``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from play.games.protocol.seats import SEAT_ID

PLAYER, ARBITER, CLOCK, COMPUTER, SYSTEM = "player", "arbiter", "clock", "computer", "system"
ACTOR_KINDS = (PLAYER, ARBITER, CLOCK, COMPUTER, SYSTEM)


@dataclass(frozen=True, slots=True)
class Actor:
    """Who sends a command: ``kind`` is one of ``ACTOR_KINDS``; ``seat`` is the seat a player
    or the computer holds (the game's id: talu's "I" / "O"; else ""); ``name`` says who for
    the record (an arbiter's account, a test's name for its system actor). Whether the seat
    exists in the game is the match's to check (``play.games.match``)."""

    kind: str
    seat: str = ""
    name: str = ""

    def __post_init__(self) -> None:
        if self.kind not in ACTOR_KINDS:
            raise ValueError(f"unknown actor kind {self.kind!r}")
        if self.kind in (PLAYER, COMPUTER) and not SEAT_ID.match(self.seat):
            raise ValueError(f"a {self.kind} holds a seat, not {self.seat!r}")

    @property
    def side(self) -> str:
        """The seat, by its two-seat name (talu's code says side)."""
        return self.seat

    @property
    def plays(self) -> bool:
        """Whether this actor sits at the board (a player or the computer)."""
        return self.kind in (PLAYER, COMPUTER)


# A player's or the computer's actor is one per seat: made once (every step of a socket's
# player makes one; the seat check of ``__post_init__`` is a regular expression), kept in a
# bounded cache since the values are immutable.
@lru_cache(maxsize=256)
def player(seat: str) -> Actor:
    return Actor(PLAYER, seat)


@lru_cache(maxsize=256)
def computer(seat: str) -> Actor:
    return Actor(COMPUTER, seat)


def arbiter(name: str) -> Actor:
    return Actor(ARBITER, name=name)


CLOCK_ACTOR = Actor(CLOCK, name="clock")


def system(name: str = "system") -> Actor:
    return Actor(SYSTEM, name=name)
