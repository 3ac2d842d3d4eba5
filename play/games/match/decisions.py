"""The match's decisions, for every game (R36-R39 read per seat): a resignation, the clock's
flag and a time-out, an absence claim, the arbiter's forfeit, null and added time, offers of a
null game or a draw, announcements. Each takes the state and gives one event, or refuses
with a ``CommandError`` in a player's words; nothing here changes the state.

In a two-seat game a seat that resigns, runs out of time, is claimed against or forfeited
loses: the other wins by decision. In a game of more seats it **leaves** (``leave``), ranked
below those still playing, and the others play on until one is left or the game ends.
"""

from __future__ import annotations

from typing import Any

from play.games.clock import SECOND, TimeControlError, check_addition
from play.games.protocol import (
    ARBITER,
    SYSTEM,
    Actor,
    AddTime,
    Announce,
    BadCommand,
    ClaimAbsence,
    CommandError,
    DeclareNull,
    Decline,
    Event,
    Forfeit,
    GameOver,
    IllegalCommand,
    NotAllowed,
    Offer,
    TooEarly,
)
from play.games.text import problem as text_problem

from .sessions import OFFER
from .state import ABORT, ADDTIME, DECIDE, DECLINE, FORFEIT, LEAVE, NOTE, NULL, MatchState
from .takebacks import WHAT as TAKEBACK
from .takebacks import accepted as takeback_accepted
from .takebacks import refusal as takeback_refusal
from .takebacks import target as takeback_target

UNPLAYED = "unplayed"  # R41: the cause of an event game's opening turn not completed in time
MAX_MESSAGE = 500  # characters of an announcement
MAX_REASON = 500  # characters of an arbiter's reason


def over_text(state: MatchState) -> str:
    """"the game is over (Dark won: light resigned)": the refusal of a command to a game
    that ended, in the game's words."""
    r = state.rules.result(state.engine) or state.result
    return f"the game is over ({state.rules.describe(r) if r else 'over'})"


def live(state: MatchState) -> None:
    if state.result is not None:
        raise GameOver(over_text(state))


def other(state: MatchState, seat: str) -> str:
    """The other seat of a two-seat game."""
    return next(s for s in state.variant.played if s != seat)


def check_seat(state: MatchState, actor: Actor) -> None:
    """A player's or the computer's seat is one of the game's, still playing."""
    if actor.seat not in state.variant.played:
        raise NotAllowed(f"{actor.seat!r} is not a seat of this game")
    if actor.seat in state.left:
        raise NotAllowed("you have left this game")


def loses(state: MatchState, seat: str, cause: str, detail: str, at: int | None,
          actor: Actor) -> Event:
    """``seat`` is out (R37: by ``cause``): in a two-seat game the other wins by decision; in
    a game of more the seat leaves, ranked below the rest."""
    if len(state.variant.played) > 2:
        data: dict[str, Any] = {"seat": seat, "cause": cause, "detail": detail}
        if at is not None:
            data["t"] = at
        return Event(LEAVE, seat, data, f"{seat} leaves", actor.kind)
    data = {"winner": other(state, seat), "detail": detail, "cause": cause}
    if at is not None:
        data["t"] = at
    return Event(DECIDE, seat, data, _TEXTS.get(cause, cause), actor.kind)


_TEXTS = {"resignation": "resigns", "time": "time", "abandonment": "abandoned",
          UNPLAYED: UNPLAYED}


def resign(state: MatchState, actor: Actor, at: int | None) -> Event:
    if not actor.plays:
        raise NotAllowed(f"only a player can resign, not the {actor.kind}")
    check_seat(state, actor)
    live(state)
    return loses(state, actor.seat, "resignation", f"{actor.seat} resigned", at, actor)


def flag(state: MatchState, actor: Actor, at: int | None) -> Event:
    """R37: the clock's flag at the deadline, or a player's claim, checked on the clock."""
    live(state)
    clock = state.clock
    if clock is None:
        raise IllegalCommand("this game is untimed: there is no clock to flag")
    if clock.running is None:
        raise IllegalCommand("no clock is running")
    if at is None or not clock.out(at):
        left = clock.left(clock.running, at or clock.since)
        raise TooEarly(f"{clock.running}'s clock has not run out: {left / 1000:.1f} s left")
    return time_out(state, actor, at)


