"""How long a computer player thinks (R36), the same for every game's search: on a clock, a
small share of the time left (and of the increment), never the last ``CLOCK_RESERVE`` seconds;
in real time at most ``WALL_FACTOR`` times its CPU seconds (a loaded machine gives the search
only the CPU nobody else wants) and on a clock never more than a third of the spare time. Pure;
the games' searches (talu's, tafl's, Talat's) and their
computer players ask here, so the games' computers spend a clock alike."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

CLOCK_SHARE = 30  # a move thinks about 1/30 of the time left ...
INCREMENT_SHARE = 0.8  # ... plus this share of the increment it gets back at the turn's end,
CLOCK_RESERVE = 1.5  # seconds never thought away (the move's delivery, a loaded machine),
MIN_THINK = 0.05  # and at least this (the search returns its best so far when time is up).
WALL_FACTOR = 2.0  # a search's real time: at most twice its CPU seconds, plus
WALL_EXTRA = 0.5  # this (its replay, a busy moment), and on a clock a third of the spare time.


def clock_seconds(ceiling: float, left: float, increment: float = 0.0,
                  reserve: float = CLOCK_RESERVE) -> float:
    """CPU seconds a move may think with ``left`` seconds on the clock (all of it: main time
    and byoyomi periods) and ``increment`` back after it: ``ceiling`` (the level's seconds) at
    most, a small share of the clock the usual figure; with ``reserve`` or less left, at once."""
    spare = left - reserve
    if spare <= 0:
        return MIN_THINK
    share = spare / CLOCK_SHARE + INCREMENT_SHARE * increment
    return max(MIN_THINK, min(ceiling, share, spare / 4))


def wall_seconds(thinking: float, left: float | None = None,
                 reserve: float = CLOCK_RESERVE) -> float:
    """The real seconds a search thinking ``thinking`` CPU seconds may take at most; on a clock
    with ``left`` seconds never more than a third of what is left beyond the reserve (R36: the
    computer never thinks its time away, however starved)."""
    wall = WALL_FACTOR * thinking + WALL_EXTRA
    if left is not None:
        wall = min(wall, max(MIN_THINK, (left - reserve) / 3))
    return wall


def budget(level_seconds: float, seconds: float | None = None, deadline: int | None = None,
           increment: float = 0.0, reserve: float | None = None
           ) -> tuple[float, float | None]:
    """A turn's (CPU seconds, real seconds or None) for a level thinking ``level_seconds``:
    ``seconds`` overrides the level's; on a clock, ``deadline`` (ms since the epoch) is when
    the player's time runs out, ``increment`` what the turn gives back."""
    reserve = CLOCK_RESERVE if reserve is None else reserve
    left = None
    if deadline is not None:
        ceiling = level_seconds if seconds is None else seconds
        left = (deadline - time.time() * 1000) / 1000
        seconds = clock_seconds(ceiling, left, increment, reserve)
    thinking = level_seconds if seconds is None else seconds
    wall = wall_seconds(thinking, left, reserve) if thinking or left is not None else None
    return thinking, wall


class LevelledComputer:
    """What every game's computer player (``play.games.protocol.parts.ComputerPlayer``) says
    of its levels alike: which there are, a level's CPU seconds (its ``get_level``'s
    ``seconds``: a level the game does not have is refused in its words), the real seconds a
    search may take, and the clock's reserve. A game's computer sets ``levels`` and
    ``get_level`` and adds its own turns, replay and thinking."""

    levels: tuple[int, ...] = ()
    reserve: float = CLOCK_RESERVE
    get_level: Callable[[int], Any]

    def seconds(self, level: int) -> float:
        return float(type(self).get_level(level).seconds)

    def wall_seconds(self, thinking: float, left: float | None = None,
                     reserve: float | None = None) -> float:
        return wall_seconds(thinking, left, self.reserve if reserve is None else reserve)

