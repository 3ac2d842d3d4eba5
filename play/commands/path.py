"""The one command path (R40): any actor's command to a game, decided, stored, announced.

Whatever the source (a player's socket, an arbiter, the clock, the computer, the system, a
test), a command reaches a game through here, as a ``Submission``:

1. **decide**: the game's state at its current version (``play.store.engines``) and the pure
   core (``play.games.run``: decide, then fold the events and the follow-ups of the game's
   standing policies) give the command's events, or refuse it (``CommandError``: nothing
   changes);
2. **store**: the events go into the log by the one append (``play.store.log``), at the version
   they were decided on; if another writer moved the game meanwhile nothing is written, and the
   command is answered ``stale`` (a sender who named a version) or decided again on the new
   state (an arbiter, the clock, the system, a resignation: they act on the game as it is);
3. **announce**: only then, the ``update`` goes to everyone on the game, on every server
   process (``play.live.delivery.publish``), and, if the game ended, the worker is woken to
   archive it (``play.worker``).

Two roads share every step: the *fast road* (``execute_async``) decides on the event loop with
a state this process holds at exactly the version the sender named and touches no database but
the append; anything else (no such state, a refusal to word, a resend, a conflict) takes the
*slow road* (``store``), on a thread, which reads the game row and answers from it. Both give
the same answers; the fast one only ever stores what the slow one would.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from django.db import DatabaseError, IntegrityError
from django.db.models import Max, Q
from django.utils import timezone

from play import games, gameview
from play.games.protocol import Actor, Command, CommandError, PlayStep, Result
from play.live import delivery
from play.models import Game, GameEvent
from play.store import engines, group_commit
from play.store import log as event_log
from play.store.log import Batch, number
from talu_site import text

log = logging.getLogger(__name__)

MAX_SEQ_LENGTH = 64
ATTEMPTS = 5  # decisions of a command that names no version, when other writers keep winning


@dataclass(frozen=True, slots=True)
class Submission:
    """One command for game ``game`` (its uuid) from ``actor``. ``version``: the version the
    sender decided on (required for a player's steps: R40's check that a step meant for an
    older position is not applied); ``seq``: the sender's id of the message (a resend with the
    same ``seq`` is answered again, never applied twice)."""

    game: Any
    actor: Actor
    command: Command
    version: Any = None
    seq: Any = None

    @property
    def names_version(self) -> bool:
        """Whether the command only makes sense at the version it names: a step of a side at
        the board. A resignation, an arbiter's or the clock's action act on the game as it is."""
        return self.actor.plays and isinstance(self.command, PlayStep)


@dataclass
class Outcome:
    """What became of one command (the protocol's ``ack`` / ``rejected`` and ``update``)."""

    ok: bool
    code: str  # applied | duplicate | stale | illegal | not_your_turn | finished | bad_step |
    #            forbidden | not_found | busy
    reason: str = ""
    version: int = 0
    seq: str | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    from_version: int = 0
    state: dict[str, Any] | None = None
    game: dict[str, Any] | None = None
    finished: bool = False  # this command ended the game
    deadline: int | None = None  # when the running clock runs out now (ms since the epoch)

    def reply(self) -> dict[str, Any]:
        """The message for the sender: an ack or a rejection."""
        if self.ok:
            msg = {"type": "ack", "seq": self.seq, "version": self.version}
            if self.code == "duplicate":
                msg["duplicate"] = True
            return msg
        return {"type": "rejected", "seq": self.seq, "code": self.code, "reason": self.reason,
                "version": self.version}

    def update(self) -> dict[str, Any] | None:
        """The broadcast for everyone on the game, when something was applied."""
        if not self.events:
            return None
        return {"type": "update", "from_version": self.from_version, "version": self.version,
                "events": self.events, "state": self.state, "game": self.game,
                "server_time": gameview.server_time()}


def _reject(code: str, reason: str, version: int, seq: str | None) -> Outcome:
    return Outcome(ok=False, code=code, reason=reason, version=version, seq=seq)


def plain_seq(seq: Any) -> bool:
    """A ``seq`` the log can keep: a string or number of at most 64 characters, one printable
    line (``talu_site.text``, the one check of external strings: no NUL, which PostgreSQL's
    text refuses, no lone surrogate, which UTF-8 cannot hold, no bidi control)."""
    if seq is None:
        return True
    if isinstance(seq, bool) or not isinstance(seq, (str, int)):
        return False
    return text.problem(str(seq), max_length=MAX_SEQ_LENGTH) is None


def _seq_error(seq: Any) -> Outcome:
    return _reject("bad_step", f"seq must be a string or number of at most {MAX_SEQ_LENGTH} "
                   "printable characters", 0, None)


# --- deciding (shared by both roads) ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Decided:
    batch: Batch
    result: Result | None


def _decide(game_pk: int, state: Any, sub: Submission, seq: str | None,
            now: datetime | None) -> _Decided:
    """Run the command on ``state`` (raises ``CommandError``, state unchanged) and make the
    batch the log stores: the events numbered from the state's version, the notation when a
    turn ended, the result when the game ended."""
    rules = games.rules_of(state)
    from_version, turns = state.version, rules.turns(state)
    events = games.run(state, sub.actor, sub.command, now)
    result = state.result
    stgn = rules.notation(state) if result is not None or rules.turns(state) != turns else None
    to_move = "" if result is not None else games.side_to_move(state)
    return _Decided(Batch(game_pk, from_version, number(events, from_version, seq), stgn,
                          result, games.deadline(state), to_move, games.resume_at(state)),
                    result)


def _applied(game: Game, state: Any, decided: _Decided, seq: str | None,
             players: dict[str, Any] | None = None) -> Outcome:
    """The answer once ``decided`` is stored; the state goes back to the cache."""
    batch, result = decided.batch, decided.result
    snapshot = games.snapshot(state)  # before the state is shared again
    engines.put(game, state)
    meta_game = game
    if result is not None:  # the row as the append left it (not read again)
        meta_game = Game(pk=game.pk, uuid=game.uuid, variant=game.variant, rated=game.rated,
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


def _duplicate(game: Game, side: str, seq: str | None) -> Outcome | None:
    """The answer to a resent message already stored: the version of its command's last event
    (its own, or the last that followed from it), as the first answer said."""
    if seq is None or not side:
        return None
    own = GameEvent.objects.filter(game=game, side=side, seq=seq).values_list(
        "version", flat=True).first()
    if own is None:
        return None
    last = GameEvent.objects.filter(Q(version=own) | Q(caused_by=own), game=game).aggregate(
        Max("version"))["version__max"]
    return Outcome(ok=True, code="duplicate", version=last or own, seq=seq)


# --- the slow road ----------------------------------------------------------------------------


def store(sub: Submission, now: datetime | None = None) -> Outcome:
    """Decide ``sub`` and append its events (sync): the fast road's decision when this process
    holds the game at the sender's version, else on the game as stored. Never raises for
    anything a sender can send: every refusal is an ``Outcome`` with a code and a reason,
    database contention is ``busy`` (send the same message again)."""
    if not plain_seq(sub.seq):
        return _seq_error(sub.seq)
    seq = None if sub.seq is None else str(sub.seq)
    now = now or timezone.now()
    game = None
    try:
        held = hold(sub, now)
        if held is not None:
            if event_log.append(held.decided.batch):
                return _applied(held.game, held.state, held.decided, held.seq, held.players)
            engines.drop(held.game.pk)  # moved on elsewhere: the slow road catches up
        for _ in range(ATTEMPTS):
            game = Game.objects.filter(uuid=sub.game).first()
            if game is None:
                return _reject("not_found", "there is no such game", 0, seq)
            found = _decide_row(game, sub, seq, now)
            if isinstance(found, Outcome):
                return found
            state, decided = found
            try:
                stored = event_log.append(decided.batch)
            except BaseException:
                engines.drop(game.pk)  # the state holds events the log may not
                raise
            if stored:
                return _applied(game, state, decided, seq)
            engines.drop(game.pk)
            # Another writer moved the game: a command naming a version is answered from the
            # new row (stale, or a duplicate); any other is decided again on the new state.
        return _reject("busy", "the game is busy; send the same message again",
                       game.version if game else 0, seq)
    except IntegrityError:
        # Another writer took this version, or this seq, first (a resend racing itself).
        game = Game.objects.filter(uuid=sub.game).first()
        dup = _duplicate(game, sub.actor.side, seq) if game else None
        return dup or _reject("stale", "another command was applied first; resync and try "
                              "again", game.version if game else 0, seq)
    except DatabaseError:
        log.exception("database error while storing a command")
        game = Game.objects.filter(uuid=sub.game).first()
        return _reject("busy", "the server is busy; send the same message again",
                       game.version if game else 0, seq)


def _decide_row(game: Game, sub: Submission, seq: str | None, now: datetime
                ) -> Outcome | tuple[Any, _Decided]:
    """``sub`` decided on ``game`` as read: the answer the row gives or the refusal (an
    ``Outcome``; the state, unchanged, back in the cache), or the state taken out of the cache
    and the batch to append."""
    answer = _check_row(game, sub, seq)
    if answer is not None:
        return answer
    state = engines.take(game)
    try:
        return state, _decide(game.pk, state, sub, seq, now)
    except CommandError as err:
        engines.put(game, state)  # a refused command changes nothing
        return _reject(err.code, str(err), game.version, seq)


def store_many(subs: list[Submission], now: datetime | None = None,
               games: Mapping[str, Game] | None = None) -> list[Outcome]:
    """``store`` for several games' commands that name no version and carry no ``seq`` (the
    clock's flags of one worker round, R37), at one ``now``: their rows read in one query,
    each decided exactly as ``store`` decides it, and the batches appended in ONE statement
    (``log.append_many``) instead of one round trip and commit per game. A command this
    cannot take (a version or seq named, its game moved meanwhile, a database error) is
    stored alone by ``store`` (at ``now`` when given, else when it runs). The outcomes come
    in the order of ``subs``. ``games``: their rows as the caller has just read them, by
    uuid (the clock's round reads them whole to find them), not read again."""
    given, now = now, now or timezone.now()
    answers: dict[int, Outcome] = {}
    pending: list[tuple[int, Game, Any, _Decided]] = []
    simple = [(i, sub) for i, sub in enumerate(subs) if not sub.names_version and sub.seq is None]
    rows = dict(games or {})
    unread = [sub.game for _, sub in simple if str(sub.game) not in rows]
    if unread:
        rows.update((str(g.uuid), g) for g in Game.objects.filter(uuid__in=unread))
    for i, sub in simple:
        game = rows.get(str(sub.game))
        if game is None:
            continue  # ``store`` words it
        found = _decide_row(game, sub, None, now)
        if isinstance(found, Outcome):
            answers[i] = found
        else:
            pending.append((i, game, *found))
    if pending:
        try:
            stored = event_log.append_many([d.batch for _, _, _, d in pending])
        except DatabaseError as err:  # nothing was written: each alone below
            log.info("%d commands not stored together (%s); storing each alone", len(pending),
                     err)
            stored = {}
        for i, game, state, decided in pending:
            if stored.get(game.pk) == len(decided.batch.events):
                answers[i] = _applied(game, state, decided, None)
            else:
                engines.drop(game.pk)  # the state holds events the log does not
    return [answers[i] if i in answers else store(sub, given) for i, sub in enumerate(subs)]


def _check_row(game: Game, sub: Submission, seq: str | None) -> Outcome | None:
    """The answers the game row gives without deciding anything: a finished game, a version
    that is not a number or not the game's (then: a resend already stored, or stale)."""
    if not game.is_live:
        return _duplicate(game, sub.actor.side, seq) or _reject(
            "finished", "the game is over", game.version, seq)
    if not sub.names_version:
        return None
    version = sub.version
    if isinstance(version, bool) or not isinstance(version, int):
        return _reject("bad_step", "a step must name the game version it was made against "
                       "('version')", game.version, seq)
    if version != game.version:
        return _duplicate(game, sub.actor.side, seq) or _reject(
            "stale", f"this step was made against version {version}; the game is at version "
                     f"{game.version}", game.version, seq)
    return None


# --- the fast road ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Held:
    """A command decided on a state this process holds, not yet stored (``hold``)."""

    game: Game
    state: Any
    decided: _Decided
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
        decided = _decide(game.pk, state, sub, seq, now or timezone.now())
    except CommandError:
        engines.put(game, state)  # unchanged by a refused command
        return None
    except Exception:  # not a refusal the core words: drop the state, replay on the slow road
        log.exception("deciding a command on a held state failed")
        return None
    return Held(game, state, decided, seq, players)


async def execute_async(sub: Submission, now: datetime | None = None, *, in_thread=None
                        ) -> Outcome:
    """``sub`` stored (not yet announced): the fast road when it can, else the slow road on a
    thread (``in_thread`` wraps a sync function for the caller's pool; by default asgiref's)."""
    held = hold(sub, now)
    if held is not None:
        try:
            stored = await group_commit.append_async(held.decided.batch)
        except Exception as err:  # a resent seq, a lost connection: the slow road answers
            log.info("command not stored on the fast road (%s); taking the slow road", err)
            stored = False
        if stored:
            return _applied(held.game, held.state, held.decided, held.seq, held.players)
        engines.drop(held.game.pk)
    if in_thread is None:
        in_thread = partial(sync_to_async, thread_sensitive=False)
    return await in_thread(store)(sub, now)


def execute(sub: Submission, now: datetime | None = None) -> Outcome:
    """``sub`` stored and announced to everyone on the game: for every source outside a
    socket (views, the REST API, the worker's threads, the demo data, tests). Sync; not on an
    event loop's own thread."""
    outcome = store(sub, now)
    if outcome.update() is not None:
        async_to_sync(delivery.announce)(sub.game, outcome)
    return outcome
