"""The worker's job for the computer: play its turns through the one command path (R40).

Each worker round claims the live games where the computer is to move (``claim``: a
conditional update with a lease, as the outbox does, so of several workers exactly one plays a
turn, and a killed worker's claim runs out), then for each, as a task of its own on the
worker's loop (``play_turn``):

1. brings this process's state of the game up to date (on a thread: only the events it lacks,
   usually the person's turn) and thinks in the pool (``pool``) on a snapshot of its engine,
   never on the loop, so other games' steps and the worker's other jobs go on meanwhile;
2. sends the turn's steps one by one as an actor of kind ``computer``, each a ``Submission``
   naming the version it was decided on, through ``execute_async`` and ``delivery.announce``
   like a socket's steps, waiting ``conf.step_delay()`` between them so that the board animates
   the turn; a step refused (the person resigned meanwhile, the game ended) stops the turn;
3. or resigns, at the levels that resign a lost position (``Choice.resign``);
4. releases the claim.

A game may have several computer seats (a table of three, issue 37: one row per seat, each
claimed on its own): the row of the seat to move is claimed, and the computer acts as that
seat (``computer(side)``); when its turn passes to another computer seat, that row is claimed
next (woken by the announce, or at the next poll).

Whose turn it is comes from the game row's ``to_move``, kept by every append ("" once over or
adjourned, R38), so the claim is one query that reads no notation. A turn the computer left
half played (a worker killed mid-turn) is finished by the next claim: the search continues
from the turn in progress.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import timedelta
from typing import Any

from asgiref.sync import sync_to_async
from django.db import close_old_connections
from django.db.models import Case, F, IntegerField, OrderBy, OuterRef, Q, Subquery, When, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from play import gameview
from play.commands.path import execute_async
from play.commands.submission import Submission
from play.computer import conf, pool
from play.computer.account import computer_ids
from play.computer.think import player_for, snapshot, think
from play.games import clock
from play.games.protocol import PlayStep, Resign, computer
from play.games.protocol.parts import ComputerPlayer
from play.games.registry import variant_of
from play.live import delivery
from play.models import ComputerGame, Game, Seat
from play.store import engines

log = logging.getLogger(__name__)

LEASE_MARGIN = 30.0  # seconds of a claim beyond the level's thinking time and the animation


def _lease(player: ComputerPlayer, level: int) -> float:
    return player.wall_seconds(player.seconds(level)) + 12 * conf.step_delay() + LEASE_MARGIN


def _first_person() -> Subquery:
    """The person of the first seat a person holds in the row's game (a game of more seats:
    a table of three with computer seats, issue 37)."""
    return Subquery(Seat.objects.filter(game=OuterRef("game"), kind=Seat.PERSON)
                    .order_by("order").values("user_id")[:1])


def _person(computers: set[int]) -> Case:
    """The account a ``ComputerGame`` row's computer plays against: the game's other player
    (a game against the computer of two seats, one of them the computer's account), or in a
    game of more seats the first person seated (every computer seat of one person's table is
    that person's share, issue 41)."""
    return Case(When(game__player_i__isnull=True, then=_first_person()),
                When(game__player_i__in=computers, then=F("game__player_o")),
                default=F("game__player_i"), output_field=IntegerField())


def person_of(game: Game, computers: set[int]) -> int | None:
    """The account the computer plays against in ``game`` (as ``_person`` says it)."""
    if game.player_i_id is None:
        return (Seat.objects.filter(game_id=game.pk, kind=Seat.PERSON).order_by("order")
                .values_list("user_id", flat=True).first())
    return game.player_o_id if game.player_i_id in computers else game.player_i_id


def _urgency() -> list[OrderBy]:
    """The order of one account's waiting turns: the most urgent clock, the cheaper level."""
    return [F("game__deadline").asc(nulls_last=True), F("level").asc(), F("pk").asc()]


def claim(worker: str, limit: int) -> list[ComputerGame]:
    """Claim up to ``limit`` games where the computer is to move: their ``ComputerGame`` rows,
    each with its game as read by the claim (no notation: ``stgn`` deferred). The turn is
    thought on that read (``prepare``): reading it again for each turn was a sixth of the
    worker's CPU during a wave (issue 25).

    Each account's first waiting turn before any account's second (issue 41): the claim is
    bounded by ``conf.queue()``, and in the order of the rows a few accounts' many games filled
    it while another person's turn was left unclaimed. Then the most urgent clocks first (R36:
    a wave of computer games queues for the pool, and a turn's wait there is paid from the
    computer's clock), then the cheaper levels."""
    computers = computer_ids()
    if not computers:  # no computer account yet: no game against it either
        return []
    now = timezone.now()
    free = Q(claimed_until__isnull=True) | Q(claimed_until__lt=now)
    rows = (ComputerGame.objects.filter(free, game__status=Game.LIVE, game__to_move=F("side"))
            .annotate(place=Window(RowNumber(), partition_by=[_person(computers)],
                                   order_by=_urgency()))
            .select_related("game").defer("game__stgn")
            .order_by("place", *_urgency())[:limit])
    claimed: list[ComputerGame] = []
    for row in rows:
        until = now + timedelta(seconds=_lease(player_for(row.game.variant_key), row.level))
        got = ComputerGame.objects.filter(free, pk=row.pk).update(
            claimed_by=worker[:64], claimed_until=until)
        if got:  # another worker's claim since the read: skip it
            claimed.append(row)
    return claimed


def prepare(row: ComputerGame) -> dict[str, Any]:
    """What the thinking needs of a claimed game, as its claim read it."""
    game = row.game
    position = hold_state(game)
    computers = computer_ids()
    return {"uuid": game.uuid, "variant": game.variant_key, "version": game.version,
            "position": position, "level": row.level, "side": row.side,
            "account": person_of(game, computers),
            "clock": _clock(game)}


def hold_state(game: Game) -> bytes:
    """Bring this process's state of ``game`` to the version just read, and its players
    block into the cache, so that the turn's first step takes the command path's fast road
    like the others (``path.hold``: decided on the held state, appended on the loop's own
    connection, grouped with other games' steps) instead of the slow road on a thread (the
    game row read again, the events the person added read, a sync append of its own). The
    person's steps reached the other processes, not this one: the state lags by their turn,
    which ``engines.take`` reads (the first turn: the log replayed once). Returns a snapshot of
    the state's engine for the pool, taken while the state is out of the cache."""
    state = engines.take(game)
    try:
        position = snapshot(state.engine)
    finally:
        engines.put(game, state)
    gameview.players_block(game)
    return position


def _clock(game: Game) -> dict[str, Any]:
    """What the thinking needs of the computer's clock (R36), none in an untimed game: when
    its time runs out (the row's deadline, which the worker flags at), the increment it gets
    back, and the seconds to keep for sending its steps with the animation's pauses."""
    if game.deadline is None:
        return {}
    control = clock.parse(game.time_control)
    player = player_for(game.variant_key)
    steps = player.turn_moves(variant_of(game.variant_key).name)
    return {"deadline": clock.ms(game.deadline),
            "increment": float(control.increment) if control.kind == clock.FISCHER else 0.0,
            "reserve": player.reserve + steps * conf.step_delay()}


def step_pause(delay: float, steps: int, deadline: int | None, reserve: float) -> float:
    """The pause between two of the computer's ``steps``: ``delay``, shortened on a clock so
    that the animation never takes more than half of what is left beyond the ``reserve`` (the
    game's computer's, R36: the steps are on the clock until the turn's last one)."""
    if deadline is None or steps < 2 or not delay:
        return delay
    spare = deadline / 1000 - time.time() - reserve
    return max(0.0, min(delay, spare / (2 * (steps - 1))))


GUARD_MIN = 0.2  # seconds the pool gets at least before the guard's quick turn
QUICK_NODES = 1_500  # the guard's quick turn: a tiny search on a thread of the worker
QUICK_SECONDS = 0.2


def guard_seconds(deadline: int | None, reserve: float) -> float | None:
    """How long the worker waits for the pool on a clock (R36) before it plays a quick turn
    itself: half of what is left beyond the reserve. The pool's own search stops by a third
    of it (``wall_seconds``), so the guard fires only when the search could not run in time
    (queued behind a wave, or starved of CPU under ``SCHED_IDLE`` on a busy machine). None in
    an untimed game: there the person waits, nothing is lost."""
    if deadline is None:
        return None
    return max(GUARD_MIN, (deadline / 1000 - time.time() - reserve) / 2)


async def think_in_time(job: dict[str, Any], level: int, seconds: float) -> dict[str, Any]:
    """The computer's turn from the pool, or, when the pool has not answered by the clock's
    guard (``guard_seconds``), a quick turn (``QUICK_NODES``) thought on a thread of the
    worker at its own priority: the computer does not lose on time because its pool was
    busy or starved. The late search is dropped (cancelled if it had not started)."""
    clock_args = job["clock"]
    reserve = clock_args.get("reserve", player_for(job["variant"]).reserve)
    guard = guard_seconds(clock_args.get("deadline"), reserve)
    thinking = pool.think_async(job["variant"], job["position"], level, seconds,
                                account=job.get("account"), **clock_args)
    if guard is None:
        return await thinking
    try:
        return await asyncio.wait_for(thinking, guard)
    except TimeoutError:
        log.warning("computer: no answer from the pool in %.1f s in game %s: a quick turn",
                    guard, job["uuid"])
    return await asyncio.to_thread(think, job["variant"], job["position"], level, QUICK_SECONDS,
                                   nodes=QUICK_NODES, **clock_args)


def _release(pk: int, worker: str, nodes: int, played: bool) -> None:
    ComputerGame.objects.filter(pk=pk, claimed_by=worker[:64]).update(
        claimed_by="", claimed_until=None, nodes=F("nodes") + nodes,
        turns=F("turns") + (1 if played else 0))


def _in_thread(fn):
    """``fn`` on one of the loop's threads, keeping that thread's connection between calls.

    Not ``close_old_connections`` around every call, as a request would: with
    ``CONN_HEALTH_CHECKS`` on, each such call makes the next query first ask PostgreSQL
    ``SELECT 1``, one more round trip on each of a turn's three calls (the claim, ``prepare``, the
    release), a twelfth of the worker's samples during a wave of computer games (issue 25,
    BENCHMARKS.md). A call that failed closes its thread's connection if the failure left it
    unusable (a database restarted), so the next call connects afresh."""
    def run(*args):
        try:
            return fn(*args)
        except Exception:
            close_old_connections()
            raise
    return sync_to_async(run, thread_sensitive=False)


async def play_turn(row: ComputerGame, worker: str) -> bool:
    """Think and play the computer's turn in the claimed game ``row``; True when played."""
    nodes = 0
    played = False
    failed = False
    try:
        job = await _in_thread(prepare)(row)
        player = player_for(job["variant"])
        level = int(job["level"])
        result = await think_in_time(job, level, player.seconds(level))
        nodes = result["nodes"]
        actor = computer(job["side"])
        version = job["version"]
        if result["resign"]:
            outcome = await execute_async(Submission(job["uuid"], actor, Resign()))
            await delivery.announce(job["uuid"], outcome)
            played = outcome.ok
            return played
        delay = step_pause(conf.step_delay(), len(result["steps"]),
                           job["clock"].get("deadline"), player.reserve)
        for n, step in enumerate(result["steps"]):
            if n and delay:
                await asyncio.sleep(delay)
            outcome = await execute_async(
                Submission(job["uuid"], actor, PlayStep(step), version=version))
            if not outcome.ok:  # the game moved on without us (ended, resigned): stop here
                log.info("computer step %s refused in game %s: %s", step, job["uuid"],
                         outcome.reason)
                return played
            await delivery.announce(job["uuid"], outcome)
            version = outcome.version
            played = True
        return played
    except Exception:
        failed = True  # the claim is kept until its lease runs out: a retry, not a busy loop
        raise
    finally:
        if not failed:
            try:
                await _in_thread(_release)(row.pk, worker, nodes, played)
            except Exception:  # the claim runs out by itself
                log.warning("computer: releasing game %s failed", row.pk, exc_info=True)


class Mover:
    """The computer's share of one worker: its claimed turns, bounded by ``conf.queue()``."""

    def __init__(self, worker: str) -> None:
        self.worker = worker
        self.tasks: set[asyncio.Task] = set()

    async def round(self) -> int:
        """Claim what this worker has room for and start playing it; how many started."""
        room = conf.queue() - len(self.tasks)
        if room <= 0:
            return 0
        rows = await _in_thread(claim)(self.worker, room)
        for row in rows:
            task = asyncio.ensure_future(self._run(row))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        return len(rows)

    async def _run(self, row: ComputerGame) -> None:
        try:
            await play_turn(row, self.worker)
        except asyncio.CancelledError:
            raise
        except Exception:  # one game's trouble never stops the worker; the claim runs out
            log.warning("computer: playing game %s failed", row.pk, exc_info=True)

    async def drain(self) -> None:
        """Wait for the turns being played (tests)."""
        while self.tasks:
            await asyncio.gather(*list(self.tasks), return_exceptions=True)
