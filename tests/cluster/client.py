"""A websocket client of the game protocol for the cluster tests (``websockets`` library).

It records every event version it is given, in arrival order, and every breach of the
protocol's promise (an update that does not start where the last one ended, an event twice),
so a test can assert "every step reached this client exactly once, in order". When its server
goes away it reconnects like the browser board does: again and again with backoff, naming its
last version (``?last_version=N``) so the first update fills the gap.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from typing import Any

import websockets
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.cluster.harness import Cluster

WAIT = 90.0  # seconds: generous, the machine is shared


class GameClient:
    def __init__(self, cluster: Cluster, server: int, game: str, cookie: str = "",
                 name: str = "", reconnect: bool = True, via: int | None = None):
        """``server``: index of the process to talk to; ``via``: a proxy port instead."""
        self.cluster, self.server, self.game, self.cookie = cluster, server, game, cookie
        self.via = via
        self.name = name or f"client@{server}"
        self.reconnect = reconnect
        self.version: int | None = None  # the last version this client has
        self.versions: list[int] = []  # event versions received, in order
        self.events: list[dict[str, Any]] = []  # the events themselves, in order
        self.meta: dict[str, Any] | None = None  # the game's metadata, last heard
        self.problems: list[str] = []
        self.notices: list[dict[str, Any]] = []  # the viewer's notices (issue 39)
        self.state: dict[str, Any] | None = None
        self.side: str | None = None
        self.spectators: int | None = None
        self.connections = 0
        self._ws: Any = None
        self._task: asyncio.Task | None = None
        self._acks: dict[str, asyncio.Future] = {}
        self._changed = asyncio.Event()
        self._connected = asyncio.Event()
        self._seq = itertools.count(1)

    # --- life cycle ---------------------------------------------------------------------------
    async def start(self) -> GameClient:
        self._task = asyncio.ensure_future(self._run())
        await self.wait_for(lambda: self.connections > 0 and self.state is not None,
                            f"{self.name} to connect")
        return self

    async def close(self) -> None:
        self.reconnect = False
        if self._ws is not None:
            await self._ws.close()
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        delay = 0.2
        while True:
            try:
                await self._session()
                delay = 0.2
            except (TimeoutError, OSError, ConnectionClosed, InvalidStatus):
                pass
            self._connected.clear()
            self._ws = None
            for fut in self._acks.values():  # never acknowledged: the test may resend
                if not fut.done():
                    fut.set_result({"type": "lost"})
            self._acks.clear()
            self._changed.set()
            if not self.reconnect:
                return
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)

    async def _session(self) -> None:
        if self.via is None:
            url = self.cluster.ws_url(self.server, self.game, self.version)
            headers = self.cluster.headers(self.server, self.cookie)
        else:
            url = f"ws://127.0.0.1:{self.via}/ws/game/{self.game}/"
            if self.version is not None:
                url += f"?last_version={self.version}"
            headers = {"Origin": f"http://127.0.0.1:{self.via}", "Cookie": self.cookie}
        url += ("&" if "?" in url else "?") + "ack=inline"  # acks inside updates, as board.js
        async with websockets.connect(url, additional_headers=headers, open_timeout=30,
                                      max_size=2**22) as ws:
            self._ws = ws
            async for raw in ws:
                self._handle(json.loads(raw))

    # --- incoming -----------------------------------------------------------------------------
    def _handle(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "welcome":
            self.connections += 1
            self.side = msg["side"]
            self.spectators = msg["spectators"]
            self._connected.set()
        elif kind == "update":
            self._update(msg)
            if "ack" in msg:  # the update of our own step carries its ack (docs/protocol.md)
                self._answer({"type": "ack", **msg["ack"]})
        elif kind == "spectators":
            self.spectators = msg["count"]
        elif kind == "game":  # the metadata after archiving (records, rating changes)
            self.meta = msg["game"]
        elif kind in ("ack", "rejected"):
            self._answer(msg)
        elif kind == "probe":  # R36: the server measures lag from the echo; not answered here
            pass
        elif kind == "absence":  # R37: a player of a live timed game left, or is back
            self.absence: dict[str, Any] | None = msg
        elif kind == "notification":  # the viewer's own notices, for the page's bell
            self.notices.append(msg)
        elif kind != "pong":
            self.problems.append(f"unexpected message {msg}")
        self._changed.set()

    def _answer(self, reply: dict[str, Any]) -> None:
        fut = self._acks.pop(str(reply.get("seq")), None)
        if fut is not None and not fut.done():
            fut.set_result(reply)

    def _update(self, msg: dict[str, Any]) -> None:
        events = [e["version"] for e in msg["events"]]
        start = msg["from_version"]
        if self.version is None:
            if events:
                self.problems.append(f"first update carries events {events}")
        elif start != self.version:
            self.problems.append(f"update from {start} after version {self.version}")
        expected = list(range(start + 1, msg["version"] + 1)) if self.version is not None else []
        if self.version is not None and events != expected:
            self.problems.append(f"update {start}->{msg['version']} carries {events}")
        self.versions += events
        self.events += msg["events"]
        self.version = msg["version"]
        self.state = msg["state"]
        self.meta = msg["game"]

    # --- outgoing -----------------------------------------------------------------------------
    def new_seq(self) -> str:
        return f"{self.name}-{next(self._seq)}"

    async def send(self, msg: dict[str, Any], timeout: float = WAIT) -> dict[str, Any]:
        """Send a step/end/pass/resign and wait for its ack or rejection. When the connection
        goes away first, resend it unchanged once reconnected (the protocol's rule: the same
        ``seq`` is acknowledged again, never applied twice)."""
        seq = str(msg.setdefault("seq", self.new_seq()))
        for _ in range(5):
            await self.wait_for(lambda: self._connected.is_set(), f"{self.name} connected")
            fut = asyncio.get_running_loop().create_future()
            self._acks[seq] = fut
            try:
                await self._ws.send(json.dumps(msg))
            except (ConnectionClosed, AttributeError):  # gone (or going) under us
                self._acks.pop(seq, None)
                await self.wait_for(lambda: not self._connected.is_set(),
                                    f"{self.name} to notice the loss")
                continue
            reply = await asyncio.wait_for(fut, timeout)
            if reply["type"] != "lost":
                return reply
        raise AssertionError(f"{self.name}: {msg} never answered; {self.report()}")

    async def play(self, action: str, frm: str | None = None, to: str | None = None,
                   seq: str | None = None, version: int | None = None) -> dict[str, Any]:
        """One step of the side to move, made against this client's current version."""
        msg: dict[str, Any] = {"type": action if action in ("end", "pass", "resign") else "step",
                               "version": self.version if version is None else version}
        if msg["type"] == "step":
            msg["step"] = {"kind": action, "from": frm, "to": to}
        if seq is not None:
            msg["seq"] = seq
        reply = await self.send(msg)
        assert reply["type"] == "ack", f"{self.name}: {msg} answered {reply}"
        return reply

    # --- waiting ------------------------------------------------------------------------------
    async def wait_for(self, predicate, what: str, timeout: float = WAIT) -> None:
        async def loop() -> None:
            while not predicate():
                self._changed.clear()
                # Woken by any message, and every half second for predicates on other things.
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), 0.5)

        try:
            await asyncio.wait_for(loop(), timeout)
        except TimeoutError:
            raise AssertionError(f"timed out waiting for {what}; {self.report()}") from None

    async def wait_version(self, version: int, timeout: float = WAIT) -> None:
        await self.wait_for(lambda: self.version is not None and self.version >= version,
                            f"{self.name} to reach version {version}", timeout)

    def report(self) -> str:
        return (f"{self.name}: version={self.version} versions={self.versions} "
                f"connections={self.connections} problems={self.problems}")


async def wait_all(clients: list[GameClient], version: int) -> None:
    await asyncio.gather(*(c.wait_version(version) for c in clients))


def assert_exactly_once_in_order(clients: list[GameClient], last: int) -> None:
    """Every event 1..last reached every client once, in version order, with no breach."""
    for c in clients:
        assert c.problems == [], c.report()
        assert c.versions == list(range(1, last + 1)), c.report()
