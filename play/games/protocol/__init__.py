"""The game protocol: who may do what to a game, as typed values, and the events that follow.

Every input to a game, whatever its source, is a **command** from an **actor** (R40): a player
(a side), an arbiter, the clock, the computer opponent, or the system. A game's rules *decide*
a command against the current state: they refuse it with a ``CommandError`` (nothing changes)
or answer with the **events** it causes; the state is the fold of those events (*evolve*). The
server stores the events, numbered, before anyone hears of them (``play.store.log``) and a
replay of the stored events is the state again. lila's round (every input a typed message) and
event-sourcing's decide/evolve are the models.

Pure: no Django, no database, no clock but the ``now`` passed in, so the same decisions are
made by a test, a replay, the server on any process, the worker or the computer's search. The
game itself plugs in behind ``GameRules`` (``play.games.registry`` maps variant names to
games), so the server path never names talu.

Commands and events are JSON-serialisable (``to_json`` / ``from_json``), for the wire, the
log and the records.

One module per part, all of them named here (import them from ``play.games.protocol``):
``actors`` (who), ``commands`` (what they may send), ``events`` (what follows, and who may see
it), ``errors`` (the refusals) and ``rules`` (the interface a game implements).
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
    AddTime,
    Adjourn,
    Announce,
    ClaimAbsence,
    Command,
    CountAsPass,
    DeclareNull,
    Flag,
    Forfeit,
    PlayStep,
    Resign,
    Resume,
    Warn,
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
from play.games.protocol.rules import (
    GameOptions,
    GameRules,
    Result,
    State,
)

__all__ = [
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
    "CountAsPass",
    "DeclareNull",
    "Event",
    "Flag",
    "Forfeit",
    "GameOptions",
    "GameOver",
    "GameRules",
    "IllegalCommand",
    "NotAllowed",
    "NotYourTurn",
    "PlayStep",
    "Resign",
    "Result",
    "Resume",
    "State",
    "TooEarly",
    "Warn",
    "arbiter",
    "command_from_json",
    "computer",
    "player",
    "resume_time",
    "system",
    "viewer_state",
]
