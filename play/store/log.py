"""THE append: the one way events reach a game's log, on SQLite and on PostgreSQL.

Whatever its source (a player's socket, an arbiter, the clock, the worker, a test), a command's
events are decided by the pure core (``play.games``), numbered, and stored here as one
``Batch``: the game's version moves from ``expected_version`` to the batch's last version, the
events are inserted, the game's notation is refreshed when a turn ended and, when the batch
ended the game, its result is written and a ``finished`` row goes into the outbox
(``play.models.outbox``), all in one transaction, *if the game is still live at
``expected_version``*. A game another writer moved meanwhile is not written at all (False):
nothing is ever half-applied, and no row lock is held while anything else happens. The unique
(game, version) and (game, side, seq) constraints stay as the last guard: a resent ``seq``
raises ``IntegrityError`` having written nothing. This module (and its group commit,
``play.store.group_commit``) is the only one that knows the two databases differ.

PostgreSQL: one data-modifying statement (``sql``) does all of it, for one batch or many.
Under load most of a step's cost had been the round trips and Django's query compiler
(BENCHMARKS.md, issue 7). The steps and their events come as two JSON documents unpacked by
``jsonb_to_recordset``: orjson writes them in microseconds, where psycopg's adaptation of many
arrays, element by element in Python, was about a twentieth of a loaded process's time.

The websocket consumer stores from its event loop through the group commit of
``play.store.group_commit`` (``append_async``), which runs the same statement.

SQLite (the newcomer's default): the conditional version bump, the inserts and the outbox row in
one ORM transaction.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any

import orjson
from django.db import connection, transaction
from django.utils import timezone

from play.games.protocol import EVERYONE, Event, Result
from play.models import Game, GameEvent, Outbox, Seat

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Numbered:
    """An event with its version in the game's log, the ``seq`` of the client message that
    caused it (a player's command's own event only) and, for an event that followed from
    another in the same batch, that event's version (``caused_by``)."""

    version: int
    event: Event
    seq: str | None = None
    caused_by: int | None = None

    def message(self) -> dict[str, Any]:
        """The event as clients get it (docs/protocol.md; the ``seq`` stays on the server)."""
        e = self.event
        msg = {"version": self.version, "kind": e.kind, "side": e.side or None,
               "data": e.data, "text": e.text, "actor": e.actor}
        if e.visibility != EVERYONE:
            msg["visibility"] = e.visibility
        return msg

    def row(self, game_pk: int) -> dict[str, Any]:
        e = self.event
        return {"game_id": game_pk, "version": self.version, "kind": e.kind, "side": e.side,
                "data": e.data, "text": e.text, "actor": e.actor, "visibility": e.visibility,
                "caused_by": self.caused_by, "seq": self.seq}


def number(events: Sequence[Event], from_version: int, seq: str | None) -> list[Numbered]:
    """Number one command's events after ``from_version``: the first is the command's own
    (it carries ``seq``), the rest followed from it."""
    first = from_version + 1
    return [Numbered(first + i, e, seq if i == 0 else None, None if i == 0 else first)
            for i, e in enumerate(events)]


@dataclass(frozen=True, slots=True)
class Batch:
    """One command's events for game ``game_pk``, to be stored at ``expected_version``;
    ``stgn`` the game's new notation when a turn ended (None: unchanged); ``result`` how the
    game ended when these events ended it."""

    game_pk: int
    expected_version: int
    events: Sequence[Numbered]
    stgn: str | None = None
    result: Result | None = None
    #: When the running clock runs out after these events (ms since the epoch; None: no
    #: clock runs), written on the game's row for the worker (R36, R37).
    deadline: int | None = None
    #: The side to move after these events ("" when over), for players' lists of games.
    to_move: str = ""
    #: When an adjourned game resumes at the time its arbiter set (ms; None: no such time),
    #: written on the game's row for the worker (R38).
    resume_at: int | None = None

    @property
    def version(self) -> int:
        return self.events[-1].version


