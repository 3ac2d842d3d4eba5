"""Game end survives the worker: a game ended with no worker running, or whose worker was killed
(SIGKILL) in the middle of archiving it, is archived exactly once when a worker runs again, and
the players hear of it; two workers racing over many finished games archive each exactly once.

The game's end is committed by the step that ended it (with its outbox row, play.store.log);
its records, tally and ratings are the worker's (registry.archiving), after the commit.
"""

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from tests.cluster.client import GameClient
from tests.cluster.harness import ROOT, WorkerProcess

pytestmark = [pytest.mark.services, pytest.mark.asyncio]

CLUSTER_SERVERS = 1
CLUSTER_WORKERS = 0  # the tests start their own
# Short claims, quick rounds, and one job a round, so that two workers take turns at the rows.
CLUSTER_ENV = {"TALU_WORKER_LEASE": "3", "TALU_WORKER_POLL": "0.5", "TALU_WORKER_BATCH": "1"}


def _archive_facts(cluster, game: str) -> dict:
    """What the database holds of ``game``'s archive: records by kind, rating changes, the
    registry game's status, and its outbox row."""
    with psycopg.connect(cluster.database.url) as conn:
        kinds = dict(conn.execute(
            "SELECT r.kind, count(*) FROM registry_gamerecord r JOIN registry_registrygame a "
            "ON r.game_id = a.id WHERE a.game_id = %s GROUP BY r.kind", [game]).fetchall())
        changes = conn.execute(
            "SELECT count(*) FROM registry_ratingchange c JOIN registry_registrygame a "
            "ON c.game_id = a.id WHERE a.game_id = %s", [game]).fetchone()[0]
        status = conn.execute("SELECT status FROM registry_registrygame WHERE game_id = %s",
                              [game]).fetchone()[0]
        outbox = conn.execute(
            "SELECT o.done IS NOT NULL, o.attempts FROM play_outbox o JOIN play_game g "
            "ON o.game_id = g.id WHERE g.uuid = %s", [game]).fetchall()
    return {"records": kinds, "rating_changes": changes, "status": status, "outbox": outbox}


async def _resigned_game(cluster, names: tuple[str, str]) -> tuple[str, GameClient]:
    seed = cluster.seed(players=names)
    winner = await GameClient(cluster, 0, seed.game, seed.cookies[names[0]], names[0]).start()
    loser = await GameClient(cluster, 0, seed.game, seed.cookies[names[1]], names[1]).start()
    await winner.play("move", "A2", "A3")
    await loser.wait_version(1)
    assert (await loser.send({"type": "resign"}))["type"] == "ack"
    await winner.wait_for(lambda: winner.state["outcome"] is not None, "the resignation")
    await loser.close()
    return seed.game, winner


async def _archived_by_a_new_worker(cluster, index: int, client: GameClient) -> dict:
    """Start a worker, wait until ``client`` hears its game archived, let the worker run some
    more rounds (nothing may be archived twice), stop it; the archive's facts."""
    worker = WorkerProcess(index, cluster.env(), cluster.workdir)
    worker.start()
    try:
        await client.wait_for(lambda: client.meta.get("archived"), "the archive's news")
        await asyncio.sleep(1.5)
    finally:
        worker.stop()
    facts = _archive_facts(cluster, client.game)
    assert facts["records"] == {"STGE": 1, "STSE": 1, "STGN": 1, "STDGS": 1}
    assert (facts["rating_changes"], facts["status"]) == (2, "finished")
    return facts


async def test_a_game_ended_without_a_worker_is_archived_once_one_runs(cluster):
    game, client = await _resigned_game(cluster, ("ann", "ben"))
    try:
        assert client.meta["archived"] is False and client.meta["records"] == []
        facts = _archive_facts(cluster, game)
        assert facts["status"] == "playing" and facts["outbox"] == [(False, 0)]
        facts = await _archived_by_a_new_worker(cluster, 90, client)
        assert facts["outbox"] == [(True, 1)]
    finally:
        await client.close()


