"""A club night on the embedded default (issue 27, finding 11): a dozen games at once over the
websocket protocol against the server ``./dev serve`` starts (daphne, SQLite, the in-memory
channel layer, the worker in the process), counting server errors and ``busy`` answers.

    .venv/bin/python benchmarks/bench_club_night.py                          # this tree, 3 min
    .venv/bin/python benchmarks/bench_club_night.py --tree /tmp/old --tree . # side by side
    .venv/bin/python benchmarks/bench_club_night.py --games 4 --minutes 1 --json out.json

Why: the README's serve command is what a club runs on one machine. With 4 games at once it got
251 HTTP 500s (``sqlite3.OperationalError: database is locked``, on accepting a challenge among
others) and 9,493 ``busy`` answers to steps in 29 minutes. SQLite can serve this with WAL, a
busy timeout and transactions that take the write lock when they begin (talu_site/settings.py).

Each TREE (``--tree``, repeatable, run in the order given; default this checkout) is served in
turn from a fresh SQLite file and keyring in a temporary directory: ``manage.py migrate``, the
accounts and their sessions made by a small script with the tree's interpreter (as
``bench_endings`` does: no password hashing), then ``python -m talu_site.serve ...
--websocket_connect_timeout 30`` as ``./dev serve`` runs it, with the working directory and
``PYTHONPATH`` the tree (so an exported old version runs its own code with this venv's
packages) and ``PYTHONDONTWRITEBYTECODE`` set (nothing is written into the tree).

Load, for ``--minutes``: ``--games`` pairs of players, each pair over and over: player I opens a
rated challenge naming player O over HTTP (``POST /challenges/new/``, CSRF cookie), O finds it
in ``/lobby/state.json`` and accepts it (``POST /challenges/<id>/accept/``), then both connect
to the game's websocket with their session cookies and play it to its end, the side to move
sending a legal step (``bench_load.choose_step``: captures preferred, never a pass) after a
think time drawn from 0 to twice ``--think`` seconds, one step in flight, answered by its ack
or a refusal (a refused step: ``sync`` and carry on, as the board does). The games' ends are
archived (records signed, ratings moved) by the worker while the others play.

Counted per tree: HTTP answers by status (5xx the finding), steps sent, acked, refused by code
(``busy`` the finding), socket ``error`` messages by code, step round trips (p50/p99/max, send
to ack), games started and finished, and the server log's tracebacks and "database is locked"
lines. ``BENCHMARKS.md`` (issue 27) has the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import bench_endings  # noqa: E402  (its accounts script and percentiles)
import bench_load  # noqa: E402  (its legal step chooser)

CONNECT_TIMEOUT = 30
REPLY_TIMEOUT = 60


@dataclass
class Tally:
    http: Counter = field(default_factory=Counter)
    http_errors: list[str] = field(default_factory=list)
    sent: int = 0
    acked: int = 0
    refused: Counter = field(default_factory=Counter)
    socket_errors: Counter = field(default_factory=Counter)
    timeouts: int = 0
    round_trips: list[float] = field(default_factory=list)
    started: int = 0
    finished: int = 0
    lobby_failures: int = 0

    def http_status(self, where: str, status: int) -> None:
        self.http[status] += 1
        if status >= 500:
            self.http_errors.append(f"{where}: {status}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Player:
    """One account: an HTTP client with its session and CSRF cookies."""

    def __init__(self, base: str, name: str, session: str, csrf: str, tally: Tally) -> None:
        self.name, self.session, self.csrf, self.tally = name, session, csrf, tally
        self.cookie = f"sessionid={session}; csrftoken={csrf}"
        self.http = httpx.AsyncClient(base_url=base, timeout=REPLY_TIMEOUT,
                                      headers={"Cookie": self.cookie}, follow_redirects=False)

    async def request(self, method: str, path: str, form: dict | None = None) -> httpx.Response:
        data = None if form is None else {"csrfmiddlewaretoken": self.csrf, **form}
        response = await self.http.request(method, path, data=data)
        self.tally.http_status(f"{method} {re.sub(r'/[0-9]+/', '/N/', path)}",
                               response.status_code)
        return response


async def new_game(light: Player, dark: Player) -> str | None:
    """The lobby as people use it; None (counted) when any answer is not the expected one."""
    made = await light.request("POST", "/challenges/new/", {
        "variant": "standard", "rated": "1", "side": "I", "opponent": dark.name})
    if made.status_code != 302:
        return None
    listed = await dark.request("GET", "/lobby/state.json")
    if listed.status_code != 200:
        return None
    ids = [c["id"] for c in listed.json()["challenges"] if c["creator"] == light.name]
    if not ids:
        return None
    accepted = await dark.request("POST", f"/challenges/{ids[-1]}/accept/", {})
    m = re.search(r"/games/([0-9a-f-]{36})/", accepted.headers.get("location", ""))
    return m.group(1) if accepted.status_code == 302 and m else None


class Seat:
    """One player's socket on a game: its last update, and the replies to its steps."""

    def __init__(self, ws, tally: Tally) -> None:
        self.ws, self.tally = ws, tally
        self.version = -1
        self.state: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.replies: dict[str, asyncio.Future] = {}
        self.task = asyncio.ensure_future(self.read())

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                m = json.loads(raw)
                kind = m.get("type")
                if kind == "update":
                    self.version, self.state = m["version"], m["state"]
                    self.changed.set()
                elif kind in ("ack", "rejected"):
                    future = self.replies.pop(str(m.get("seq")), None)
                    if future is not None and not future.done():
                        future.set_result(m)
                elif kind == "error":
                    self.tally.socket_errors[m.get("code")] += 1
        except websockets.ConnectionClosed:
            pass
        finally:
            self.changed.set()

    async def shown(self, version: int, timeout: float = REPLY_TIMEOUT) -> None:
        async with asyncio.timeout(timeout):
            while self.version < version and not self.task.done():
                self.changed.clear()
                await self.changed.wait()


