"""The pure clock (R36, R37): time controls, per-turn switching, lag credit, with fake times.

Every time below is milliseconds since an arbitrary epoch chosen by the test: the clock reads
no time source of its own (``play.games.clock``).
"""

from __future__ import annotations

import pytest

from play.games.clock import (
    DAY,
    Clock,
    TimeControl,
    TimeControlError,
    parse,
)

S = 1000
T0 = 1_000_000_000


def _past_openings(clock: Clock, at: int) -> int:
    """Both sides complete their opening turns (R36: never charged) by ``at``; returns the
    time O's opening ended, when I's first timed turn begins."""
    clock.end_turn(at)  # I's opening
    clock.end_turn(at + 1 * S)  # O's opening
    return at + 1 * S


def test_parse_and_canonical_text():
    assert str(parse("fischer 180+2")) == "fischer 180+2"
    assert str(parse("  Fischer   300+0 max 600 ")) == "fischer 300+0 max 600"
    assert str(parse("byoyomi 600 3x30")) == "byoyomi 600 3x30"
    assert str(parse("correspondence 3d")) == "correspondence 3d"
    assert parse("untimed").timed is False
    assert parse("fischer 180+2").label() == "3+2"


@pytest.mark.parametrize("text, words", [
    ("correspondence 15d", "days per turn"),
    ("correspondence 0d", "days per turn"),
    ("fischer 0+0", "needs some main time"),
    ("fischer 99999+2", "main time"),
    ("fischer 180+500", "increment"),
    ("fischer 300+2 max 100", "cap"),
    ("byoyomi 600 0x30", "periods"),
    ("byoyomi 600 3x1", "period"),
    ("blitz", "not a time control"),
    ("", "a time control is text"),
])
def test_out_of_range_is_refused_with_words(text, words):
    with pytest.raises(TimeControlError, match=words):
        parse(text)


def test_fischer_increment_per_turn_not_per_step():
    c = Clock(parse("fischer 60+2"), started=T0)
    t = _past_openings(c, T0 + 5 * S)
    assert c.remaining == {"I": 60 * S, "O": 60 * S}  # openings never charged
    assert c.running == "I" and c.deadline() == t + 60 * S
    # I plays four steps over 10 s: the clock runs on, nothing switches until the turn ends
    assert c.left("I", t + 5 * S) == 55 * S and c.left("O", t + 5 * S) == 60 * S
    c.end_turn(t + 10 * S)
    assert c.remaining["I"] == 52 * S  # 60 - 10 + 2
    assert c.running == "O" and c.since == t + 10 * S


def test_fischer_cap():
    c = Clock(parse("fischer 60+20 max 70"), started=T0)
    t = _past_openings(c, T0)
    c.end_turn(t + 1 * S)  # I: 60 - 1 + 20 = 79, capped at 70
    assert c.remaining["I"] == 70 * S


def test_flag_at_deadline():
    c = Clock(parse("fischer 10+0"), started=T0)
    t = _past_openings(c, T0)
    assert not c.out(t + 10 * S - 1)
    assert c.out(t + 10 * S)
    c.stop(t + 10 * S, flagged="I")
    assert c.remaining["I"] == 0 and c.running is None and c.deadline() is None


def test_opening_turn_has_its_own_limit():
    c = Clock(parse("fischer 180+2"), started=T0)
    assert c.in_opening("I") and c.deadline() == T0 + 30 * S
    c.end_turn(T0 + 29 * S)
    assert c.remaining["I"] == 180 * S  # not charged, no increment
    assert c.running == "O" and c.deadline() == T0 + 59 * S


def test_byoyomi_periods():
    c = Clock(parse("byoyomi 20 3x10"), started=T0)
    t = _past_openings(c, T0)
    assert c.deadline() == t + 20 * S + 30 * S
    c.end_turn(t + 15 * S)  # within main time
    assert c.remaining["I"] == 5 * S and c.periods["I"] == 3
    t2 = t + 15 * S
    c.end_turn(t2 + 1 * S)  # O
    t3 = t2 + 1 * S
    c.end_turn(t3 + 5 * S + 9 * S)  # I: main used up, 9 s into the first period: kept
    assert c.remaining["I"] == 0 and c.periods["I"] == 3
    t4 = t3 + 14 * S
    c.end_turn(t4 + 1 * S)  # O
    t5 = t4 + 1 * S
    c.end_turn(t5 + 25 * S)  # I overran two periods
    assert c.periods["I"] == 1
    c.end_turn(t5 + 26 * S)  # O
    assert c.deadline() == t5 + 26 * S + 10 * S


def test_correspondence_days_not_carried_over():
    c = Clock(parse("correspondence 3d"), started=T0)
    assert c.deadline() == T0 + 3 * DAY  # opening: the per-turn days
    t = T0 + DAY
    c.end_turn(t)
    c.end_turn(t + 1000)
    assert c.deadline() == t + 1000 + 3 * DAY
    c.end_turn(t + 1000 + 2 * DAY)  # I used 2 days of 3: not carried over
    c.end_turn(t + 1000 + 2 * DAY + 5)
    assert c.deadline() == t + 1000 + 2 * DAY + 5 + 3 * DAY


def test_lag_credit_bounds():
    c = Clock(parse("fischer 60+0"), started=T0)
    t = _past_openings(c, T0)
    for _ in range(5):  # I claims 5 s of lag each turn: 1 s a turn, 3 s a game credited
        c.end_turn(t + 2 * S, lag=5 * S)
        c.end_turn(t + 2 * S)
        t += 2 * S
    assert c.lag_used["I"] == 3 * S
    assert c.remaining["I"] == 60 * S - 5 * 2 * S + 3 * S
    assert c.credit("I", 10 * S) == 0
    assert c.snapshot()["lag_credit"]["I"] == 3 * S


def test_lag_credit_never_negative():
    c = Clock(parse("fischer 60+0"), started=T0)
    assert c.credit("I", -500) == 0


def test_untimed_has_no_deadline():
    c = Clock(TimeControl(), started=T0)
    assert c.deadline() is None and not c.out(T0 + 10 ** 12)


def test_absence_limit():
    assert parse("fischer 180+2").absence_ms == 15 * S + 10 * S + 18 * S
    assert parse("fischer 10800+60").absence_ms == 180 * S  # at most 3 minutes
    assert parse("correspondence 3d").absence_ms is None
