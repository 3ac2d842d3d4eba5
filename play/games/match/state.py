"""A game as the server holds it (``play.games.match``): the game's own state beside what the
match keeps of it (the clocks, the sessions, who left, how it was decided off the board)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from play.games.clock import Clock, TimeControlError, parse
from play.games.protocol import ABORTED, Event, GameOptions, GameRules, Result, Variant

from .sessions import Sessions

#: A result not yet worked out since the state last changed (``Match.evolve`` sets it as it
#: folds an event).
UNKNOWN = object()

#: The match's event kinds, stored forever like a game's own (a game's kinds must differ):
#: ``decide`` a decision off the board (R15, R37: resignation, time, abandonment, agreement),
#: ``abort`` (R37), ``note`` (an announcement), ``leave`` (a seat of a game of more than two
#: left it: resigned, flagged, claimed, forfeited), the arbiter's ``forfeit``, ``null`` and
#: ``addtime`` (R39), ``decline`` (an offer declined or withdrawn), and the sessions'
#: (``sessions.KINDS``: offer, adjourn, seal, resume, schedule; R38).
DECIDE, ABORT, NOTE, LEAVE = "decide", "abort", "note", "leave"
FORFEIT, NULL, ADDTIME, DECLINE = "forfeit", "null", "addtime", "decline"
#: ``takeback``: turns taken back by agreement in a casual game (``takebacks``, issue 39).
TAKEBACK = "takeback"


class MatchState:
    """One game in play: ``engine`` is the game's own state (talu: its ``TaluGame``), with
    the log's ``version``, the ``options``, the ``variant`` and its seats, the ``clock``
    (None: untimed), the ``sessions`` (R38), the seats that left (a game of more than two),
    and how the match decided it (``decided``, for games that do not record decisions
    themselves; ``cause``, R37; ``aborted``)."""

    __slots__ = ("_result", "aborted", "cause", "clock", "decided", "engine", "game", "history",
                 "last_t", "left", "options", "rules", "sessions", "variant", "version")

    def __init__(self, rules: GameRules[Any], variant: Variant, options: GameOptions,
                 version: int = 0) -> None:
        self.rules = rules
        self.game = rules.key
        self.variant = variant
        self.engine = rules.new_engine(variant, options)
        self.options = options
        self.version = version
        self.cause = ""
        self.aborted = False
        self.decided: Result | None = None
        self.left: list[str] = []  # seats that left, in order (games of more than two)
        self.sessions = Sessions(started=options.started)
        self.last_t: int | None = None  # the time of the last event that had one
        self._result: Result | object | None = UNKNOWN
        #: A casual game's events as the game folded them, for takebacks (``takebacks``):
        #: (log version, the game's own?, the event, the turns before it or the result the
        #: game was told with); None in other games, which keep nothing.
        self.history: list[tuple[int, bool, Event, Any]] | None = \
            [] if options.takebacks else None
        try:
            tc = parse(options.time_control)
        except TimeControlError:  # pragma: no cover - stored controls were checked at start
            tc = parse("untimed")
        first = rules.to_act(self.engine)
        self.clock = Clock(tc, options.started, variant.played,
                           first[0] if first else None) if tc.timed else None

    @property
    def seats(self) -> tuple[str, ...]:
        """The played seats still in the game, in order."""
        return tuple(s for s in self.variant.played if s not in self.left)

    @property
    def result(self) -> Result | None:
        """How the game ended, None while it goes on: the game's own result (which records
        the match's decisions where the game keeps them, like talu's R15), else the match's;
        with the cause of a decision (R37), seats that left ranked below the rest. Kept until
        the state changes: a command reads it several times (the server's decide path, about
        nine)."""
        if self._result is UNKNOWN:
            self._result = self._work_out()
        return self._result  # type: ignore[return-value]

    def _work_out(self) -> Result | None:
        r = self.rules.result(self.engine)
        if r is None:
            r = self.decided
            if r is None:
                return None
        if self.aborted:
            return Result({}, ABORTED, r.detail, ABORTED)
        if self.cause and not r.cause:
            r = replace(r, cause=self.cause)
        if self.left and r.ranks:
            r = rank_departed(r, self.seats, self.left)
        return r


def rank_departed(result: Result, staying: tuple[str, ...], left: list[str]) -> Result:
    """``result`` with the seats that left ranked below those that stayed, the last to leave
    highest (a seat that leaves is ranked last among those still in)."""
    inner = {s: r for s, r in result.ranks.items() if s in staying}
    order: list[list[str]] = []
    for rank in sorted(set(inner.values())):
        order.append([s for s, r in inner.items() if r == rank])
    order.extend([s] for s in reversed(left))
    return Result.by_order(order, result.reason, result.detail, result.cause, result.scores)