def _status_row(batch: Batch) -> dict[str, Any]:
    r = batch.result
    row: dict[str, Any] = {"id": batch.game_pk, "old": batch.expected_version,
                           "new": batch.version, "stgn": batch.stgn,
                           "deadline": batch.deadline, "to_move": batch.to_move,
                           "resume_at": batch.resume_at}
    if r is not None:
        # An aborted game has no result at all (R37), not a null game ("-").
        row.update(status=Game.FINISHED, winner="" if r.reason == "aborted" else r.winner or "-",
                   reason=r.reason, detail=r.detail[:200], cause=r.cause,
                   ranks=dict(r.ranks) if r.ranks else None,
                   scores=dict(r.scores) if r.scores and r.ranks else None)
    return row


@cache
def on_postgresql() -> bool:
    """Whether the database runs data-modifying ``WITH`` (asked once: on every step it was a
    lookup through Django's per-thread connections)."""
    return connection.vendor == "postgresql"


@cache
def sql(ending: bool = True) -> str:
    """The one statement, for one batch or many. ``moved`` bumps each game still live at its
    batch's expected version (``stgn`` null: no turn ended, the notation stays; ``status``
    null: the game goes on); ``stored`` inserts the events of the games it bumped and no other;
    ``ended`` puts a ``finished`` row in the outbox for each game it finished; ``ranked``
    writes each finished game's seats' ranks and scores; the result counts the events stored
    per game.

    ``ending`` false leaves ``ranked`` out: PostgreSQL runs every data-modifying ``WITH``
    whether its rows are read or not, and nearly every batch is a step that ends nothing (the
    seam's load benchmark, issue 36, counts each statement's cost per step)."""
    game, event, outbox = Game._meta.db_table, GameEvent._meta.db_table, Outbox._meta.db_table
    seat = Seat._meta.db_table
    return (
        f"WITH moved AS ("
        f"UPDATE {game} AS g SET version = s.new, stgn = COALESCE(s.stgn, g.stgn), "
        f"status = COALESCE(s.status, g.status), winner = COALESCE(s.winner, g.winner), "
        f"reason = COALESCE(s.reason, g.reason), detail = COALESCE(s.detail, g.detail), "
        f"cause = COALESCE(s.cause, g.cause), ranks = COALESCE(s.ranks, g.ranks), "
        f"deadline = to_timestamp(s.deadline / 1000.0), to_move = s.to_move, "
        f"resume_at = to_timestamp(s.resume_at / 1000.0), "
        f"finished = CASE WHEN s.status IS NULL THEN g.finished ELSE now() END "
        f"FROM jsonb_to_recordset(%(steps)s::jsonb) AS s(id bigint, old integer, new integer, "
        f"stgn text, status text, winner text, reason text, detail text, cause text, "
        f"ranks jsonb, deadline bigint, to_move text, resume_at bigint) "
        f"WHERE g.id = s.id AND g.version = s.old AND g.status = %(live)s "
        f"RETURNING g.id, g.status), "
        f"stored AS ("
        f"INSERT INTO {event} (game_id, version, kind, side, data, text, actor, visibility, "
        f"caused_by, seq, created) "
        f"SELECT e.game_id, e.version, e.kind, e.side, e.data, e.text, e.actor, e.visibility, "
        f"e.caused_by, e.seq, now() "
        f"FROM jsonb_to_recordset(%(events)s::jsonb) AS e(game_id bigint, version integer, "
        f"kind text, side text, data jsonb, text text, actor text, visibility text, "
        f"caused_by integer, seq text) "
        f"JOIN moved ON moved.id = e.game_id RETURNING game_id), "
        f"ended AS ("
        f"INSERT INTO {outbox} (game_id, topic, created, due, claimed_by, attempts, last_error) "
        f"SELECT id, %(topic)s, now(), now(), '', 0, '' FROM moved WHERE status = %(finished)s "
        f"RETURNING 1"
        + (f"), ranked AS ("
        f"UPDATE {seat} AS t SET rank = (r.ranks ->> t.seat)::smallint, "
        f"score = (r.scores ->> t.seat)::double precision "
        f"FROM jsonb_to_recordset(%(steps)s::jsonb) AS r(id bigint, ranks jsonb, scores jsonb) "
        f"JOIN moved ON moved.id = r.id "
        f"WHERE t.game_id = r.id AND r.ranks IS NOT NULL AND r.ranks ? t.seat RETURNING 1"
           if ending else "")
        + ") SELECT game_id, count(*) FROM stored GROUP BY game_id"
    )


