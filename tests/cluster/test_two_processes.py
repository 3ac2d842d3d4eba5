"""Players and spectators spread over two server processes all see every step once, in order.

The two players sit on different processes, so every step crosses the channel layer (Redis)
to reach the opponent; spectators sit on both.
"""

import asyncio

import pytest

from tests.cluster.client import GameClient, assert_exactly_once_in_order, wait_all

pytestmark = [pytest.mark.services, pytest.mark.asyncio]

SPECTATORS = ("sam", "sue", "sid", "sal", "syd", "sia")

# I moves, then passes three times while O moves: I forfeits (R12). 11 events.
LINE = [
    ("I", "move", "A2", "A3"), ("I", "end", None, None),
    ("O", "move", "H7", "H6"), ("O", "end", None, None),
    ("I", "pass", None, None),
    ("O", "move", "G7", "G6"), ("O", "end", None, None),
    ("I", "pass", None, None),
    ("O", "move", "F7", "F6"), ("O", "end", None, None),
    ("I", "pass", None, None),
]


async def test_every_step_reaches_every_client_once_in_order(cluster):
    seed = cluster.seed(players=("ann", "ben"), spectators=SPECTATORS)
    ann = await GameClient(cluster, 0, seed.game, seed.cookies["ann"], "ann").start()
    ben = await GameClient(cluster, 1, seed.game, seed.cookies["ben"], "ben").start()
    watchers = [await GameClient(cluster, n % 2, seed.game, seed.cookies[name], name).start()
                for n, name in enumerate(SPECTATORS)]
    everyone = [ann, ben, *watchers]
    assert (ann.side, ben.side) == ("I", "O")
    assert all(w.side is None for w in watchers)
    try:
        by_side = {"I": ann, "O": ben}
        for n, (side, action, frm, to) in enumerate(LINE):
            player = by_side[side]
            # A player acts once its own client has the previous step, which for every other
            # step means it came from the other process.
            await player.wait_version(n)
            await player.play(action, frm, to)
        await wait_all(everyone, len(LINE))
        await asyncio.sleep(0.5)  # anything doubled or late would arrive now
        assert_exactly_once_in_order(everyone, len(LINE))
        for c in everyone:
            outcome = c.state["outcome"]
            assert outcome["winner"] == "O" and outcome["reason"] == "forfeit", c.report()
            assert c.state["notation"] == ann.state["notation"]
        # The spectator count is shared by both processes.
        await ann.wait_for(lambda: ann.spectators == len(SPECTATORS), "six spectators")
    finally:
        await asyncio.gather(*(c.close() for c in everyone))
