"""A player of the lobby for the cluster tests and the matchmaking benchmark: the lobby's
websocket (``/ws/lobby/``, ``play.live.lobby``) and the site's HTTP endpoints with a session.

The socket records, with the time each arrived (``time.monotonic``), every ``paired`` message
(R47: a pool paired this account, with its game) and counts the ``changed`` ones. The HTTP
calls (the pool's API, ``/api/v1/pool/me/``; challenges; the lobby's state) are made as a
browser makes them: the session cookie, a CSRF token (cookie and header, the same random
value, as Django allows) and an allowed ``Origin``. They run on threads (urllib), so many
players can act at once from one event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import string
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import websockets
from websockets.exceptions import ConnectionClosed

from tests.cluster.harness import Cluster

WAIT = 60.0  # seconds for a socket to open or a request to be answered (a shared machine)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer (an accepted challenge redirects to its game): not followed."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


@dataclass
class Answer:
    """An HTTP answer: status, JSON body (None when not JSON), Location header."""

    status: int
    body: Any
    location: str = ""


@dataclass
class LobbyPlayer:
    """One account in the lobby: its socket on process ``server``, its HTTP calls to process
    ``http_server`` (another process, so that what one does must cross the channel layer)."""

    cluster: Cluster
    name: str
    cookie: str
    server: int = 0
    http_server: int = 0
    paired: list[tuple[str, float]] = field(default_factory=list)  # (game uuid, arrival)
    changed: int = 0
    problems: list[str] = field(default_factory=list)
    csrf: str = field(default_factory=lambda: "".join(
        secrets.choice(string.ascii_letters + string.digits) for _ in range(32)))

    def __post_init__(self) -> None:
        self._ws: Any = None
        self._task: asyncio.Task | None = None
        self._news = asyncio.Event()

    # --- the lobby's socket -------------------------------------------------------------------
    async def connect(self) -> LobbyPlayer:
        port = self.cluster.servers[self.server].port
        self._ws = await websockets.connect(
            f"ws://127.0.0.1:{port}/ws/lobby/", open_timeout=WAIT, max_size=2**20,
            additional_headers=self.cluster.headers(self.server, self.cookie))
        first = json.loads(await asyncio.wait_for(self._ws.recv(), WAIT))
        if first != {"type": "welcome"}:
            raise AssertionError(f"{self.name}: the lobby socket answered {first}")
        self._task = asyncio.ensure_future(self._read())
        return self

    async def _read(self) -> None:
        try:
            async for raw in self._ws:
                msg = json.loads(raw)
                if msg.get("type") == "paired":
                    self.paired.append((msg["game"], time.monotonic()))
                    if msg.get("url") != f"/games/{msg['game']}/":
                        self.problems.append(f"paired with a wrong url: {msg}")
                elif msg.get("type") == "changed":
                    self.changed += 1
                else:
                    self.problems.append(f"unexpected lobby message {msg}")
                self._news.set()
        except ConnectionClosed as err:
            if self._task is not None and not self._task.cancelled():
                self.problems.append(f"lobby socket closed: {err}")
                self._news.set()

    async def wait_paired(self, timeout: float = WAIT) -> str:
        """The game of this account's (first) pairing, once its message has arrived."""
        await self._wait(lambda: bool(self.paired), "was never sent a game", timeout)
        return self.paired[0][0]

    async def wait_changed(self, seen: int, timeout: float = WAIT) -> None:
        """Until more than ``seen`` ``changed`` messages have arrived."""
        await self._wait(lambda: self.changed > seen, "heard no change", timeout)

    async def _wait(self, done, what: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            self._news.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.name} {what}; {self.problems}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._news.wait(), left)

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()

    # --- HTTP ---------------------------------------------------------------------------------
    def _request(self, method: str, path: str, json_body: Any = None,
                 form: dict[str, str] | None = None) -> Answer:
        base = self.cluster.servers[self.http_server].base_url
        headers = {"Cookie": f"{self.cookie}; csrftoken={self.csrf}", "X-CSRFToken": self.csrf,
                   "Origin": base, "Accept": "application/json"}
        data = None
        if json_body is not None:
            data = json.dumps(json_body).encode()
            headers["Content-Type"] = "application/json"
        elif form is not None:
            data = urllib.parse.urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        req = urllib.request.Request(base + path, data=data, method=method, headers=headers)
        try:
            with _OPENER.open(req, timeout=WAIT) as resp:
                status, raw, location = resp.status, resp.read(), ""
        except urllib.error.HTTPError as err:
            status, raw, location = err.code, err.read(), err.headers.get("Location", "")
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        return Answer(status, body, location)

    async def request(self, method: str, path: str, json_body: Any = None,
                      form: dict[str, str] | None = None) -> Answer:
        return await asyncio.to_thread(self._request, method, path, json_body, form)

    async def join(self, time_control: str = "fischer 180+2", rated: bool = True) -> Answer:
        """Join the pool through the API (R47): 201 and the pairing state."""
        return await self.request("POST", "/api/v1/pool/me/",
                                  {"variant": "standard", "time_control": time_control,
                                   "rated": rated})

    async def leave(self) -> Answer:
        """Leave the pool through the API: 204, or 409 when a game has started."""
        return await self.request("DELETE", "/api/v1/pool/me/")

    async def pairing(self) -> dict[str, Any]:
        answer = await self.request("GET", "/api/v1/pool/me/")
        assert answer.status == 200, (self.name, answer)
        return answer.body