async def play(base: str, uuid: str, players: tuple[Player, Player], tally: Tally,
               deadline: float, think: float, rng: random.Random) -> None:
    seats = []
    for p in players:
        ws = await websockets.connect(f"ws://{base.removeprefix('http://')}/ws/game/{uuid}/",
                                      additional_headers={"Origin": base, "Cookie": p.cookie},
                                      open_timeout=CONNECT_TIMEOUT, max_size=2 ** 22,
                                      ping_interval=None)
        seats.append(Seat(ws, tally))
    try:
        await asyncio.gather(*(s.shown(0) for s in seats))
        n = 0
        while time.monotonic() < deadline:
            latest = max(seats, key=lambda s: s.version)
            state = latest.state
            if state is None or state.get("outcome") or state.get("side_to_move") is None:
                tally.finished += 1
                return
            mover = seats[0 if state["side_to_move"] == "I" else 1]
            await mover.shown(latest.version)
            await asyncio.sleep(rng.uniform(0, 2 * think))
            action, step = bench_load.choose_step(mover.state, rng)
            n += 1
            seq = f"{uuid[:8]}-{n}"
            msg: dict[str, Any] = {"type": action, "version": mover.version, "seq": seq}
            if step is not None:
                msg["step"] = step
            reply = asyncio.get_running_loop().create_future()
            mover.replies[seq] = reply
            t = time.perf_counter()
            tally.sent += 1
            await mover.ws.send(json.dumps(msg))
            try:
                async with asyncio.timeout(REPLY_TIMEOUT):
                    answer = await reply
            except TimeoutError:
                tally.timeouts += 1
                return
            tally.round_trips.append(time.perf_counter() - t)
            if answer["type"] == "ack":
                tally.acked += 1
                await mover.shown(answer["version"])
            else:
                tally.refused[answer.get("code")] += 1
                await mover.ws.send(json.dumps({"type": "sync", "last_version": mover.version}))
                await asyncio.sleep(0.05)
    finally:
        for s in seats:
            await s.ws.close()
            s.task.cancel()


async def club(base: str, pairs: list[tuple[Player, Player]], tally: Tally, minutes: float,
               think: float, seed: int) -> None:
    deadline = time.monotonic() + minutes * 60

    async def pair_night(k: int, light: Player, dark: Player) -> None:
        rng = random.Random(seed * 1000 + k)
        await asyncio.sleep(rng.uniform(0, 2))  # people do not all arrive in one millisecond
        while time.monotonic() < deadline:
            uuid = await new_game(light, dark)
            if uuid is None:
                tally.lobby_failures += 1
                await asyncio.sleep(1)
                continue
            tally.started += 1
            await play(base, uuid, (light, dark), tally, deadline, think, rng)

    await asyncio.gather(*(pair_night(k, a, b) for k, (a, b) in enumerate(pairs)))
    for a, b in pairs:
        await a.http.aclose()
        await b.http.aclose()


def tree_python(tree: Path) -> str:
    own = tree / ".venv" / "bin" / "python"
    return str(own) if own.exists() else sys.executable


