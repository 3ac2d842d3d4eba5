"""The one command path (R40): any actor's command to a game, decided, stored, announced.

Whatever the source (a player's socket, an arbiter, the clock, the computer, the system, a
test), a command reaches a game through here, as a ``Submission`` answered by an ``Outcome``
(``play.commands.submission``):

1. **decide** (``play.commands.deciding``): the game's state at its current version
   (``play.store.engines``) and the pure core (``play.games.settle``: decide, then fold the events
   and the follow-ups of the game's standing policies) give the command's events, or refuse it
   (``CommandError``: nothing changes);
2. **store**: the events go into the log by the one append (``play.store.log``), at the version
   they were decided on; if another writer moved the game meanwhile nothing is written, and the
   command is answered ``stale`` (a sender who named a version) or decided again on the new
   state (an arbiter, the clock, the system, a resignation: they act on the game as it is);
3. **announce**: only then, the ``update`` goes to everyone on the game, on every server
   process (``play.live.delivery.publish``), and, if the game ended, the worker is woken to
   archive it (``play.worker``).

Two roads share every step: the *fast road* (``execute_async``) decides on the event loop with
a state this process holds at exactly the version the sender named (``play.commands.deciding``:
``hold``) and touches no database but the append; anything else (no such state, a refusal
to word, a resend, a conflict) takes the *slow road* (``store``), on a thread, which reads the
game row and answers from it. Both give the same answers; the fast one only ever stores what
the slow one would.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime
from functools import partial
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from django.db import DatabaseError, IntegrityError
from django.db.models import Max, Q
from django.utils import timezone

from play.commands.deciding import Decided, applied, decide, hold
from play.commands.submission import Outcome, Submission, plain_seq, reject, seq_error
from play.games.protocol import CommandError
from play.live import delivery
from play.models import Game, GameEvent
from play.store import engines, group_commit
from play.store import log as event_log

log = logging.getLogger(__name__)

ATTEMPTS = 5  # decisions of a command that names no version, when other writers keep winning


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
        return seq_error(sub.seq)
    seq = None if sub.seq is None else str(sub.seq)
    now = now or timezone.now()
    game = None
    try:
        held = hold(sub, now)
        if held is not None:
            if event_log.append(held.decided.batch):
                return applied(held.game, held.state, held.decided, held.seq, held.players)
            engines.drop(held.game.pk)  # moved on elsewhere: the slow road catches up
        for _ in range(ATTEMPTS):
            game = Game.objects.filter(uuid=sub.game).first()
            if game is None:
                return reject("not_found", "there is no such game", 0, seq)
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
                return applied(game, state, decided, seq)
            engines.drop(game.pk)
            # Another writer moved the game: a command naming a version is answered from the
            # new row (stale, or a duplicate); any other is decided again on the new state.
        return reject("busy", "the game is busy; send the same message again",
                       game.version if game else 0, seq)
    except IntegrityError:
        # Another writer took this version, or this seq, first (a resend racing itself).
        game = Game.objects.filter(uuid=sub.game).first()
        dup = _duplicate(game, sub.actor.side, seq) if game else None
        return dup or reject("stale", "another command was applied first; resync and try "
                              "again", game.version if game else 0, seq)
    except DatabaseError:
        log.exception("database error while storing a command")
        game = Game.objects.filter(uuid=sub.game).first()
        return reject("busy", "the server is busy; send the same message again",
                       game.version if game else 0, seq)


def _decide_row(game: Game, sub: Submission, seq: str | None, now: datetime
                ) -> Outcome | tuple[Any, Decided]:
    """``sub`` decided on ``game`` as read: the answer the row gives or the refusal (an
    ``Outcome``; the state, unchanged, back in the cache), or the state taken out of the cache
    and the batch to append."""
    answer = _check_row(game, sub, seq)
    if answer is not None:
        return answer
    state = engines.take(game)
    try:
        return state, decide(game.pk, state, sub, seq, now)
    except CommandError as err:
        engines.put(game, state)  # a refused command changes nothing
        return reject(err.code, str(err), game.version, seq)


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
    pending: list[tuple[int, Game, Any, Decided]] = []
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
                answers[i] = applied(game, state, decided, None)
            else:
                engines.drop(game.pk)  # the state holds events the log does not
    return [answers[i] if i in answers else store(sub, given) for i, sub in enumerate(subs)]


def _check_row(game: Game, sub: Submission, seq: str | None) -> Outcome | None:
    """The answers the game row gives without deciding anything: a finished game, a version
    that is not a number or not the game's (then: a resend already stored, or stale)."""
    if not game.is_live:
        return _duplicate(game, sub.actor.side, seq) or reject(
            "finished", "the game is over", game.version, seq)
    if not sub.names_version:
        return None
    version = sub.version
    if isinstance(version, bool) or not isinstance(version, int):
        return reject("bad_step", "a step must name the game version it was made against "
                       "('version')", game.version, seq)
    if version != game.version:
        return _duplicate(game, sub.actor.side, seq) or reject(
            "stale", f"this step was made against version {version}; the game is at version "
                     f"{game.version}", game.version, seq)
    return None


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
            return applied(held.game, held.state, held.decided, held.seq, held.players)
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
