"""The game protocol: who may do what to a game, as typed values, and the events that follow.

Every input to a game, whatever its source, is a **command** from an **actor** (R40): a player
(a seat), an arbiter, the clock, the computer opponent, or the system. The match
(``play.games.match``) and the game's rules behind it *decide* a command against the current
state: they refuse it with a ``CommandError`` (nothing changes) or answer with the **events**
it causes; the state is the fold of those events (*evolve*). The server stores the events,
numbered, before anyone hears of them (``play.store.log``) and a replay of the stored events
is the state again. lila's round (every input a typed message) and event-sourcing's
decide/evolve are the models.

Pure: no Django, no database, no clock but the ``now`` passed in, so the same decisions are
made by a test, a replay, the server on any process, the worker or the computer's search. A
game plugs in behind ``GameRules`` (``play.games.registry`` maps variant names to games), so
the server path never names one.

Commands and events are JSON-serialisable (``to_json`` / ``from_json``), for the wire, the
log and the records.

One module per part, all of them named here (import them from ``play.games.protocol``):
``actors`` (who), ``commands`` (what they may send), ``events`` (what follows, and who may see
it), ``errors`` (the refusals), ``seats`` (a variant and its seats), ``result`` (ranks of
seats) and ``rules`` (the contract a game implements).
"""

from __future__ import annotations

from play.games.protocol.actors import (
    ACTOR_KINDS,
    ARBITER,
    CLOCK,
    CLOCK_ACTOR,
    COMPUTER,
    PLAYER,
    SYSTEM,
    Actor,
    arbiter,
    computer,
    player,
    system,
)
from play.games.protocol.commands import (
    ARBITER_COMMANDS,
    ARBITER_ONLY,
    COMMANDS,
    OFFERS,
    AddTime,
    Adjourn,
    Announce,
    ClaimAbsence,
    Command,
    DeclareNull,
    Decline,
    Flag,
    Forfeit,
    Offer,
    Parsers,
    PlayStep,
    Resign,
    Resume,
    command_from_json,
    resume_time,
)
from play.games.protocol.errors import (
    BadCommand,
    CommandError,
    GameOver,
    IllegalCommand,
    NotAllowed,
    NotYourTurn,
    TooEarly,
)
from play.games.protocol.events import (
    ARBITERS,
    EVERYONE,
    VISIBILITIES,
    Event,
    viewer_state,
)
from play.games.protocol.result import ABORTED, Result
from play.games.protocol.rules import (
    GameOptions,
    GameRules,
    State,
)
from play.games.protocol.seats import NEUTRAL, PERSON, SeatSpec, Variant

__all__ = [
    "ABORTED",
    "ACTOR_KINDS",
    "ARBITER",
    "ARBITERS",
    "ARBITER_COMMANDS",
    "ARBITER_ONLY",
    "CLOCK",
    "CLOCK_ACTOR",
    "COMMANDS",
    "COMPUTER",
    "EVERYONE",
    "NEUTRAL",
    "OFFERS",
    "PERSON",
    "PLAYER",
    "SYSTEM",
    "VISIBILITIES",
    "Actor",
    "AddTime",
    "Adjourn",
    "Announce",
    "BadCommand",
    "ClaimAbsence",
    "Command",
    "CommandError",
    "DeclareNull",
    "Decline",
    "Event",
    "Flag",
    "Forfeit",
    "GameOptions",
    "GameOver",
    "GameRules",
    "IllegalCommand",
    "NotAllowed",
    "NotYourTurn",
    "Offer",
    "Parsers",
    "PlayStep",
    "Resign",
    "Result",
    "Resume",
    "SeatSpec",
    "State",
    "TooEarly",
    "Variant",
    "arbiter",
    "command_from_json",
    "computer",
    "player",
    "resume_time",
    "system",
    "viewer_state",
]
