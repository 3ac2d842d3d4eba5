"""The match: a game's rules (``GameRules``) as the server runs them, with everything players
and arbiters do around the rules written once, for every game and any number of seats.

``Match(rules)`` is what ``play.games.registry`` keeps per game and the server path calls
(through ``play.games``): ``decide`` a command of an actor, ``evolve`` the state by an event,
``follow_up``, and the reading side (``snapshot``, ``notation``, ``deadline``...). A seat's
move goes to the game (``decide_move``); a game's own commands to ``decide_command``; the
rest is the match's: resignation, the clock and its flag (R36, R37), absence claims (R37),
adjournment with a sealed turn and resumption (R38, ``sessions``), the arbiter's decisions
(R39), offers of a null game or a draw, announcements (``decisions``).

Timed games carry the clock in the log: every move and decision of a timed game has
``data["t"]``, the server's time of the decision (ms since the epoch), and a move may have
``data["lag"]``, the sender's measured lag; the clock (``play.games.clock``) is folded from
them, so a replay on any process has the same clocks (R40).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from play.games.clock import SECOND, ms
from play.games.protocol import (
    ARBITER_ONLY,
    EVERYONE,
    AddTime,
    Adjourn,
    Announce,
    BadCommand,
    ClaimAbsence,
    Command,
    DeclareNull,
    Decline,
    Event,
    Flag,
    Forfeit,
    GameOptions,
    GameOver,
    GameRules,
    IllegalCommand,
    NotAllowed,
    NotYourTurn,
    Offer,
    PlayStep,
    Resign,
    Result,
    Resume,
    Variant,
    command_from_json,
)

from . import decisions, sessions, takebacks
from .sessions import ADJOURN, OFFER, RESUME, SCHEDULE, SEAL, SessionEnd
from .state import (
    ABORT,
    ADDTIME,
    DECIDE,
    DECLINE,
    FORFEIT,
    LEAVE,
    NOTE,
    NULL,
    TAKEBACK,
    UNKNOWN,
    MatchState,
)

#: Every event kind the match stores (a game's own kinds must be others).
KINDS = (DECIDE, ABORT, NOTE, LEAVE, FORFEIT, NULL, ADDTIME, DECLINE, TAKEBACK,
         *sessions.KINDS)
_MATCH_KINDS, _SESSION_KINDS = frozenset(KINDS), frozenset(sessions.KINDS)  # looked up per event
#: The agreements that lapse when a seat that did not make them moves (adjournment stands).
_LAPSING = ("null", "draw", takebacks.WHAT)


class Settled(NamedTuple):
    """One command run (``Match.settle``): its events and what the game's row keeps after
    them: the result (None while the game goes on), the notation when a turn or the game
    ended (None: unchanged), the seat to move ("" when nobody is), the running clock's
    deadline and the arbiter's time of resumption (ms since the epoch, or None). A tuple,
    not a frozen dataclass: made at every step, without a frozen class's six setattr calls."""

    events: list[Event]
    result: Result | None
    notation: str | None
    to_move: str
    deadline: int | None
    resume_at: int | None


