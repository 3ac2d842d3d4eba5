"""Deciding a command, shared by both roads of the command path (``play.commands.path``): the
game's state and the pure core (``play.games.settle``: decide, then fold the events and the
follow-ups of the game's standing policies) give the batch the log stores (``decide``), or
refuse the command (``CommandError``: the state unchanged); ``applied`` is the answer once the
batch is stored. ``hold`` decides a side's step on the state this process holds at exactly the
version the sender named, touching no database: the fast road's decision, and the slow road's
first try.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone

from play import games, gameview
from play.commands.submission import Outcome, Submission, plain_seq
from play.games.protocol import CommandError, Result
from play.models import Game
from play.store import engines
from play.store.log import Batch, number

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Decided:
    batch: Batch
    result: Result | None


def decide(game_pk: int, state: Any, sub: Submission, seq: str | None,
            now: datetime | None) -> Decided:
    """Run the command on ``state`` (raises ``CommandError``, state unchanged) and make the
    batch the log stores: the events numbered from the state's version, the notation when a
    turn ended, the result when the game ended."""
    from_version = state.version
    done = games.settle(state, sub.actor, sub.command, now)
    result = done.result
    return Decided(Batch(game_pk, from_version, number(done.events, from_version, seq),
                         done.notation, result, done.deadline, done.to_move, done.resume_at),
                   result)


def applied(game: Game, state: Any, decided: Decided, seq: str | None,
             players: dict[str, Any] | None = None) -> Outcome:
    """The answer once ``decided`` is stored; the state goes back to the cache."""
    batch, result = decided.batch, decided.result
    snapshot = games.snapshot(state)  # before the state is shared again
    engines.put(game, state)
    meta_game = game
    if result is not None:  # the row as the append left it (not read again)
        meta_game = Game(pk=game.pk, uuid=game.uuid, game=game.game, variant=game.variant,
                         rated=game.rated, ranks=dict(result.ranks) or None,
                         player_i_id=game.player_i_id, player_o_id=game.player_o_id,
                         rating_i=game.rating_i, rating_o=game.rating_o,
                         status=Game.FINISHED, version=batch.version,
                         winner=result.winner or ("" if result.reason == "aborted" else "-"),
                         reason=result.reason, detail=result.detail, cause=result.cause,
                         time_control=game.time_control)
    meta = gameview.game_meta(meta_game, players, version=batch.version,
                              archive_pending=result is not None)
    return Outcome(ok=True, code="applied", version=batch.version, seq=seq,
                   events=[n.message() for n in batch.events],
                   from_version=batch.expected_version, state=snapshot, game=meta,
                   finished=result is not None, deadline=batch.deadline)


@dataclass(frozen=True, slots=True)
class Held:
    """A command decided on a state this process holds, not yet stored (``hold``)."""

    game: Game
    state: Any
    decided: Decided
    seq: str | None
    players: dict[str, Any]


def hold(sub: Submission, now: datetime | None = None) -> Held | None:
    """Decide a side's step on the state this process holds at exactly the version the sender
    names, touching no database; None: take the slow road. A refusal also takes the slow road,
    which words it from the row (the sender may be stale rather than wrong)."""
    if not sub.names_version or not plain_seq(sub.seq):
        return None
    version = sub.version
    if isinstance(version, bool) or not isinstance(version, int):
        return None
    taken = engines.take_at(sub.game, version)
    if taken is None:
        return None
    game, state = taken
    players = gameview.cached_players(game.pk)
    if players is None:
        engines.put(game, state)
        return None
    seq = None if sub.seq is None else str(sub.seq)
    try:
        decided = decide(game.pk, state, sub, seq, now or timezone.now())
    except CommandError:
        engines.put(game, state)  # unchanged by a refused command
        return None
    except Exception:  # not a refusal the core words: drop the state, replay on the slow road
        log.exception("deciding a command on a held state failed")
        return None
    return Held(game, state, decided, seq, players)