def statement(batches: Iterable[Batch]) -> tuple[str, dict[str, Any]]:
    """``sql`` for ``batches`` (at most one per game, sorted by the caller) and its
    parameters: with ``ranked`` only when one of them ends its game."""
    batches = list(batches)
    ending = False
    for b in batches:  # a loop, not any() of a generator: two calls less at every step
        ending = ending or b.result is not None
    return sql(ending), params_of(batches)


def params_of(batches: Iterable[Batch]) -> dict[str, Any]:
    """The parameters of ``sql`` for ``batches`` (at most one per game)."""
    moves: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    for b in batches:
        moves.append(_status_row(b))
        events.extend(n.row(b.game_pk) for n in b.events)
    return {"steps": orjson.dumps(moves).decode(), "events": orjson.dumps(events).decode(),
            "live": Game.LIVE, "finished": Game.FINISHED, "topic": Outbox.FINISHED}


def deadline_at(deadline: int | None) -> datetime | None:
    """A clock's deadline (ms since the epoch) as the row keeps it."""
    return None if deadline is None else datetime.fromtimestamp(deadline / 1000, tz=UTC)


def _append_orm(batch: Batch) -> bool:
    """The batch through the ORM, in one transaction: the conditional bump first (on SQLite it
    takes the database's write lock at once), then the rows."""
    row = _status_row(batch)
    changes: dict[str, Any] = {"version": batch.version, "deadline": deadline_at(batch.deadline),
                               "to_move": batch.to_move,
                               "resume_at": deadline_at(batch.resume_at)}
    if batch.stgn is not None:
        changes["stgn"] = batch.stgn
    if batch.result is not None:
        now = timezone.now()
        changes.update(status=row["status"], winner=row["winner"], reason=row["reason"],
                       detail=row["detail"], cause=row["cause"], ranks=row["ranks"],
                       finished=now)
    with transaction.atomic():
        moved = Game.objects.filter(pk=batch.game_pk, version=batch.expected_version,
                                    status=Game.LIVE).update(**changes)
        if moved != 1:
            return False
        GameEvent.objects.bulk_create([GameEvent(**n.row(batch.game_pk))
                                       for n in batch.events])
        if batch.result is not None:
            scores = row.get("scores") or {}
            for seat, rank in (row["ranks"] or {}).items():
                Seat.objects.filter(game_id=batch.game_pk, seat=seat).update(
                    rank=rank, score=scores.get(seat))
            Outbox.objects.create(game_id=batch.game_pk, topic=Outbox.FINISHED, due=now)
    return True


def append(batch: Batch) -> bool:
    """Store ``batch`` if its live game is still at ``batch.expected_version``; True when
    stored, False when the game had moved or ended (nothing written).

    Raises the database's errors unchanged (a resent ``seq`` is an ``IntegrityError``), having
    written nothing.
    """
    if not on_postgresql():
        return _append_orm(batch)
    return append_many([batch]).get(batch.game_pk) == len(batch.events)


def append_many(batches: Sequence[Batch]) -> dict[int, int]:
    """Store several games' batches (at most one per game), each only if its game is still
    live at its expected version: on PostgreSQL as ONE statement (the worker's flags of a
    round: one round trip and one commit, not one per game), on SQLite one transaction each.
    Returns the events stored per game pk (a game that had moved is missing).

    Raises the database's errors unchanged; on PostgreSQL nothing of any batch was written
    then (the caller may store each alone)."""
    if not on_postgresql():
        return {b.game_pk: len(b.events) for b in batches if _append_orm(b)}
    # sorted by game: the rows are locked in one order
    query, params = statement(sorted(batches, key=lambda b: b.game_pk))
    if connection.in_atomic_block:
        # Inside someone's transaction (tests, a caller's atomic block): a savepoint, so a
        # refused statement leaves that transaction usable.
        with transaction.atomic(), connection.cursor() as cur:
            cur.execute(query, params)
            return dict(cur.fetchall())
    with connection.cursor() as cur:  # autocommit: the statement is its own transaction
        cur.execute(query, params)
        return dict(cur.fetchall())
