"""A burst of 500 websocket connections at once against two server processes.

Every connection is either accepted (welcome, then the game's state) or cleanly refused: the
process is capped at ``TALU_WS_MAX_CONNECTIONS`` open game sockets and answers the rest with
an ``error`` ``busy`` and close code 4013 (try again later). None is answered with a server
error (HTTP 5xx, close code 1011) and none hangs. The slots come back when sockets close.
"""

import asyncio
import contextlib
import json
import time
from collections import Counter

import pytest
import websockets
from websockets.exceptions import ConnectionClosed, InvalidMessage, InvalidStatus

from tests.cluster.client import GameClient

pytestmark = [pytest.mark.services, pytest.mark.asyncio]

BURST = 500
CAP = 200  # per process: 2 x 200 < 500, so both answers are exercised
ANSWER_WITHIN = 180  # seconds for every attempt to be accepted or refused
CLUSTER_ENV = {"TALU_WS_MAX_CONNECTIONS": str(CAP), "TALU_WS_HEARTBEAT": "20"}


async def attempt(cluster, server: int, game: str, release: asyncio.Event) -> str:
    """Open one socket; hold it open until ``release``. Returns how it was answered."""
    try:
        async with websockets.connect(cluster.ws_url(server, game), open_timeout=120,
                                      additional_headers=cluster.headers(server),
                                      max_size=2**22) as ws:
            first = json.loads(await asyncio.wait_for(ws.recv(), 120))
            if first["type"] == "welcome":
                state = json.loads(await asyncio.wait_for(ws.recv(), 120))
                if state["type"] != "update":
                    return f"accepted without state: {state['type']}"
                await release.wait()
                return "accepted"
            if first == {"type": "error", "code": "busy",
                         "message": "this server is full; reconnect in a moment"}:
                with contextlib.suppress(ConnectionClosed):
                    await asyncio.wait_for(ws.recv(), 120)
                return f"refused {ws.close_code}"
            return f"unexpected first message {first}"
    except InvalidStatus as err:
        return f"http {err.response.status_code}"
    except InvalidMessage as err:  # the connection closed before any HTTP answer
        return f"no http answer: {err.__cause__!r}"
    except ConnectionClosed as err:
        return f"closed {err.rcvd.code if err.rcvd else None}"
    except (OSError, TimeoutError) as err:
        return f"failed {type(err).__name__}: {err}"


async def test_burst_of_500_connections(cluster):
    seed = cluster.seed(players=("bea", "bo"))
    release = asyncio.Event()
    tasks = [asyncio.ensure_future(attempt(cluster, n % 2, seed.game, release))
             for n in range(BURST)]
    # Wait until every attempt is answered (accepted sockets stay open, holding their slot);
    # if the cap let everyone in, the refusals never come: fail, do not hang.
    deadline = time.monotonic() + ANSWER_WITHIN
    while True:
        done = [t for t in tasks if t.done()]
        refused = [t for t in done if t.result() != "accepted"]
        if len(done) == len(tasks) or len(refused) >= BURST - 2 * CAP:
            break
        if time.monotonic() > deadline:
            release.set()
            outcomes = Counter(await asyncio.gather(*tasks))
            pytest.fail(f"not every connection answered within {ANSWER_WITHIN} s: {outcomes}")
        await asyncio.sleep(0.5)
    refusals = Counter(t.result() for t in done)
    release.set()
    outcomes = Counter(await asyncio.gather(*tasks))
    assert outcomes == {"accepted": 2 * CAP, "refused 4013": BURST - 2 * CAP}, outcomes
    assert set(refusals) == {"refused 4013"}, refusals
    for server in cluster.servers:
        assert server.health()[0] == 200, server.tail()
        assert "Traceback" not in server.tail(100_000), server.tail()

    # The slots are free again: a player connects and plays on each process.
    bea = await GameClient(cluster, 0, seed.game, seed.cookies["bea"], "bea").start()
    bo = await GameClient(cluster, 1, seed.game, seed.cookies["bo"], "bo").start()
    try:
        await bea.play("move", "A2", "A3")
        await bo.wait_version(1)
    finally:
        await asyncio.gather(bea.close(), bo.close())
