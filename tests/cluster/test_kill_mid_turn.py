"""A server process killed (SIGKILL) in the middle of a turn and restarted on the same port.

Its clients reconnect with their last version; the turn in progress is intact (it lives in the
database's event log, not in the dead process); a step resent because its ack was lost is not
applied twice; the game finishes correctly; every client saw every step exactly once, in order.
"""

import asyncio

import pytest

from tests.cluster.client import GameClient, assert_exactly_once_in_order, wait_all

pytestmark = [pytest.mark.services, pytest.mark.asyncio]


async def test_kill_mid_turn_and_restart(cluster):
    seed = cluster.seed(players=("ivy", "oli"), spectators=("carl", "dora"))
    ivy = await GameClient(cluster, 0, seed.game, seed.cookies["ivy"], "ivy").start()
    carl = await GameClient(cluster, 0, seed.game, seed.cookies["carl"], "carl").start()
    oli = await GameClient(cluster, 1, seed.game, seed.cookies["oli"], "oli").start()
    dora = await GameClient(cluster, 1, seed.game, seed.cookies["dora"], "dora").start()
    everyone = [ivy, carl, oli, dora]
    try:
        await ivy.play("move", "A2", "A3", seq="ivy-a")
        await ivy.play("move", "A3", "A4", seq="ivy-b")
        await wait_all(everyone, 2)

        cluster.servers[0].kill()  # mid-turn: I has used 2 of 4 steps
        await ivy.wait_for(lambda: not ivy._connected.is_set(), "ivy to notice")
        cluster.servers[0].start()
        for c in (ivy, carl):
            await c.wait_for(lambda c=c: c.connections == 2 and c._connected.is_set(),
                             f"{c.name} to reconnect")

        state = ivy.state
        assert ivy.version == 2
        assert state["side_to_move"] == "I" and state["steps_used"] == 2
        assert state["open_turn"]["text"] == "A2-A3-A4"
        # The ack of ivy-b "was lost": resent unchanged, it is acknowledged, not re-applied.
        again = await ivy.send({"type": "step", "version": 1, "seq": "ivy-b",
                                "step": {"kind": "move", "from": "A3", "to": "A4"}})
        assert again == {"type": "ack", "seq": "ivy-b", "version": 2, "duplicate": True}

        await ivy.play("move", "B2", "B3")
        await ivy.play("move", "B3", "B4")  # the fourth step ends the turn
        await oli.wait_version(4)
        assert oli.state["side_to_move"] == "O"
        assert oli.state["notation"] == ["001 I: A2-A3-A4 B2-B3-B4"]
        await oli.play("move", "H7", "H6")
        await oli.play("end")
        await ivy.wait_version(6)
        await ivy.play("resign")
        await wait_all(everyone, 7)
        await asyncio.sleep(0.5)  # anything doubled or late would arrive now
        assert_exactly_once_in_order(everyone, 7)
        for c in everyone:
            assert c.state["outcome"]["winner"] == "O", c.report()
            assert c.state["outcome"]["reason"] == "decision", c.report()
        assert [c.connections for c in everyone] == [2, 2, 1, 1]
    finally:
        await asyncio.gather(*(c.close() for c in everyone))


async def test_killed_process_leaves_no_phantom_spectators(cluster):
    """The dead process's presence rows stop counting once stale (no ghost watchers)."""
    seed = cluster.seed(players=("pia", "quin"), spectators=("rae", "stu"))
    pia = await GameClient(cluster, 1, seed.game, seed.cookies["pia"], "pia").start()
    rae = await GameClient(cluster, 0, seed.game, seed.cookies["rae"], "rae",
                           reconnect=False).start()
    stu = await GameClient(cluster, 0, seed.game, seed.cookies["stu"], "stu",
                           reconnect=False).start()
    try:
        await pia.wait_for(lambda: pia.spectators == 2, "two spectators")
        cluster.servers[0].kill()  # rae and stu vanish without a goodbye
        cluster.servers[0].start()
        await pia.wait_for(lambda: pia.spectators == 0, "the count to drop to zero")
    finally:
        await asyncio.gather(pia.close(), rae.close(), stu.close())
