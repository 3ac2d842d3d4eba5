"""An arbiter's action on one server process reaches the players and spectators on the other
(R39, R40): stored as the game's next version through the one command path, then heard once,
in order, by everyone, with the turn in progress standing; a player's step made against the
version before it is stale, and the player goes on from the new one."""

import asyncio

import pytest

from tests.cluster.client import GameClient, assert_exactly_once_in_order, wait_all

pytestmark = [pytest.mark.services, pytest.mark.asyncio]

APPOINT = """
from django.contrib.auth import get_user_model
from registry import arbiters
from registry.models import RegistryGame
game = RegistryGame.objects.get(game_id="{game}")
arbiters.appoint(game, get_user_model().objects.get(username="ref"), reason="club night")
"""


def _appoint(cluster, game: str) -> None:
    cluster.manage("shell", "-c", APPOINT.format(game=game))


async def test_an_arbiters_warning_on_one_process_reaches_everyone_on_both(cluster):
    seed = cluster.seed(players=("amy", "bo"), spectators=("ref", "cy"))
    await asyncio.to_thread(_appoint, cluster, seed.game)
    amy = await GameClient(cluster, 0, seed.game, seed.cookies["amy"], "amy").start()
    bo = await GameClient(cluster, 1, seed.game, seed.cookies["bo"], "bo").start()
    ref = await GameClient(cluster, 0, seed.game, seed.cookies["ref"], "ref").start()
    cy = await GameClient(cluster, 1, seed.game, seed.cookies["cy"], "cy").start()
    everyone = [amy, bo, ref, cy]
    try:
        await amy.play("move", "A2", "A3")  # version 1, mid-turn
        await wait_all(everyone, 1)
        # a spectator on the other process may not act; nothing is stored
        refused = await cy.send({"type": "warn", "side": "I", "reason": "non-engagement"})
        assert refused["type"] == "rejected" and refused["code"] == "forbidden"
        reply = await ref.send({"type": "warn", "side": "I", "reason": "non-engagement"})
        assert reply["type"] == "ack" and reply["version"] == 2, reply
        await wait_all(everyone, 2)
        for c in everyone:
            warn = c.events[-1]
            assert (warn["version"], warn["kind"], warn["actor"]) == (2, "warn", "arbiter")
            assert warn["data"] == {"side": "I", "reason": "non-engagement", "by": "ref"}
            assert c.state["warned"] == ["I"] and c.state["open_turn"]["text"] == "A2-A3"
        stale = await amy.send({"type": "step", "version": 1,
                                "step": {"kind": "move", "from": "A3", "to": "A4"}})
        assert stale["type"] == "rejected" and stale["code"] == "stale"
        await amy.play("end")  # against version 2: version 3
        await wait_all(everyone, 3)
        await asyncio.sleep(0.3)
        assert_exactly_once_in_order(everyone, 3)
        # the decision's notice reached the players' sockets on both processes (issue 39)
        for player in (amy, bo):
            assert any("a warning to" in n["text"] for n in player.notices), player.notices
        assert not ref.notices and not cy.notices
    finally:
        await asyncio.gather(*(c.close() for c in everyone))
