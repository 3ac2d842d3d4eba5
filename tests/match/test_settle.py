"""``Match.settle`` (the one call the server's command path makes a batch of) against the
separate reads it stands for: after every command of a timed talu game that is adjourned with
a sealed turn, scheduled by its arbiter, resumed (R38) and resigned (R37), its result, notation,
seat to move, deadline and time of resumption are what ``side_to_move``, ``deadline``,
``resume_at`` and the notation say of the state it left. ``settle`` works them out itself
(without reading the result again); this is where a change to one and not the other shows."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from play import games
from play.games.clock import ms
from play.games.protocol import (
    CLOCK_ACTOR,
    Adjourn,
    GameOptions,
    PlayStep,
    Resign,
    Resume,
    arbiter,
    player,
)

T0 = datetime(2026, 3, 1, tzinfo=UTC)


def _step(frm: str, to: str) -> PlayStep:
    return PlayStep({"kind": "move", "from": frm, "to": to})


END = PlayStep({"kind": "end"})


def test_settle_says_what_the_separate_reads_say_at_every_command():
    s = games.new_state("standard", GameOptions(time_control="fischer 600+5", started=ms(T0)))
    rules = games.rules_of(s)
    when = ms(T0 + timedelta(hours=2))
    script = [
        (player("I"), _step("A1", "B1"), 5), (player("I"), END, 6),
        (player("O"), _step("A8", "B8"), 10), (player("O"), END, 11),
        (player("I"), Adjourn("dinner"), 20), (player("O"), Adjourn(), 21),
        (arbiter("ann"), Resume("after dinner", when), 30),
        (player("I"), _step("A2", "A3"), 40), (player("I"), END, 41),  # sealed, then the seal
        (CLOCK_ACTOR, Resume(), 7201),
        (player("O"), _step("C8", "D8"), 7210), (player("O"), END, 7211),
        (player("I"), Resign(), 7220),
    ]
    seen = set()
    for actor, command, t in script:
        turns = rules.turns(s)
        done = games.settle(s, actor, command, T0 + timedelta(seconds=t))
        assert done.events, (actor, command)
        assert done.result == s.result
        turn_ended = rules.turns(s) != turns
        assert done.notation == (rules.notation(s) if turn_ended or s.result else None)
        assert done.to_move == games.side_to_move(s)
        assert done.deadline == games.deadline(s)
        assert done.resume_at == games.resume_at(s)
        seen.add((done.to_move, done.deadline is None, done.resume_at, done.notation is None))
    assert s.result is not None and s.result.winner == "O"
    # the script went through every case: a step inside a turn and a turn's end with a clock
    # running; the sealing seat to move with the arbiter's time set, then nobody to move and
    # no clock while adjourned (R38); the end
    assert ("I", False, None, True) in seen and ("O", False, None, False) in seen
    assert ("I", False, when, True) in seen and ("", True, when, False) in seen
    assert ("", True, None, False) in seen
