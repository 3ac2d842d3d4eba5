"""Who sends a command to a game (R40): a player (a side), an arbiter, the clock, the computer
opponent, or the system, as ``Actor`` values (``play.games.protocol``)."""

from __future__ import annotations

from dataclasses import dataclass

PLAYER, ARBITER, CLOCK, COMPUTER, SYSTEM = "player", "arbiter", "clock", "computer", "system"
ACTOR_KINDS = (PLAYER, ARBITER, CLOCK, COMPUTER, SYSTEM)


@dataclass(frozen=True, slots=True)
class Actor:
    """Who sends a command: ``kind`` is one of ``ACTOR_KINDS``; ``side`` is the side a player or
    the computer plays ("I" / "O", else ""); ``name`` says who for the record (an arbiter's
    account, a test's name for its system actor)."""

    kind: str
    side: str = ""
    name: str = ""

    def __post_init__(self) -> None:
        if self.kind not in ACTOR_KINDS:
            raise ValueError(f"unknown actor kind {self.kind!r}")
        if self.kind in (PLAYER, COMPUTER) and self.side not in ("I", "O"):
            raise ValueError(f"a {self.kind} plays a side, I or O, not {self.side!r}")

    @property
    def plays(self) -> bool:
        """Whether this actor sits at the board (a player or the computer)."""
        return self.kind in (PLAYER, COMPUTER)


def player(side: str) -> Actor:
    return Actor(PLAYER, side)


def computer(side: str) -> Actor:
    return Actor(COMPUTER, side)


def arbiter(name: str) -> Actor:
    return Actor(ARBITER, name=name)


CLOCK_ACTOR = Actor(CLOCK, name="clock")


def system(name: str = "system") -> Actor:
    return Actor(SYSTEM, name=name)