class Match:
    """A game's rules with the match rules around them: the server's view of one game."""

    def __init__(self, rules: GameRules[Any]) -> None:
        clash = set(KINDS) & set(getattr(rules, "event_kinds", ()))
        if clash:  # pragma: no cover - a game's definition error, found at import
            raise ValueError(f"{rules.key}'s event kinds {sorted(clash)} are the match's")
        self.rules = rules
        self.name = rules.key
        self.variants: dict[str, Variant] = {v.name: v for v in rules.variants.values()}

    # --- the catalogue's questions ------------------------------------------------------------
    def variant(self, name: str) -> Variant:
        """The variant named ``name`` or keyed ``game/name``; ``KeyError`` naming the known."""
        bare = name.split("/", 1)[1] if name.startswith(f"{self.name}/") else name
        try:
            return self.variants[bare]
        except KeyError:
            raise KeyError(f"unknown variant {name!r} (known: {', '.join(self.variants)})") \
                from None

    def new_state(self, variant: str, options: GameOptions | None = None) -> MatchState:
        return MatchState(self.rules, self.variant(variant), options or GameOptions())

    def parse(self, data: Any) -> Command:
        """A command off the wire: the match's or the game's own; ``BadCommand`` if wrong."""
        return command_from_json(data, self.rules.commands)

    @property
    def arbiter_only(self) -> tuple[str, ...]:
        """The commands only an arbiter sends: the match's (R39) and the game's own."""
        return (*self.rules.arbiter_commands, *ARBITER_ONLY)

    # --- deciding -----------------------------------------------------------------------------
    def decide(self, state: MatchState, actor: Any, command: Command,
               now: datetime | None = None) -> list[Event]:
        """The events ``command`` of ``actor`` causes now, or a ``CommandError``; the state is
        not changed (``evolve`` folds the events in)."""
        at = ms(now) if now is not None and state.clock is not None else None
        if isinstance(command, PlayStep):
            clock = state.clock
            if (at is not None and clock is not None and actor.plays
                    and clock.running == actor.seat
                    and clock.out(at - clock.credit(actor.seat, command.lag))
                    and state.result is None):
                return [decisions.time_out(state, actor, at)]  # too late: the flag, not it
            return self._move(state, actor, command.step, at, command.lag)
        if isinstance(command, Resign):
            return [decisions.resign(state, actor, at)]
        if isinstance(command, Flag):
            return [decisions.flag(state, actor, at)]
        if isinstance(command, ClaimAbsence):
            return [decisions.claim(state, actor, command, at)]
        at = ms(now) if now is not None else None  # sessions keep their times, timed or not
        if isinstance(command, Adjourn):
            return [self._adjourn(state, actor, command, at)]
        if isinstance(command, Resume):
            return [self._resume(state, actor, command, at)]
        if isinstance(command, Offer):
            return [decisions.offer(state, actor, command, at)]
        if isinstance(command, Decline):
            return [decisions.decline(state, actor, command)]
        if isinstance(command, (Forfeit, DeclareNull)):
            return [decisions.end(state, actor, command, at)]
        if isinstance(command, AddTime):
            return [decisions.add_time(state, actor, command, at)]
        if isinstance(command, Announce):
            return [decisions.announce(actor, command)]
        if command.TYPE in self.rules.commands:
            if command.TYPE in self.rules.arbiter_commands and \
                    actor.kind not in ("arbiter", "system"):
                raise NotAllowed(f"only an arbiter can send {command.TYPE}, not the "
                                 f"{actor.kind}")
            return self.rules.decide_command(state.engine, actor, command)
        raise BadCommand(f"{self.rules.title} has no command {type(command).__name__}")

    def _move(self, state: MatchState, actor: Any, move: Any, at: int | None,
              lag: int) -> list[Event]:
        """A seat's move: checked here for who may move (R40), decided by the game."""
        if not actor.plays:
            raise NotAllowed(f"only the players play steps, not the {actor.kind}")
        decisions.check_seat(state, actor)
        rules = self.rules
        to_act = rules.to_act(state.engine)
        if state.result is not None or not to_act:
            raise GameOver(decisions.over_text(state))
        if actor.seat not in to_act:
            seat = to_act[0]
            raise NotYourTurn(f"it is {state.variant.label(seat)}'s turn ({seat}), not yours")
        if state.sessions.adjourned:
            raise IllegalCommand("the game is adjourned: play resumes when both players agree "
                                 "or the arbiter resumes it")
        events = rules.decide_move(state.engine, actor.seat, move)
        s = state.sessions
        visibility = EVERYONE if s.sealing is None else sessions.sealed_visibility(s)
        kind = actor.kind
        for i, e in enumerate(events):
            if at is not None:  # each event's data is a dict of its own (``decide_move``)
                e.data["t"] = at
                if lag > 0:
                    e.data["lag"] = int(lag)
            if e.actor != kind or e.visibility != visibility:  # a player's, seen by all: as is
                events[i] = Event(e.kind, e.side, e.data, e.text, kind, visibility)
        return events

    @staticmethod
    def _session_checks(state: MatchState, actor: Any, reason: str) -> None:
        """What an adjournment and a resumption check first: the reason's text, a live game,
        a player's seat."""
        sessions.check_reason(reason)
        decisions.live(state)
        if actor.plays:
            decisions.check_seat(state, actor)

    def _adjourn(self, state: MatchState, actor: Any, command: Adjourn, at: int | None
                 ) -> Event:
        self._session_checks(state, actor, command.reason)
        to_act = self.rules.to_act(state.engine)
        return sessions.decide_adjourn(state.sessions, actor, command, at,
                                       to_act[0] if to_act else "",
                                       self.rules.between_turns(state.engine), state.seats)

    def _resume(self, state: MatchState, actor: Any, command: Resume, at: int | None
                ) -> Event:
        self._session_checks(state, actor, command.reason)
        return sessions.decide_resume(state.sessions, actor, command, at, state.seats,
                                      self.rules.last_turn(state.engine))

    def run(self, state: MatchState, actor: Any, command: Command,
            now: datetime | None = None) -> list[Event]:
        """Decide ``command`` and fold its events, then the follow-ups, into ``state``: the
        events of one command as the log stores them, in order. On a ``CommandError`` the
        state is unchanged."""
        events = self.decide(state, actor, command, now)
        for event in events:
            self.evolve(state, event)
        while more := self.follow_up(state):
            for event in more:
                self.evolve(state, event)
            events.extend(more)
        return events

    def settle(self, state: MatchState, actor: Any, command: Command,
               now: datetime | None = None) -> Settled:
        """``run``, and what the game's row keeps after it (``Settled``), each worked out once
        from the state it left: the server's command path makes a batch of it at every step
        (issue 36's load benchmark counts the calls of a step). A ``CommandError`` as ``run``."""
        turns = self.rules.turns
        before = turns(state.engine)
        events = self.run(state, actor, command, now)
        result = state.result
        if result is not None:
            return Settled(events, result, self.notation(state), "", None, None)
        notation = self.notation(state) if turns(state.engine) != before else None
        # as side_to_move, deadline and resume_at read them, the result known to be None
        # (nobody to move while adjourned, R38); tests/match/test_settle.py holds them equal
        s, clock = state.sessions, state.clock
        to_act = () if s.adjourned else self.rules.to_act(state.engine)
        return Settled(events, None, notation, to_act[0] if to_act else "",
                       None if clock is None else clock.deadline(), s.resume_at)

    # --- evolving -----------------------------------------------------------------------------
    def evolve(self, state: MatchState, event: Event) -> MatchState:
        """Fold ``event`` into ``state`` (in place) and count it. Raises the game's error for
        an event this state cannot take, having changed nothing. The clock switches when a
        turn ended (never inside a turn, R36) and stops when the game ended."""
        rules, engine, clock = self.rules, state.engine, state.clock
        # the turns before it, where a turn's end matters: a clock switches, an offer lapses
        watch = clock is not None or state.sessions.offer is not None
        turns = rules.turns(engine) if watch else 0
        kind, data = event.kind, event.data
        at = data.get("t")
        state._result = UNKNOWN  # the result is worked out again when next asked
        if kind == TAKEBACK:  # a casual game's turns taken back by agreement (issue 39)
            takebacks.fold(state, event)
            if isinstance(at, int):
                state.last_t = at
            state.version += 1
            return state
        if kind in _SESSION_KINDS:
            self._session_event(state, event)
            state._result = UNKNOWN  # the result is worked out again when next asked
            if isinstance(at, int):
                state.last_t = at
            state.version += 1
            return state
        if kind in _MATCH_KINDS:
            self._match_event(state, event)
        else:
            history = state.history
            before = 0 if history is None else turns if watch else rules.turns(engine)
            rules.evolve(engine, event)
            if history is not None:  # a casual game: kept for its takebacks
                history.append((state.version + 1, True, event, before))
            if state.sessions.offer is not None:
                self._lapse_offer(state, event, turns)
        state._result = UNKNOWN  # the result is worked out again when next asked
        if isinstance(at, int):
            state.last_t = at
        if kind == ADDTIME and clock is not None:
            clock.add(data["side"], int(data["seconds"]) * SECOND)
        if clock is not None and isinstance(at, int):
            if state.result is not None:
                # the seat out of time keeps 0: by the flag, or in its opening turn (an
                # abort, R36/R37: else a replayed game showed that turn's limit untouched)
                out = state.cause == "time" or kind == ABORT
                clock.stop(at, flagged=event.side if out else None)
            elif kind in (LEAVE, FORFEIT):  # a seat left a game of more than two
                clock.drop(data.get("seat") or data["side"], at)
            elif rules.turns(engine) != turns:
                to_act = rules.to_act(engine)
                clock.end_turn(at, data.get("lag") or 0, to_act[0] if to_act else None)
        state.version += 1
        return state

    def _match_event(self, state: MatchState, event: Event) -> None:
        """Fold one of the match's own events: the game is told first (``on_match``: talu
        records decisions in its notation, and refuses an event its state cannot take, with
        nothing changed), then the match's part."""
        kind, data = event.kind, event.data
        played = state.variant.played
        result: Result | None = None
        cause = state.cause
        leaving = ""
        if kind == DECIDE:
            cause = data.get("cause") or ""
            if isinstance(data.get("ranks"), dict):
                result = Result(data["ranks"], "decision", data.get("detail") or "", cause)
            else:
                result = Result.won(data.get("winner"), state.seats, "decision",
                                    data.get("detail") or "decision", cause)
        elif kind == ABORT:
            result = Result({}, "aborted", data.get("detail") or "aborted", "aborted")
        elif kind == FORFEIT and len(played) == 2:
            result = Result.won(decisions.other(state, data["side"]), played, "forfeit",
                                "arbiter")
        elif kind == NULL:
            result = Result({}, "null", "arbiter")
        elif kind in (LEAVE, FORFEIT):
            leaving = data["seat"] if kind == LEAVE else data["side"]
            staying = tuple(s for s in state.seats if s != leaving)
            if len(staying) == 1:
                cause = data.get("cause") or ("forfeit" if kind == FORFEIT else "")
                result = Result.by_order(
                    [staying, [leaving], *([s] for s in reversed(state.left))], "decision",
                    data.get("detail") or "", cause)
        self._tell(state, event, result)
        if leaving and kind != LEAVE:  # a game learns of every seat that leaves as a leave
            self._tell(state, Event(
                LEAVE, leaving, {"seat": leaving, "cause": kind, "detail": data.get("reason")},
                f"{leaving} leaves", event.actor), None)
        state.cause = cause
        if kind == ABORT:
            state.aborted = True
        if leaving:
            state.left.append(leaving)
        if kind in (DECIDE, LEAVE, FORFEIT, DECLINE, NULL, ABORT):
            state.sessions.clear_offer()
        if result is not None and state.decided is None:
            state.decided = result

    def _tell(self, state: MatchState, event: Event, result: Result | None) -> None:
        """Tell the game of a match event (``GameRules.on_match``), kept in a casual game's
        history: a takeback's rebuild tells it again."""
        self.rules.on_match(state.engine, event, result)
        if state.history is not None:
            state.history.append((state.version + 1, False, event, result))

    def _lapse_offer(self, state: MatchState, event: Event, turns: int) -> None:
        """A null, draw or takeback offer lapses when a seat that did not make it ends a turn."""
        s = state.sessions
        if s.offer is not None and s.offer[0] in _LAPSING and event.side and \
                event.side not in s.agreed and self.rules.turns(state.engine) != turns:
            s.clear_offer()

    def _session_event(self, state: MatchState, event: Event) -> None:
        """Fold an adjournment or offer event (R38) into the sessions and the clock, and tell
        the game of an adjournment and a resumption (talu records them, R34)."""
        s, rules, engine, clock = state.sessions, self.rules, state.engine, state.clock
        kind, data = event.kind, event.data
        at = data.get("t")
        if kind == OFFER:
            what = data.get("what") or ADJOURN
            if s.offer is None or s.offer[0] != what:
                s.offer, s.agreed = (what, event.side), set()
            s.agreed.add(event.side)
        elif kind == ADJOURN:
            s.clear_offer()
            to_act = rules.to_act(engine)
            s.sealing = to_act[0] if to_act else None
            self._tell(state, event, None)
            s.public = rules.view(engine, None)
            s.public_notation = rules.notation(engine)
            s.ended.append(SessionEnd(rules.turns(engine), rules.mark(engine), None,
                                      s.started, at))
        elif kind == SEAL:
            s.adjourned = True
            if clock is not None and isinstance(at, int):
                clock.stop(at)
            if s.ended:
                s.ended[-1].end = at
                if clock is not None:
                    s.ended[-1].clocks = {seat: clock.budget(seat)
                                          for seat in state.variant.played}
        elif kind == SCHEDULE:
            s.resume_at = data.get("resume_at")
            s.schedule_reason = data.get("reason") or ""
        elif kind == RESUME:
            s.clear_offer()
            s.resume_at, s.schedule_reason = None, ""
            s.sealing, s.adjourned, s.public, s.public_notation = None, False, None, None
            s.started = at
            self._tell(state, event, None)
            to_act = rules.to_act(engine)
            if clock is not None and isinstance(at, int) and to_act:
                clock.resume(to_act[0], at)

    def follow_up(self, state: MatchState) -> list[Event]:
        """What the standing policies do now: the ``seal`` that ends a session once the
        sealed turn is played (R38), else the game's own (talu: the automatic arbiter)."""
        s = state.sessions
        live = state.result is None
        if s.paused:  # a game's follow-up now would tell of the sealed turn
            return sessions.seal_due(s, live, self.rules.to_act(state.engine), state.last_t)
        if not live:
            return []
        return self.rules.follow_up(state.engine, state.options)

    # --- reading ------------------------------------------------------------------------------
    def snapshot(self, state: MatchState) -> dict[str, Any]:
        """What every viewer is shown: the game's view (which says whose turn it is, in the
        game's words), with the offer standing, the clocks (timed games), the adjournment
        (R38: while a turn is sealed, the position before it, the sealing seat's own beside
        it for ``viewer_state``) and the outcome with its cause (R37)."""
        s, rules = state.sessions, self.rules
        result = state.result
        snap = rules.view(state.engine, None)
        if s.paused and s.public is not None and result is None:
            own = snap
            snap = dict(s.public)
            snap["sealed"] = {"side": s.sealing, "state": own}
            snap["adjournment"] = {"sealing": s.sealing, "adjourned": s.adjourned,
                                   "session": len(s.ended) + 1, "resume_at": s.resume_at}
        if s.offer is not None:
            snap["offer"] = {"what": s.offer[0], "side": s.offer[1], "seats": sorted(s.agreed)}
        if state.clock is not None:
            snap["clock"] = state.clock.snapshot()
        if result is not None:
            outcome = snap.get("outcome")
            if not isinstance(outcome, dict):
                outcome = snap["outcome"] = {"finished": True, **result.to_json(),
                                             "text": rules.describe(result)}
            if state.cause or state.aborted:
                outcome["cause"] = result.cause
            if state.aborted:
                outcome["reason"], outcome["winner"] = result.reason, None
                outcome["text"] = rules.describe(result)
        return snap

    def to_act(self, state: MatchState) -> tuple[str, ...]:
        """The seats that may act now; none when over, and while adjourned (R38)."""
        if state.result is not None or state.sessions.adjourned:
            return ()
        return self.rules.to_act(state.engine)

    def side_to_move(self, state: MatchState) -> str:
        """The (first) seat to act; "" when over, and while adjourned (nobody is: R38)."""
        to_act = self.to_act(state)
        return to_act[0] if to_act else ""

    def deadline(self, state: MatchState) -> int | None:
        """When the running clock runs out (ms since the epoch), or None: untimed, stopped,
        or the game is over. The server keeps it on the game's row for the worker."""
        if state.clock is None or state.result is not None:
            return None
        return state.clock.deadline()

    def resume_at(self, state: MatchState) -> int | None:
        """R38: when an adjourned game resumes at the time its arbiter set (ms since the
        epoch), or None. The server keeps it on the game's row for the worker."""
        if state.result is not None:
            return None
        return state.sessions.resume_at

    def turns(self, state: MatchState) -> int:
        return self.rules.turns(state.engine)

    def notation(self, state: MatchState) -> str:
        """The game's notation; while a turn is sealed, without it (R38: shown to nobody)."""
        s = state.sessions
        if s.paused and s.public_notation is not None:
            return s.public_notation
        return self.rules.notation(state.engine)
