"""The clock's flag with players on two server processes and two workers (R37, R40): at the
deadline one worker stores the flag (here the abort of an opening turn never completed, R36),
exactly once, and both players and a spectator, on both processes, hear it once, in order."""

import asyncio
import time

import psycopg
import pytest

from tests.cluster.client import GameClient, assert_exactly_once_in_order, wait_all

pytestmark = [pytest.mark.services, pytest.mark.asyncio]

CLUSTER_SERVERS = 2
CLUSTER_WORKERS = 2


def _make_timed(cluster, game: str, seconds_left: float) -> float:
    """The seeded game becomes a 5+0 game whose I's opening turn runs out in
    ``seconds_left``; returns that deadline (epoch seconds)."""
    with psycopg.connect(cluster.env()["DATABASE_URL"], autocommit=True) as conn:
        row = conn.execute(
            "UPDATE play_game SET time_control = 'fischer 300+0', "
            "created = now() - make_interval(secs => %s), "
            "deadline = now() - make_interval(secs => %s) + interval '30 seconds' "
            "WHERE uuid = %s RETURNING extract(epoch from deadline)",
            [30 - seconds_left, 30 - seconds_left, game]).fetchone()
    return float(row[0])


def _flags(cluster, game: str) -> list:
    with psycopg.connect(cluster.env()["DATABASE_URL"], autocommit=True) as conn:
        return conn.execute(
            "SELECT e.version, e.kind, e.actor FROM play_gameevent e JOIN play_game g "
            "ON g.id = e.game_id WHERE g.uuid = %s ORDER BY e.version", [game]).fetchall()


async def test_flag_once_heard_on_both_processes(cluster):
    seed = cluster.seed(players=("amy", "bo"), spectators=("cy",))
    deadline = await asyncio.to_thread(_make_timed, cluster, seed.game, 4.0)
    amy = await GameClient(cluster, 0, seed.game, seed.cookies["amy"], "amy").start()
    bo = await GameClient(cluster, 1, seed.game, seed.cookies["bo"], "bo").start()
    cy = await GameClient(cluster, 1, seed.game, seed.cookies["cy"], "cy").start()
    everyone = [amy, bo, cy]
    try:
        assert amy.state["clock"]["running"] == "I"
        await wait_all(everyone, 1)
        heard = time.time()
        assert heard - deadline < 5, heard - deadline
        for c in everyone:
            assert c.state["outcome"]["reason"] == "aborted", c.report()
            assert (c.events[-1]["kind"], c.events[-1]["actor"]) == ("abort", "clock")
        await asyncio.sleep(1.5)  # a second flag, if any worker stored one, would come now
        assert_exactly_once_in_order(everyone, 1)
        assert await asyncio.to_thread(_flags, cluster, seed.game) == [(1, "abort", "clock")]
    finally:
        await asyncio.gather(*(c.close() for c in everyone))
