"""A command from no player (a test-only system actor, in a process of its own) takes the one
command path (R40): stored as the game's next version, then heard by the players and the
spectators on both server processes, in order with the players' own steps."""

import asyncio
import json
import subprocess
import sys

import pytest

from tests.cluster.client import GameClient, assert_exactly_once_in_order, wait_all
from tests.cluster.harness import ROOT

pytestmark = [pytest.mark.services, pytest.mark.asyncio]


def _announce(cluster, game: str, message: str) -> dict:
    proc = subprocess.run([sys.executable, "-m", "tests.cluster.command", game, "--announce",
                           message], cwd=ROOT, env=cluster.env(), capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


async def test_a_system_command_reaches_players_and_spectators_on_both_processes(cluster):
    seed = cluster.seed(players=("amy", "bo"), spectators=("cy", "di"))
    amy = await GameClient(cluster, 0, seed.game, seed.cookies["amy"], "amy").start()
    bo = await GameClient(cluster, 1, seed.game, seed.cookies["bo"], "bo").start()
    cy = await GameClient(cluster, 0, seed.game, seed.cookies["cy"], "cy").start()
    di = await GameClient(cluster, 1, seed.game, seed.cookies["di"], "di").start()
    everyone = [amy, bo, cy, di]
    try:
        await amy.play("move", "A2", "A3")  # version 1, mid-turn
        await wait_all(everyone, 1)
        outcome = await asyncio.to_thread(_announce, cluster, seed.game, "play resumes at 8")
        assert outcome == {"ok": True, "code": "applied", "version": 2, "reason": ""}
        await wait_all(everyone, 2)
        for c in everyone:
            note = c.events[-1]
            assert (note["version"], note["kind"], note["actor"], note["side"]) == (
                2, "note", "system", None), c.report()
            assert note["data"] == {"message": "play resumes at 8"}
            assert c.state["open_turn"]["text"] == "A2-A3"  # the board unchanged by it
        # The player goes on from the new version; a step made against the old one is stale.
        stale = await amy.send({"type": "step", "version": 1,
                                "step": {"kind": "move", "from": "A3", "to": "A4"}})
        assert stale["type"] == "rejected" and stale["code"] == "stale"
        await amy.play("move", "A3", "A4")  # against version 2: version 3
        await wait_all(everyone, 3)
        await asyncio.sleep(0.3)  # anything doubled or late would arrive now
        assert_exactly_once_in_order(everyone, 3)
    finally:
        await asyncio.gather(*(c.close() for c in everyone))
