"""The match rules, once for every game (pure: no Django).

``Match(rules)`` wraps a game's ``GameRules`` (``play.games.protocol.rules``) into what the
server runs: the game decides its seats' moves and its own commands; the match decides the
rest, per seat and for any number of seats (R36-R39): resignation, clocks and flags, absence
claims, abort, adjournment with a sealed turn and resumption, the arbiter's decisions, offers
between players, announcements. ``state`` (``MatchState``), ``sessions`` (R38) and
``decisions`` are its parts; ``match`` puts them together (import ``Match`` and ``KINDS``
from ``play.games.match.match``: this package imports its parts only).
"""

from __future__ import annotations

from play.games.match.decisions import MAX_MESSAGE, MAX_REASON, UNPLAYED
from play.games.match.sessions import SessionEnd, Sessions
from play.games.match.state import (
    ABORT,
    ADDTIME,
    DECIDE,
    DECLINE,
    FORFEIT,
    LEAVE,
    NOTE,
    NULL,
    MatchState,
)

__all__ = ["ABORT", "ADDTIME", "DECIDE", "DECLINE", "FORFEIT", "LEAVE", "MAX_MESSAGE",
           "MAX_REASON", "NOTE", "NULL", "UNPLAYED", "MatchState", "SessionEnd", "Sessions"]