def run_tree(tree: Path, args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="club-night-"))
    python = tree_python(tree)
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "TALU_KEYRING")
           and not k.startswith("TALU_RATE_")}
    env.update(DATABASE_URL=f"sqlite:///{tmp / 'talu.sqlite3'}", TALU_KEYRING=str(tmp / "kr"),
               PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1", LOG_LEVEL="WARNING",
               # A bot club opens a challenge a minute per pair, all from this one address;
               # people open fewer, from addresses of their own.
               TALU_RATE_CHALLENGE="off", TALU_RATE_CHALLENGE_ADDRESS="off")
    subprocess.run([python, "manage.py", "migrate", "--noinput", "-v0"], cwd=tree, env=env,
                   check=True, timeout=300)
    names = [f"club{k}{side}" for k in range(args.games) for side in "io"]
    made = subprocess.run([python, "-c", bench_endings.SESSIONS_SCRIPT], cwd=tree, env=env,
                          input=json.dumps(names), capture_output=True, text=True, timeout=600)
    if made.returncode != 0:
        raise RuntimeError(made.stdout + made.stderr)
    sessions = json.loads(made.stdout.strip().splitlines()[-1])
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log_path = tmp / "serve.log"
    with open(log_path, "w") as log:
        server = subprocess.Popen(
            [python, "-m", "talu_site.serve", "-b", "127.0.0.1", "-p", str(port),
             "--websocket_connect_timeout", "30", "talu_site.asgi:application"],
            cwd=tree, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                login = httpx.get(base + "/accounts/login/", timeout=5)
                csrf = login.cookies["csrftoken"]
                break
            except (httpx.HTTPError, KeyError):
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the server did not start:\n"
                                       + log_path.read_text()) from None
                time.sleep(0.3)
        tally = Tally()
        players = [Player(base, n, sessions[n], csrf, tally) for n in names]
        pairs = list(zip(players[::2], players[1::2], strict=True))
        t0 = time.monotonic()
        asyncio.run(club(base, pairs, tally, args.minutes, args.think, args.seed))
        elapsed = time.monotonic() - t0
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        subprocess.run(["gpgconf", "--homedir", str(tmp / "kr"), "--kill", "gpg-agent"],
                       capture_output=True, check=False)
    text = log_path.read_text(errors="replace")
    rt = tally.round_trips
    return {
        "tree": str(tree), "games_at_once": args.games, "minutes": args.minutes,
        "think": args.think, "elapsed_s": round(elapsed, 1),
        "http": dict(sorted(tally.http.items())),
        "http_5xx": sum(n for s, n in tally.http.items() if s >= 500),
        "http_5xx_where": dict(Counter(tally.http_errors)),
        "steps_sent": tally.sent, "steps_acked": tally.acked,
        "steps_refused": dict(tally.refused), "busy": tally.refused.get("busy", 0),
        "socket_errors": dict(tally.socket_errors), "reply_timeouts": tally.timeouts,
        "steps_per_s": round(tally.acked / elapsed, 1) if elapsed else None,
        "round_trip": {k: round(v, 1) if isinstance(v, float) else v
                       for k, v in bench_endings.spread(rt).items()},
        "games_started": tally.started, "games_finished": tally.finished,
        "lobby_failures": tally.lobby_failures,
        "log_tracebacks": text.count("Traceback"),
        "log_database_locked": text.count("database is locked"),
    }


def report(results: list[dict[str, Any]]) -> str:
    rows = [("tree", "tree"), ("HTTP 5xx", "http_5xx"), ("steps acked", "steps_acked"),
            ("busy", "busy"), ("steps refused", "steps_refused"),
            ("socket errors", "socket_errors"), ("steps/s", "steps_per_s"),
            ("step round trip", "round_trip"), ("games started", "games_started"),
            ("games finished", "games_finished"), ("lobby failures", "lobby_failures"),
            ("log tracebacks", "log_tracebacks"), ("'database is locked'", "log_database_locked"),
            ("HTTP answers", "http")]
    out = []
    for label, key in rows:
        out.append(f"{label:22} " + " | ".join(str(r[key]) for r in results))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", action="append", type=Path,
                        help="a source tree to serve (repeatable; default this checkout)")
    parser.add_argument("--games", type=int, default=12, help="games at once (default 12)")
    parser.add_argument("--minutes", type=float, default=3.0, help="per tree (default 3)")
    parser.add_argument("--think", type=float, default=0.25,
                        help="mean seconds before each step (default 0.25)")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args(argv)
    if args.games < 1 or args.minutes <= 0 or args.think < 0:
        parser.error("--games at least 1, --minutes above 0, --think not negative")
    results = [run_tree(tree.resolve(), args) for tree in (args.tree or [ROOT])]
    print(report(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
