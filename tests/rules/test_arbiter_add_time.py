"""The arbiter's ``add_time`` (R39, R36, R34, R40), pure: the decision, the clock it moves, the
record's item and its replay, and every refusal (nothing changed).

An arbiter adds seconds to one side's clock of a timed game, with a reason: an event of the
game (``addtime``) decided and folded like any command's; the running clock's deadline (what
the worker flags at, R37) moves by as much; the engine keeps an ``add_time`` item for the
session entry's ``arbiter`` list, which ``read_stgn`` (``talu verify``) accepts and keeps.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from play import games
from play.games.clock import DAY, amount_text, ms
from play.games.protocol import (
    AddTime,
    BadCommand,
    Event,
    Forfeit,
    GameOptions,
    GameOver,
    IllegalCommand,
    NotAllowed,
    PlayStep,
    arbiter,
    command_from_json,
    player,
    system,
)
from play.games.talu import read_stgn
from play.games.talu.protocol import describe

REF = arbiter("carol")
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _new(tc: str = "fischer 180+2"):
    return games.new_state("standard", GameOptions(time_control=tc, started=ms(T0)))


def _turn(state, at: datetime) -> None:
    """The side to move plays one quiet move and ends its turn at ``at``."""
    side = state.engine.side_to_move.value
    move = next(s for s in state.engine.legal_steps() if s.kind == "move")
    games.run(state, player(side), PlayStep(move.to_dict()), at)
    games.run(state, player(side), PlayStep({"kind": "end"}), at)


def _past_openings(tc: str = "fischer 180+2"):
    """Both sides have played their opening turn (R36's own limit): I's main clock runs."""
    state = _new(tc)
    _turn(state, T0 + timedelta(seconds=5))
    _turn(state, T0 + timedelta(seconds=9))
    return state


def _facts(state) -> tuple:
    clock = state.clock
    return (state.version, dict(clock.remaining) if clock else None,
            games.deadline(state), len(state.engine.arbiter))


# --- the decision and its effect ----------------------------------------------------------------

def test_time_added_to_the_running_clock_moves_its_deadline():
    state = _past_openings()
    before = games.deadline(state)
    at = T0 + timedelta(seconds=20)
    [event] = games.run(state, REF, AddTime("I", 120, "the hall's lights failed"), at)
    assert (event.kind, event.actor, event.side) == ("addtime", "arbiter", "")
    assert event.data == {"side": "I", "seconds": 120, "reason": "the hall's lights failed",
                          "by": "carol", "t": ms(at)}
    assert games.deadline(state) == before + 120_000  # what the worker flags at (R37)
    snap = games.snapshot(state)
    assert snap["clock"]["remaining"] == {"I": 300_000, "O": 180_000}
    assert snap["clock"]["deadline"] == before + 120_000
    assert describe(event.kind, event.data) == (
        "Arbiter: 2 minutes added to light's clock (the hall's lights failed)")
    # R34: the session entry's item, with the seconds beside R34's keys
    assert state.engine.arbiter[-1].to_dict() == {
        "turn": "001 O", "action": "add_time", "side": "I",
        "reason": "the hall's lights failed", "seconds": 120}
    assert snap["arbiter"][-1]["seconds"] == 120  # every board shows it


def test_time_added_to_the_waiting_side_counts_in_its_next_turn():
    state = _past_openings()
    games.run(state, REF, AddTime("O", 30, "a noisy neighbour"), T0 + timedelta(seconds=12))
    assert state.clock.remaining == {"I": 180_000, "O": 210_000}
    _turn(state, T0 + timedelta(seconds=19))  # I used 10 s, +2 increment
    assert state.clock.remaining["I"] == 172_000
    assert games.deadline(state) == ms(T0 + timedelta(seconds=19)) + 210_000
    _turn(state, T0 + timedelta(seconds=29))  # O used 10 s of its 210, +2
    assert state.clock.remaining["O"] == 202_000


def test_in_correspondence_the_time_is_for_the_current_turn_only():
    state = _past_openings("correspondence 3d")
    assert games.deadline(state) == ms(T0 + timedelta(seconds=9)) + 3 * DAY
    games.run(state, REF, AddTime("I", 86_400, "a postal strike"), T0 + timedelta(hours=1))
    assert games.deadline(state) == ms(T0 + timedelta(seconds=9)) + 4 * DAY
    _turn(state, T0 + timedelta(days=3, hours=12))  # inside the four days
    _turn(state, T0 + timedelta(days=4))
    # I's next turn has the three days again (unused time is not carried over, R36)
    assert state.clock.remaining["I"] == 3 * DAY
    assert games.deadline(state) == ms(T0 + timedelta(days=4)) + 3 * DAY


def test_a_replay_of_the_stored_events_has_the_same_clocks():
    """R40: the log alone gives the clocks again, on any process."""
    state = _past_openings()
    log: list[Event] = []
    for cmd, at in ((AddTime("I", 45, "a broken chair"), 11), (AddTime("O", 600, "a fire drill"),
                                                                12)):
        log += games.run(state, REF, cmd, T0 + timedelta(seconds=at))
    _turn(state, T0 + timedelta(seconds=30))
    replayed = _past_openings()
    for event in log:
        games.evolve(replayed, Event.from_json(event.to_json()))
    _turn(replayed, T0 + timedelta(seconds=30))
    assert games.snapshot(replayed)["clock"] == games.snapshot(state)["clock"]
    assert replayed.clock.remaining == {"I": 180_000 + 45_000 - 21_000 + 2_000,
                                        "O": 780_000}


def test_the_records_replay_keeps_the_add_time_items():
    """``talu verify`` replays the turns with the session entry's items (R34): an add_time
    item is accepted, kept, and changes nothing on the board; a forfeit after it still ends
    the game the same way."""
    state = _past_openings()
    games.run(state, REF, AddTime("O", 90, "a late bus"), T0 + timedelta(seconds=12))
    _turn(state, T0 + timedelta(seconds=15))
    games.run(state, REF, Forfeit("O", "left the venue"), T0 + timedelta(seconds=16))
    items = [d.to_dict() for d in state.engine.arbiter]
    assert items[0] == {"turn": "001 O", "action": "add_time", "side": "O",
                        "reason": "a late bus", "seconds": 90}
    replayed = read_stgn(state.engine.stgn(), arbiter=items)
    assert [d.to_dict() for d in replayed.arbiter] == items
    assert (replayed.outcome.winner, replayed.outcome.reason) == (
        state.engine.outcome.winner, state.engine.outcome.reason)
    assert replayed.board() == state.engine.board()


@pytest.mark.parametrize("item, words", [
    ({"turn": "001 O", "action": "add_time", "side": "O", "reason": "r"}, "seconds"),
    ({"turn": "001 O", "action": "add_time", "side": "O", "seconds": 0}, "seconds"),
    ({"turn": "001 O", "action": "add_time", "seconds": 30}, "side"),
    ({"turn": "001 O", "action": "add_time", "side": "O", "seconds": "30"}, "seconds"),
])
def test_a_malformed_add_time_item_is_refused_by_the_replay(item, words):
    state = _past_openings()
    with pytest.raises(ValueError, match=words):
        read_stgn(state.engine.stgn(), arbiter=[item])


def test_amounts_in_words():
    assert [amount_text(n) for n in (1, 45, 60, 90, 120, 3600, 5400, 86_400, 172_800)] == [
        "1 second", "45 seconds", "1 minute", "90 seconds", "2 minutes", "1 hour",
        "90 minutes", "1 day", "2 days"]


# --- refusals: clear words, nothing changed -----------------------------------------------------

@pytest.mark.parametrize("command, error, words", [
    (AddTime("I", 0, "r"), BadCommand, "1 to 3600"),
    (AddTime("I", -60, "r"), BadCommand, "1 to 3600"),
    (AddTime("I", 3601, "r"), BadCommand, r"1 to 3600 seconds \(1 hour\), not 3601"),
    (AddTime("I", 10**12, "r"), BadCommand, "1 to 3600"),
    (AddTime("I", 60, ""), BadCommand, "reason"),
    (AddTime("I", 60, "   "), BadCommand, "reason"),
    (AddTime("X", 60, "r"), BadCommand, "I or O"),
    (AddTime("", 60, "r"), BadCommand, "I or O"),
])
def test_bad_amounts_reasons_and_sides_are_refused(command, error, words):
    state = _past_openings()
    before = _facts(state)
    with pytest.raises(error, match=words):
        games.run(state, REF, command, T0 + timedelta(seconds=12))
    assert _facts(state) == before


def test_only_an_arbiter_adds_time():
    state = _past_openings()
    before = _facts(state)
    for actor in (player("I"), player("O"), system()):
        with pytest.raises(NotAllowed, match="only an arbiter"):
            games.run(state, actor, AddTime("I", 60, "r"), T0 + timedelta(seconds=12))
    assert _facts(state) == before


def test_an_untimed_game_has_no_clock_to_add_to():
    state = games.new_state("standard", GameOptions())
    before = _facts(state)
    with pytest.raises(IllegalCommand, match="untimed"):
        games.run(state, REF, AddTime("I", 60, "r"), T0)
    assert _facts(state) == before


def test_a_finished_game_takes_no_time():
    state = _past_openings()
    games.run(state, REF, Forfeit("O", "left"), T0 + timedelta(seconds=12))
    before = _facts(state)
    with pytest.raises(GameOver):
        games.run(state, REF, AddTime("I", 60, "r"), T0 + timedelta(seconds=13))
    assert _facts(state) == before


def test_the_opening_turn_limit_is_fixed():
    state = _new()
    before = _facts(state)
    with pytest.raises(IllegalCommand, match=r"opening turn.*30 seconds.*R36"):
        games.run(state, REF, AddTime("I", 60, "r"), T0 + timedelta(seconds=3))
    with pytest.raises(IllegalCommand, match="opening turn"):
        games.run(state, REF, AddTime("O", 60, "r"), T0 + timedelta(seconds=3))
    assert _facts(state) == before


def test_a_clock_already_out_is_the_flags():
    state = _past_openings()
    before = _facts(state)
    late = datetime.fromtimestamp(games.deadline(state) / 1000 + 1, tz=UTC)
    with pytest.raises(IllegalCommand, match="run out"):
        games.run(state, REF, AddTime("I", 60, "r"), late)
    assert _facts(state) == before
    # the other side's clock is not running: time may still be added to it
    games.run(state, REF, AddTime("O", 60, "r"), late)
    assert state.clock.remaining["O"] == 240_000


def test_a_fischer_cap_bounds_the_addition():
    state = _past_openings("fischer 180+2 max 240")
    before = _facts(state)
    with pytest.raises(IllegalCommand, match=r"at most 4 minutes.*at most 60 seconds"):
        games.run(state, REF, AddTime("O", 61, "r"), T0 + timedelta(seconds=12))
    assert _facts(state) == before
    games.run(state, REF, AddTime("O", 60, "r"), T0 + timedelta(seconds=12))
    assert state.clock.remaining["O"] == 240_000


@pytest.mark.parametrize("message, words", [
    ({"type": "add_time", "side": "I", "reason": "r"}, "seconds"),
    ({"type": "add_time", "side": "I", "seconds": "120", "reason": "r"}, "seconds"),
    ({"type": "add_time", "side": "I", "seconds": True, "reason": "r"}, "seconds"),
    ({"type": "add_time", "side": "I", "seconds": 1.5, "reason": "r"}, "seconds"),
    ({"type": "add_time", "side": "Z", "seconds": 60, "reason": "r"}, "side"),
    ({"type": "add_time", "seconds": 60, "reason": "r"}, "side"),
    ({"type": "add_time", "side": "I", "seconds": 60}, "reason"),
])
def test_malformed_messages_are_refused_in_words(message, words):
    # Refused off the wire or, for a seat talu does not have, by the match: in words, with
    # nothing changed.
    state = games.new_state("standard", GameOptions(time_control="fischer 300+0",
                                                    started=ms(T0)))
    with pytest.raises(BadCommand, match=words):
        games.run(state, REF, games.parse_command("standard", message), T0)
    assert state.version == 0
    assert command_from_json({"type": "add_time", "side": "O", "seconds": 60,
                              "reason": "r"}) == AddTime("O", 60, "r")