def _start_slow_worker(cluster, name: str) -> tuple[subprocess.Popen, Path]:
    flag = cluster.workdir / f"{name}-claimed"
    with open(cluster.workdir / f"{name}.log", "ab") as log:
        slow = subprocess.Popen([sys.executable, "-m", "tests.cluster.slow_worker", str(flag)],
                                cwd=ROOT, env=cluster.env(), stdout=log, stderr=subprocess.STDOUT)
    return slow, flag


async def _archive_stopped(slow: subprocess.Popen, flag) -> int:
    """Wait until the slow worker's archive process stops mid-archive; its pid."""
    deadline = time.monotonic() + 90
    while not flag.exists():
        assert slow.poll() is None and time.monotonic() < deadline, "slow worker stuck"
        await asyncio.sleep(0.1)
    return int(flag.read_text())


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


async def test_a_worker_killed_mid_archive_leaves_it_to_the_next_once(cluster):
    game, client = await _resigned_game(cluster, ("cat", "dan"))
    slow, flag = _start_slow_worker(cluster, "slow-worker")
    try:
        archiver = await _archive_stopped(slow, flag)
        slow.kill()  # the game's end committed, its row claimed, nothing of its archive written
        slow.wait(15)
        deadline = time.monotonic() + 10  # its archive process exits with it
        while not _gone(archiver):
            assert time.monotonic() < deadline, "the archive process outlived its worker"
            await asyncio.sleep(0.1)
        facts = _archive_facts(cluster, game)
        assert facts["records"] == {"STGE": 1} and facts["rating_changes"] == 0
        assert facts["outbox"] == [(False, 1)]
        # The killed worker's claim runs out after TALU_WORKER_LEASE; then it is taken again.
        facts = await _archived_by_a_new_worker(cluster, 91, client)
        assert facts["outbox"] == [(True, 2)]
    finally:
        if slow.poll() is None:
            slow.kill()
        await client.close()


async def test_an_archive_process_killed_mid_record_is_replaced_and_archives_once(cluster):
    """The archive runs in a process of the worker's own (play.worker.archiver): killed in the
    middle of a game's archive, the worker lives on, starts a new one, and that one archives
    the game once the dead one's claim has run out."""
    game, client = await _resigned_game(cluster, ("eve", "fox"))
    slow, flag = _start_slow_worker(cluster, "slow-archive")
    try:
        archiver = await _archive_stopped(slow, flag)
        assert archiver != slow.pid
        os.kill(archiver, signal.SIGKILL)
        facts = _archive_facts(cluster, game)
        assert facts["records"] == {"STGE": 1} and facts["rating_changes"] == 0
        assert facts["outbox"] == [(False, 1)]
        await client.wait_for(lambda: client.meta.get("archived"), "the archive's news")
        assert slow.poll() is None  # the same worker, with a new archive process
        await asyncio.sleep(1.5)  # more rounds: nothing archived twice
        facts = _archive_facts(cluster, game)
        assert facts["records"] == {"STGE": 1, "STSE": 1, "STGN": 1, "STDGS": 1}
        assert (facts["rating_changes"], facts["status"]) == (2, "finished")
        assert facts["outbox"] == [(True, 2)]
    finally:
        if slow.poll() is None:
            slow.terminate()
            slow.wait(15)
        await client.close()


async def test_two_workers_archive_every_game_exactly_once(cluster):
    games = []
    for n in range(6):
        game, client = await _resigned_game(cluster, (f"p{n}a", f"p{n}b"))
        games.append(game)
        await client.close()
    workers = [WorkerProcess(92 + i, cluster.env(), cluster.workdir) for i in range(2)]
    for w in workers:  # both at once: they race for the same rows
        w.start()
    try:
        deadline = time.monotonic() + 120
        while not all(_archive_facts(cluster, g)["status"] == "finished" for g in games):
            assert time.monotonic() < deadline, [_archive_facts(cluster, g) for g in games]
            await asyncio.sleep(0.5)
        await asyncio.sleep(1.5)  # more rounds of both: nothing archived twice
    finally:
        for w in workers:
            w.stop()
    for g in games:
        facts = _archive_facts(cluster, g)
        assert facts["records"] == {"STGE": 1, "STSE": 1, "STGN": 1, "STDGS": 1}, facts
        assert facts["rating_changes"] == 2 and facts["outbox"] == [(True, 1)], facts