def time_out(state: MatchState, actor: Actor, at: int) -> Event:
    """The running seat's time is out at ``at``: in its opening turn, an abort (R36, R37), or
    in an event's game an unplayed game lost by that seat (R41: a decision with cause
    ``unplayed``, not rated); else it loses by decision, cause ``time`` (R37)."""
    assert state.clock is not None and state.clock.running is not None
    seat = state.clock.running
    if state.clock.in_opening(seat):
        detail = f"{seat} did not complete the opening turn in time"
        if state.options.in_event and len(state.variant.played) == 2:  # R41's exception
            return Event(DECIDE, seat, {"winner": other(state, seat), "detail": detail,
                                        "cause": UNPLAYED, "t": at}, UNPLAYED, actor.kind)
        return Event(ABORT, seat, {"t": at, "detail": detail}, "aborted", actor.kind)
    return loses(state, seat, "time", f"{seat} ran out of time", at, actor)


def claim(state: MatchState, actor: Actor, command: ClaimAbsence, at: int | None) -> Event:
    """R37: a claim against a player gone for the absence limit (live timed games)."""
    if not actor.plays:
        raise NotAllowed(f"only a player can claim a game, not the {actor.kind}")
    check_seat(state, actor)
    live(state)
    clock = state.clock
    limit = clock.tc.absence_ms if clock is not None else None
    if limit is None:
        raise IllegalCommand("only live timed games can be claimed for absence; in "
                             "correspondence the per-turn days decide")
    if state.sessions.paused:
        raise IllegalCommand("the game is adjourned: nobody is expected at the board")
    if command.result not in ("win", "null"):
        raise BadCommand("a claim asks for 'win' or 'null'")
    gone = command.seat or (other(state, actor.seat) if len(state.seats) == 2
                            else (state.rules.to_act(state.engine) or ("",))[0])
    if gone not in state.seats or gone == actor.seat:
        raise BadCommand("a claim names the absent seat of another player still playing")
    if command.absent_for is None:
        raise TooEarly(f"{gone} is connected")
    if command.absent_for < limit:
        raise TooEarly(f"{gone} has been gone {command.absent_for / 1000:.0f} s; you may "
                       f"claim after {limit / 1000:.0f} s")
    if command.result == "win" and len(state.variant.played) > 2:
        return loses(state, gone, "abandonment", f"{gone} left the game", at, actor)
    winner = actor.seat if command.result == "win" else None
    data: dict[str, Any] = {"winner": winner, "cause": "abandonment",
                            "detail": f"{gone} left the game"}
    if at is not None:
        data["t"] = at
    return Event(DECIDE, actor.seat, data, "abandoned", actor.kind)


def offer(state: MatchState, actor: Actor, command: Offer, at: int | None) -> Event:
    """A null game or a draw offered, or accepted when every other seat still playing has
    offered it: then the game ends by agreement (a draw ranks them all first; a null game
    has no result). A takeback (casual games, ``takebacks``) is asked and agreed the same
    way; agreed, the asker's last turn is taken back."""
    if not actor.plays:
        raise NotAllowed(f"only the players offer a {command.what}, not the {actor.kind}")
    check_seat(state, actor)
    live(state)
    taking_back = command.what == TAKEBACK
    if taking_back and takeback_refusal(state):
        raise IllegalCommand(takeback_refusal(state))
    if not taking_back and command.what not in state.variant.offers:
        allowed = ", ".join(state.variant.offers) or "none"
        raise IllegalCommand(f"{state.variant.title} has no {command.what} by agreement "
                             f"(offers it allows: {allowed})")
    s = state.sessions
    if s.paused:
        raise IllegalCommand("the game is adjourned: offer it when play has resumed")
    if s.offered_by(command.what, actor.seat):
        raise IllegalCommand(f"you have offered a {command.what} already; your opponent "
                             "decides")
    data: dict[str, Any] = {"what": command.what}
    if at is not None:
        data["t"] = at
    if not s.accepts(command.what, actor.seat, state.seats):
        if taking_back:
            takeback_target(state, actor.seat)  # refused now if there is nothing to take back
            return Event(OFFER, actor.seat, data, "asks to take back their last turn",
                         actor.kind)
        return Event(OFFER, actor.seat, data, f"offers a {command.what}", actor.kind)
    if taking_back and s.offer is not None:
        return takeback_accepted(state, s.offer[1], actor, at)
    if command.what == "draw":
        data = {"ranks": {seat: 1 for seat in state.seats}, "winner": None,
                "detail": "draw by agreement", "cause": "agreement"}
    else:
        data = {"winner": None, "detail": "null by agreement", "cause": "agreement"}
    if at is not None:
        data["t"] = at
    return Event(DECIDE, actor.seat, data, command.what, actor.kind)


