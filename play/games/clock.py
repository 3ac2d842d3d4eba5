"""The game clock (R36, R37): time controls and a clock that runs per turn, pure.

scalachess's ``Clock`` is the model, with two differences the rulings make: a clock switches once
per **turn** (a talu turn is up to four steps; steps inside it never switch), and the time
source is not read here at all. Every function takes the time (milliseconds since the epoch)
it is asked about: the server passes the ``now`` of the command it decides, a replay passes the
times stored in the events, a test passes whatever it likes. The same log therefore gives the
same clocks on every process, in every replay (R40).

Time controls (R36), as their canonical text (the records' ``time_control``, R38):

- ``untimed``;
- ``fischer T+I`` (main time T seconds, increment I seconds per turn) or ``fischer T+I max C``
  (a clock never holds more than C seconds);
- ``byoyomi T PxB`` (main time T, then P periods of B seconds; a period is used up only when a
  turn overruns it);
- ``correspondence Dd`` (D days per turn, 1..14; unused time is not carried over).

The opening turn of each side has its own limit (live: 30 s, never charged to the main time;
correspondence: the per-turn days); a side that does not complete it leaves the game aborted.
Measured network lag may be credited: at most 1 s per turn, 3 s per game and side.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

UNTIMED, FISCHER, BYOYOMI, CORRESPONDENCE = "untimed", "fischer", "byoyomi", "correspondence"
KINDS = (UNTIMED, FISCHER, BYOYOMI, CORRESPONDENCE)

SECOND = 1000
DAY = 86_400 * SECOND
OPENING_LIVE = 30 * SECOND  # R36: a live side's opening turn
LAG_PER_TURN = 1 * SECOND  # R36: lag credit at most per turn ...
LAG_PER_GAME = 3 * SECOND  # ... and per game (each side)
ABSENCE_MAX = 180 * SECOND  # R37: the absence limit never exceeds 3 minutes

# Allowed ranges (R36 leaves them to the site; these are lichess's and OGS's, roughly).
MAIN_RANGE = (0, 3 * 3600)  # seconds of main time
INCREMENT_RANGE = (0, 180)  # seconds per turn
PERIODS_RANGE = (1, 10)
PERIOD_RANGE = (5, 300)  # seconds per period
DAYS_RANGE = (1, 14)  # R36
# R39 ``add_time``: the most an arbiter adds to one clock at once (more is a typing slip, not a
# decision): an hour to a live clock, the longest turn (14 days) to a correspondence one.
ADD_LIVE_MAX = 3600  # seconds
ADD_CORRESPONDENCE_MAX = DAYS_RANGE[1] * 86_400  # seconds


class TimeControlError(ValueError):
    """A time control that is malformed or out of its ranges; the message says which."""


@dataclass(frozen=True, slots=True)
class TimeControl:
    """One of R36's time controls; build it with ``parse`` or the constructors below, which
    check the ranges."""

    kind: str = UNTIMED
    main: int = 0  # seconds (fischer, byoyomi)
    increment: int = 0  # seconds per turn (fischer)
    cap: int | None = None  # seconds a fischer clock may hold at most
    periods: int = 0  # byoyomi
    period: int = 0  # seconds per byoyomi period
    days: int = 0  # correspondence

    def __post_init__(self) -> None:
        _check(self)

    # --- reading ------------------------------------------------------------------------------
    @property
    def timed(self) -> bool:
        return self.kind != UNTIMED

    @property
    def live(self) -> bool:
        """A live time control (the game is played in one sitting, players present)."""
        return self.kind in (FISCHER, BYOYOMI)

    @property
    def opening_ms(self) -> int:
        """R36: the limit of each side's opening turn."""
        return self.days * DAY if self.kind == CORRESPONDENCE else OPENING_LIVE

    @property
    def absence_ms(self) -> int | None:
        """R37: how long every connection of a player of a live timed game must be gone
        before the opponent may claim (15 s + 5 x increment + 10% of main, at most 3 min);
        None for untimed and correspondence games."""
        if not self.live:
            return None
        return min(ABSENCE_MAX, 15 * SECOND + 5 * self.increment * SECOND
                   + self.main * SECOND // 10)

    def __str__(self) -> str:
        if self.kind == FISCHER:
            text = f"fischer {self.main}+{self.increment}"
            return text if self.cap is None else f"{text} max {self.cap}"
        if self.kind == BYOYOMI:
            return f"byoyomi {self.main} {self.periods}x{self.period}"
        if self.kind == CORRESPONDENCE:
            return f"correspondence {self.days}d"
        return UNTIMED

    def label(self) -> str:
        """A short human form: "3+2", "10 min + 3x30 s", "3 days per turn", "untimed"."""
        if self.kind == FISCHER:
            main = f"{self.main // 60}" if self.main % 60 == 0 else f"{self.main}s"
            cap = f" (max {self.cap // 60} min)" if self.cap else ""
            return f"{main}+{self.increment}{cap}"
        if self.kind == BYOYOMI:
            return f"{self.main // 60} min + {self.periods}x{self.period} s"
        if self.kind == CORRESPONDENCE:
            return f"{self.days} day{'s' if self.days > 1 else ''} per turn"
        return "untimed"


def _in(name: str, value: int, bounds: tuple[int, int], unit: str) -> None:
    lo, hi = bounds
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise TimeControlError(f"{name} must be a whole number from {lo} to {hi} {unit}, "
                               f"not {value!r}")


def _check(tc: TimeControl) -> None:
    if tc.kind not in KINDS:
        raise TimeControlError(f"unknown time control {tc.kind!r} (known: {', '.join(KINDS)})")
    if tc.kind == FISCHER:
        _in("the main time", tc.main, MAIN_RANGE, "seconds")
        _in("the increment", tc.increment, INCREMENT_RANGE, "seconds")
        if tc.main + tc.increment == 0:
            raise TimeControlError("a fischer clock needs some main time or an increment")
        if tc.cap is not None:
            _in("the cap", tc.cap, (max(1, tc.main), MAIN_RANGE[1]), "seconds")
    elif tc.kind == BYOYOMI:
        _in("the main time", tc.main, MAIN_RANGE, "seconds")
        _in("the number of periods", tc.periods, PERIODS_RANGE, "periods")
        _in("a period", tc.period, PERIOD_RANGE, "seconds")
    elif tc.kind == CORRESPONDENCE:
        _in("the days per turn", tc.days, DAYS_RANGE, "days")


_FISCHER = re.compile(r"fischer (\d+)\+(\d+)(?: max (\d+))?")
_BYOYOMI = re.compile(r"byoyomi (\d+) (\d+)x(\d+)")
_CORR = re.compile(r"correspondence (\d+)d")


def parse(text: Any) -> TimeControl:
    """The time control written ``text`` (the canonical forms above; surrounding blanks and
    case ignored), or ``TimeControlError`` saying what is wrong."""
    if not isinstance(text, str) or not text.strip():
        raise TimeControlError("a time control is text like 'fischer 180+2', 'byoyomi 600 "
                               "3x30', 'correspondence 3d' or 'untimed'")
    t = " ".join(text.lower().split())
    if t == UNTIMED:
        return TimeControl()
    if m := _FISCHER.fullmatch(t):
        cap = int(m[3]) if m[3] is not None else None
        return TimeControl(FISCHER, main=int(m[1]), increment=int(m[2]), cap=cap)
    if m := _BYOYOMI.fullmatch(t):
        return TimeControl(BYOYOMI, main=int(m[1]), periods=int(m[2]), period=int(m[3]))
    if m := _CORR.fullmatch(t):
        return TimeControl(CORRESPONDENCE, days=int(m[1]))
    raise TimeControlError(f"{text!r} is not a time control (try 'fischer 180+2', "
                           "'byoyomi 600 3x30', 'correspondence 3d' or 'untimed')")


_LABEL_FISCHER = re.compile(r"(\d+)(s?) ?\+ ?(\d+)(?: \(max (\d+) min\))?"
                            r"(?: (?:blitz|rapid|classical))?")
_LABEL_BYOYOMI = re.compile(r"(\d+) min \+ (\d+) ?x ?(\d+) s")
_LABEL_CORR = re.compile(r"(\d+) days? per turn")


def read(text: Any) -> TimeControl:
    """A time control as a person types it: the canonical forms (``parse``) or the short ones
    the site shows (``TimeControl.label`` and the presets' names: "30+20", "30+20 classical",
    "45s+2", "10 min + 3x30 s", "3 days per turn"). A form (the event's) takes what the lobby
    shows; the records keep ``str()`` of the answer, the canonical form (R38)."""
    if not isinstance(text, str) or not text.strip():
        return parse(text)
    t = " ".join(text.lower().split())
    if m := _LABEL_FISCHER.fullmatch(t):
        main = int(m[1]) * (1 if m[2] else 60)
        cap = f" max {int(m[4]) * 60}" if m[4] else ""
        return parse(f"fischer {main}+{m[3]}{cap}")
    if m := _LABEL_BYOYOMI.fullmatch(t):
        return parse(f"byoyomi {int(m[1]) * 60} {m[2]}x{m[3]}")
    if m := _LABEL_CORR.fullmatch(t):
        return parse(f"correspondence {m[1]}d")
    try:
        return parse(t)
    except TimeControlError:
        if any(r.fullmatch(t) for r in (_FISCHER, _BYOYOMI, _CORR)):
            raise  # a canonical form out of its range: parse's words say which
        raise TimeControlError(
            f"{text.strip()!r} is not a time control (try '30+20', '10 min + 3x30 s', "
            "'3 days per turn', 'untimed', or the records' 'fischer 1800+20')") from None


#: The presets players are offered (lobby and challenge form), in order.
PRESETS: tuple[tuple[str, str], ...] = (
    ("fischer 180+2", "3+2 blitz"),
    ("fischer 600+5", "10+5 rapid"),
    ("fischer 1800+20", "30+20 classical"),
    ("correspondence 1d", "1 day per turn"),
    ("correspondence 3d", "3 days per turn"),
    ("correspondence 7d", "7 days per turn"),
    ("untimed", "untimed"),
)


def time_label(text: str) -> str:
    """The short form of a time control written ``text`` (itself if it is not one)."""
    try:
        return parse(text).label()
    except TimeControlError:
        return text


def addition_limit(tc: TimeControl) -> int:
    """The most seconds an arbiter may add to one clock of a game of control ``tc`` at once
    (R39 ``add_time``); 0 for an untimed game, which has no clock."""
    if not tc.timed:
        return 0
    return ADD_CORRESPONDENCE_MAX if tc.kind == CORRESPONDENCE else ADD_LIVE_MAX


def check_addition(tc: TimeControl, seconds: Any) -> int:
    """``seconds`` as an arbiter's addition to a clock of control ``tc`` (R39 ``add_time``), or
    ``TimeControlError`` saying what is wrong: no clock, not a whole number, zero or less, or
    more than ``addition_limit``."""
    limit = addition_limit(tc)
    if limit == 0:
        raise TimeControlError("this game is untimed: there is no clock to add time to")
    if isinstance(seconds, bool) or not isinstance(seconds, int):
        raise TimeControlError(f"the time to add is a whole number of seconds, not {seconds!r}")
    if not 1 <= seconds <= limit:
        raise TimeControlError(f"the time to add is 1 to {limit} seconds "
                               f"({amount_text(limit)}), not {seconds}")
    return seconds


def amount_text(seconds: int) -> str:
    """An amount of time in words, as the board shows an addition: "2 minutes", "90 seconds",
    "1 hour", "3 days"; the largest unit that divides it."""
    for unit, size in (("day", 86_400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            n = seconds // size
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return f"{seconds} second{'s' if seconds != 1 else ''}"


def ms(at: datetime) -> int:
    """Milliseconds since the epoch of an aware datetime (the unit of every clock time)."""
    return int(at.timestamp() * 1000)


# --- the clock --------------------------------------------------------------------------------

#: Talu's seats, the clock's default (the book's light and dark).
SIDES = ("I", "O")


class Clock:
    """The clocks of one game, one per played seat: the time each has left, which one runs
    and since when. One clock runs at a time (games played turn by turn), passing in the
    seats' order unless told which is next.

    Mutable, like the game state it belongs to (``play.games.match.MatchState``), and
    changed only by ``end_turn``, ``stop``, ``resume``, ``drop`` and an arbiter's ``add``
    (R39), each given the time it happens at (``add`` needs none: it moves the budget, not
    the running). ``remaining`` is each seat's time as of the start of the running turn (the
    running seat's is what it had when its turn began); ``left`` gives it at any moment.
    """

    __slots__ = ("expired", "lag_used", "opening", "periods", "remaining", "running", "seats",
                 "since", "tc")

    def __init__(self, tc: TimeControl, started: int | None = None,
                 seats: tuple[str, ...] = SIDES, first: str | None = None) -> None:
        self.tc = tc
        self.seats = tuple(seats)  # the seats still playing, in their order
        main = tc.main * SECOND if tc.kind in (FISCHER, BYOYOMI) else tc.days * DAY
        self.remaining: dict[str, int] = {s: main for s in self.seats}
        self.periods: dict[str, int] = {s: tc.periods for s in self.seats}
        self.lag_used: dict[str, int] = {s: 0 for s in self.seats}
        self.opening: set[str] = set(self.seats)  # seats yet to complete their opening turn
        self.expired: set[str] = set()  # seats whose opening turn ran out (an abort, R37)
        self.running: str | None = None
        self.since: int = 0
        if tc.timed and started is not None:
            self.running, self.since = first or self.seats[0], started

    def following(self, seat: str) -> str:
        """The seat after ``seat`` in the order of those still playing."""
        order = self.seats
        if seat not in order:
            return order[0]
        return order[(order.index(seat) + 1) % len(order)]

    # --- reading ------------------------------------------------------------------------------
    def in_opening(self, side: str | None = None) -> bool:
        side = side or self.running
        return side in self.opening

    def budget(self, side: str) -> int:
        """Milliseconds ``side`` may use in its turn from its start, all included (main
        time and every remaining period); its opening turn's own limit in its opening turn."""
        if side in self.opening:
            return 0 if side in self.expired else self.tc.opening_ms
        if self.tc.kind == BYOYOMI:
            return self.remaining[side] + self.periods[side] * self.tc.period * SECOND
        return self.remaining[side]

    def deadline(self) -> int | None:
        """When the running side's time is out (ms since the epoch), or None: no clock runs."""
        if self.running is None:
            return None
        return self.since + self.budget(self.running)

    def out(self, now: int) -> bool:
        """Whether the running side's time is out at ``now``."""
        d = self.deadline()
        return d is not None and now >= d

    def left(self, side: str, now: int) -> int:
        """Milliseconds ``side`` has left in all at ``now`` (never below 0)."""
        if side != self.running:
            return self.budget(side)
        return max(0, self.budget(side) - max(0, now - self.since))

    # --- changing -----------------------------------------------------------------------------
    def credit(self, side: str, lag: int) -> int:
        """The lag credit ``side`` may have for a turn with ``lag`` ms of measured lag: at
        most 1 s a turn and 3 s a game (R36)."""
        return max(0, min(int(lag), LAG_PER_TURN, LAG_PER_GAME - self.lag_used[side]))

    def end_turn(self, at: int, lag: int = 0, next_seat: str | None = None) -> None:
        """The running seat ended its turn at ``at``: charge the turn (less the lag credit),
        add the increment, start the next seat's clock (``next_seat``, else the following
        one). A turn that began before ``at`` and overran the deadline is the caller's to
        refuse (``out``); here it leaves 0."""
        side = self.running
        if side is None:
            return
        credit = self.credit(side, lag)
        self.lag_used[side] += credit
        used = max(0, at - self.since - credit)
        tc = self.tc
        if side in self.opening:
            self.opening.discard(side)  # never charged to the main time (R36)
        elif tc.kind == FISCHER:
            left = max(0, self.remaining[side] - used) + tc.increment * SECOND
            if tc.cap is not None:
                left = min(left, tc.cap * SECOND)
            self.remaining[side] = left
        elif tc.kind == BYOYOMI:
            main = self.remaining[side]
            if used <= main:
                self.remaining[side] = main - used
            else:
                over = used - main
                self.remaining[side] = 0
                self.periods[side] = max(0, self.periods[side] - over // (tc.period * SECOND))
        elif tc.kind == CORRESPONDENCE:
            # unused time is not carried over; the next turn has the days again (and time an
            # arbiter added, R39, was for this turn only)
            self.remaining[side] = tc.days * DAY
        self.running, self.since = next_seat or self.following(side), at

    def drop(self, seat: str, at: int) -> None:
        """``seat`` leaves a game of more than two (resigned, flagged, forfeited): its clock
        stops for good, keeping what it had; if it was running, the next seat's runs from
        ``at``."""
        if seat not in self.seats:
            return
        nxt = self.following(seat)
        if self.running == seat:
            self.stop(at)
            self.running, self.since = (nxt if nxt != seat else None), at
        self.seats = tuple(s for s in self.seats if s != seat)

    def stop(self, at: int, flagged: str | None = None) -> None:
        """No clock runs from ``at`` (the game ended, or was adjourned after the running side's
        time was charged); ``flagged``: the side whose time ran out keeps 0."""
        side = self.running
        if side is not None and side not in self.opening and self.tc.kind != CORRESPONDENCE:
            used = max(0, at - self.since)
            if self.tc.kind == BYOYOMI and used > self.remaining[side]:
                over = used - self.remaining[side]
                self.periods[side] = max(0, self.periods[side] - over // (self.tc.period
                                                                         * SECOND))
                self.remaining[side] = 0
            else:
                self.remaining[side] = max(0, self.remaining[side] - used)
        if flagged is not None and flagged in self.opening:
            self.expired.add(flagged)  # its opening turn's limit is spent, its main time not
        elif flagged is not None:
            self.remaining[flagged] = 0
            self.periods[flagged] = 0
        self.running = None
        self.since = at

    def refuse_addition(self, side: str, amount: int, now: int | None) -> str:
        """Why an arbiter may not add ``amount`` ms to ``side``'s clock at ``now`` (R39), in
        words; "" when they may. A side in its opening turn has the fixed opening limit
        (R36), not its main time; a running clock already out at ``now`` is the flag's (R37:
        the worker flags it); a fischer clock never holds more than its cap."""
        if side in self.opening:
            return (f"{side} has not completed its opening turn: its opening limit "
                    f"({amount_text(self.tc.opening_ms // SECOND)}) is fixed (R36); add time "
                    "once it has")
        if now is not None and side == self.running and self.out(now):
            return f"{side}'s time has run out: the game is lost on time (R37)"
        cap = self.tc.cap
        if cap is not None:
            held = self.left(side, now) if now is not None else self.budget(side)
            if held + amount > cap * SECOND:
                room = max(0, cap * SECOND - held) // SECOND
                return (f"a clock of this game holds at most {amount_text(cap)} (its cap, R36): "
                        f"at most {room} seconds can be added to {side}'s now")
        return ""

    def add(self, side: str, amount: int) -> None:
        """An arbiter adds ``amount`` ms to ``side``'s clock (R39 ``add_time``): to its main
        time, so a running clock's deadline moves by as much. In correspondence it is extra
        time for the side's current (or next) turn only: ``end_turn`` gives the next turn
        the days again."""
        self.remaining[side] += amount

    def resume(self, side: str, at: int) -> None:
        """``side``'s clock runs again from ``at`` (after an adjournment)."""
        self.running, self.since = side, at

    def snapshot(self) -> dict[str, Any]:
        """The clocks as clients get them (docs/protocol.md, "Clocks"): each side's budget as of
        ``since`` (the running side's at the start of its turn; 0 for a side whose opening
        turn ran out), which runs, and the lag credit used; with the frame's ``server_time``
        a client draws a smooth countdown."""
        return {
            "control": str(self.tc),
            "label": self.tc.label(),
            "remaining": {s: self.budget(s) for s in self.remaining},
            "main": dict(self.remaining),
            "periods": dict(self.periods) if self.tc.kind == BYOYOMI else None,
            "period": self.tc.period * SECOND if self.tc.kind == BYOYOMI else None,
            "running": self.running,
            "since": self.since,
            "deadline": self.deadline(),
            "opening": sorted(self.opening),
            "lag_credit": dict(self.lag_used),
        }