def decline(state: MatchState, actor: Actor, command: Decline) -> Event:
    """A player declines the offer standing, or withdraws their own."""
    if not actor.plays:
        raise NotAllowed(f"only the players decline an offer, not the {actor.kind}")
    check_seat(state, actor)
    live(state)
    standing = state.sessions.offer
    if standing is None:
        raise IllegalCommand("no offer stands")
    return Event(DECLINE, actor.seat, {"what": standing[0]}, f"declines {standing[0]}",
                 actor.kind)


def arbiter_only(actor: Actor, what: str) -> None:
    if actor.kind != ARBITER:
        raise NotAllowed(f"only an arbiter can {what}, not the {actor.kind}")


def arbiter_action(state: MatchState, actor: Actor, what: str, reason: Any, for_reason: str,
                   seat: str | None = None, names_seat: str = "") -> str:
    """The checks of an arbiter's action, in order (R39): only an arbiter sends it; the seat
    it names (``seat``, when it names one) is one of the game's; it has a reason in words;
    the game is in play. The reason, trimmed; else the refusal, nothing changed."""
    arbiter_only(actor, what)
    if seat is not None and seat not in state.seats:
        raise BadCommand(f"{names_seat}, {' or '.join(state.seats)}, not {seat!r}")
    words = reason_words(reason, for_reason)
    live(state)
    return words


def reason_words(reason: Any, what: str) -> str:
    """R39: every arbiter action names its reason in words."""
    words = reason.strip() if isinstance(reason, str) else ""
    if not words:
        raise BadCommand(f"{what} needs a reason in words")
    # The one check of external text: one line, no control or bidirectional-control
    # character; emoji joined by U+200D are words like any (issue 41, finding 11).
    wrong = text_problem(words, max_length=MAX_REASON)
    if wrong:
        raise BadCommand(f"a reason is 1 to {MAX_REASON} characters of one line: it {wrong}")
    return words


def end(state: MatchState, actor: Actor, command: Forfeit | DeclareNull,
        at: int | None = None) -> Event:
    """R39: the arbiter's forfeit (the seat loses; in a game of more, it leaves, its clock
    stopped at ``t`` and the next one's started, like any seat that leaves) or null."""
    if isinstance(command, Forfeit):
        reason = arbiter_action(state, actor, "declare a forfeit", command.reason,
                                "a forfeit", command.side, "a forfeit names the side that loses")
        data: dict[str, Any] = {"side": command.side, "reason": reason, "by": actor.name}
        if at is not None and len(state.variant.played) > 2:
            data["t"] = at
        return Event(FORFEIT, "", data, f"forfeit {command.side}", actor.kind)
    reason = arbiter_action(state, actor, "declare the game null", command.reason,
                            "a null game")
    return Event(NULL, "", {"reason": reason, "by": actor.name}, "null", actor.kind)


def add_time(state: MatchState, actor: Actor, command: AddTime, at: int | None) -> Event:
    """R39 ``add_time``: an arbiter adds seconds to one seat's clock of a timed game (R36),
    with a reason; refused, with nothing changed, for an untimed or finished game, an amount
    out of range (``clock.check_addition``) or a clock that cannot take it now
    (``Clock.refuse_addition``: an opening turn, a clock already out, a cap)."""
    reason = arbiter_action(state, actor, "add time to a clock", command.reason,
                            "adding time", command.side,
                            "add_time names the side whose clock gets the time")
    clock = state.clock
    if clock is None:
        raise IllegalCommand("this game is untimed: there is no clock to add time to")
    try:
        seconds = check_addition(clock.tc, command.seconds)
    except TimeControlError as err:
        raise BadCommand(str(err)) from None
    refusal = clock.refuse_addition(command.side, seconds * SECOND, at)
    if refusal:
        raise IllegalCommand(refusal)
    data: dict[str, Any] = {"side": command.side, "seconds": seconds, "reason": reason,
                            "by": actor.name}
    if at is not None:
        data["t"] = at
    return Event(ADDTIME, "", data, f"add {seconds} s to {command.side}", actor.kind)


def announce(actor: Actor, command: Announce) -> Event:
    if actor.kind != SYSTEM:
        raise NotAllowed(f"only the system makes announcements, not the {actor.kind}")
    message = command.message.strip()
    if not message or len(message) > MAX_MESSAGE:
        raise BadCommand(f"an announcement is 1 to {MAX_MESSAGE} characters")
    return Event(NOTE, "", {"message": message}, message[:40], actor.kind)


__all__ = ["OFFER", "CommandError", "add_time", "announce", "claim", "decline", "end", "flag",
           "live", "offer", "resign", "time_out"]
