"""Game endings under load (issue 19): do games ending disturb the games still being played?

    .venv/bin/python benchmarks/bench_endings.py                        # this tree (~3 min)
    .venv/bin/python benchmarks/bench_endings.py --baseline ../old --candidate .   # A B A B
    .venv/bin/python benchmarks/bench_endings.py --tree ../old --tree . --quick    # smoke run
    .venv/bin/python benchmarks/bench_endings.py --json endings.json              # raw figures

Needs PostgreSQL (``TALU_TEST_DATABASE_URL``, default postgres://postgres@127.0.0.1:5432/test,
on whose server a throw-away database is made per round) and the ``redis-server`` binary.

Why side by side: the issue moves a game's end (signed records, tally, ratings under a global
advisory lock) out of the step that ends it, and asks that the other games' p99 step round trip
not rise. On the shared 2-core machines a p99 moves by more than that from one minute to the
next, so the two versions are measured in one run, alternately (baseline, candidate, baseline,
candidate with ``--rounds 2``), each round on a fresh stack, and compared in one table.

Each round starts the stack from one source TREE (``--tree``, repeatable, or ``--baseline`` and
``--candidate``; default this checkout) through the cluster harness (``tests/cluster/
harness.py``): a fresh migrated database, a private Redis and ``--servers`` daphne processes,
all running that tree's code (working directory the tree, ``PYTHONPATH`` the tree, and the
tree's ``.venv/bin/python`` when it has one), with production settings (``DEBUG=false``, the
20 s heartbeat). A tree that has ``play/management/commands/play_worker.py`` (the redesign,
where a separate worker ends games after commit) also gets ``--workers`` worker processes
(``manage.py play_worker``), with the servers' environment; the old design has none.

Nothing of the tree's Python is imported here: the accounts and their sessions are made by a
small script run with the tree's interpreter (Django's own user and session API, as a login
makes them: signing up over HTTP would hash a password per account, minutes of CPU per round),
and every game by the lobby over HTTP, as people make them: player I opens a rated standard
challenge naming player O (``POST /challenges/new/``, with the CSRF cookie), player O finds it
in ``/lobby/state.json`` and accepts it (``POST /challenges/<id>/accept/``), which redirects to
the game. Every game is between two accounts of its own, so ratings move at every end.

Load: ``--games`` games, each with its two players connected to ``/ws/game/<uuid>/?ack=inline``
with their session cookies (I and O on different processes when there are two), the side to
move sending legal steps taken from the server's ``state.legal_steps`` at ``--rate`` steps/s in
all, on a fixed schedule like ``bench_load``'s fixed-rate phase: one step in flight per game, a
player moving once its own socket has shown it the current version, a step due while the
previous one is still open sent as soon as that closes (``late``). The steps are quiet play
(``choose_quiet_step``): no captures but the honour ones, pieces kept off the last two ranks,
forward turns and backward turns in alternation (so that no arbiter flags the game): such a
game lasts 700 steps and more (about six minutes at 2 steps/s), so games end when the schedule
ends them, not by play; one that ends by play anyway is replaced and counted.

Endings: ``--endings-per-minute`` games end per minute, evenly spaced (``ending_times``): at
each time a game chosen at random among those playing resigns (``{"type": "resign", "seq"}``:
the opponent wins by decision; the records are written and signed, the game tallied and both
players rated, as at any finish), sent by its player to move at the game's next slot of the
schedule. At its acknowledgement the game is replaced by a new one between two new players, on
new sockets, made before the round (or, if those run out, over HTTP during it, counted), so the
load stays at ``--games`` games; the finished game's sockets stay open until its records
arrive: the first message on either socket whose ``game.records`` is non-empty (the final
``update`` in the old design, a later ``{"type": "game"}`` message in the new one).

Measured in a ``--seconds`` window after a ``--warmup`` (endings run through both): for the
games not ending, every step's round trip from sending to the sender's ``ack`` and to the
``update`` reaching the opponent (p50, p99, max, count; p99 also split into steps whose round
trip overlapped some game's ending, from its resignation being sent until its records arrived
or it was acknowledged, whichever is later, and the others); steps/s done; late, rejected and
errors; for the endings: resignation to ``ack``, ``ack`` to records, resignation to records
(p50, p99, max; records that never came within ``--records-timeout`` counted as missing); the
server processes' CPU (daphne and workers) per step in the window; tracebacks in their logs.
Figures of a tree pool the samples of all its rounds; the JSON file has every round's own.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import concurrent.futures
import contextlib
import datetime as dt
import gc
import http.client
import json
import math
import os
import platform
import random
import re
import secrets
import signal
import subprocess
import sys
import time
import traceback
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import orjson
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.cluster.harness import Cluster, ClusterUnavailable, tree_python  # noqa: E402

CONNECT_TIMEOUT = 30
WORKER_COMMAND = Path("play/management/commands/play_worker.py")

# --- the pure accounting (tests/benchmarks/test_endings_accounting.py) ------------------------


def pct(values: list[float], q: float) -> float | None:
    """The nearest-rank percentile (the smallest value with at least ``q`` of the values at or
    below it), as bench_load reports: no interpolation between two round trips, so a p99 is
    a round trip that happened."""
    if not values:
        return None
    v = sorted(values)
    return v[min(len(v) - 1, max(0, math.ceil(q * len(v)) - 1))]


def spread(values: list[float]) -> dict[str, float | int | None]:
    """p50, p99 and max in ms of round trips in seconds, and how many there were."""
    ms = 1000.0
    return {"p50_ms": None if not values else pct(values, 0.5) * ms,
            "p99_ms": None if not values else pct(values, 0.99) * ms,
            "max_ms": None if not values else max(values) * ms, "count": len(values)}


def ending_times(per_minute: float, start: float, stop: float, phase: float) -> list[float]:
    """When games end: every ``60 / per_minute`` seconds from ``start + phase`` until ``stop``.

    Evenly spaced, not a Poisson stream: the issue's "20 per minute" is then 20 in every
    minute, so each round and each tree gets the same number of endings and the comparison is
    not one of luck. ``phase`` (in [0, period)) keeps the endings off the steps' own schedule.
    """
    if per_minute <= 0:
        return []
    period = 60.0 / per_minute
    times = []
    t = start + phase
    while t < stop:
        times.append(t)
        t += period
    return times


def merge_intervals(intervals: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The union of closed intervals, sorted and disjoint."""
    out: list[tuple[float, float]] = []
    for lo, hi in sorted(intervals):
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def overlaps(merged: list[tuple[float, float]], lo: float, hi: float) -> bool:
    """Whether [lo, hi] meets any of ``merged`` (from ``merge_intervals``)."""
    i = bisect.bisect_right(merged, (hi, math.inf))  # intervals starting at or before hi
    return i > 0 and merged[i - 1][1] >= lo


def split_by_endings(samples: list[tuple[float, float]],
                     endings: list[tuple[float, float]]) -> tuple[list[float], list[float]]:
    """Round trips (send time, seconds) split into those that overlapped some ending's
    interval and the others: what an ending does to a step in flight beside it."""
    merged = merge_intervals(endings)
    during, outside = [], []
    for t, rt in samples:
        (during if overlaps(merged, t, t + rt) else outside).append(rt)
    return during, outside


def choose_quiet_step(state: dict[str, Any], rng: random.Random,
                      depth: int = 2) -> tuple[str, dict | None]:
    """A legal step from the server's state that keeps the game going: honour captures (the
    rules make them due), chains closed, otherwise moves kept off the last ``depth`` ranks, in
    odd rounds towards the goal row and in even ones away from it.

    Why: bench_load's step choice (captures preferred) ends a standard game in about 160 steps,
    80 s at 2 steps/s, which at 100 games would be some 70 endings a minute by play, swamping
    the 20 the schedule asks for. No invasion can happen here (the goal row is never entered),
    no elimination (nothing is taken but what the honour rule demands), and the alternation
    makes every other turn come nearer the goal row, so the arbiter never flags the game for
    non-engagement (R14) and turns rarely count as passes (R12); what ends such a game is a
    repeated position (R13) after 700 steps or more (the rules engine, offline)."""
    side = state["side_to_move"]
    ranks = state.get("ranks", 8)
    up = 1 if side == "I" else -1
    honor = state.get("honor_targets") or ()

    def inside(s: dict) -> bool:
        r = int(s["to"][1:])
        return r <= ranks - depth if side == "I" else r > depth

    def rise(s: dict) -> int:
        return (int(s["to"][1:]) - int(s["from"][1:])) * up

    want = 1 if state.get("round", 0) % 2 == 0 else -1
    caps: list[dict] = []
    hcaps: list[dict] = []
    closers: list[dict] = []
    moves: list[dict] = []
    can_end = False
    for s in state["legal_steps"]:
        kind = s["kind"]
        if kind == "move":
            moves.append(s)
        elif kind == "capture":
            caps.append(s)
            if s["to"] in honor:
                hcaps.append(s)
        elif kind in ("exit", "stay"):
            closers.append(s)
        elif kind == "end":
            can_end = True
    if hcaps:
        return "step", rng.choice(hcaps)
    if closers:
        ok = [s for s in closers if s["kind"] == "stay" or inside(s)]
        return "step", rng.choice(ok or closers)
    safe = [s for s in moves if inside(s)]
    for pick in ([s for s in safe if rise(s) * want > 0], [s for s in safe if rise(s) == 0],
                 safe, moves, caps):
        if pick:
            return "step", rng.choice(pick)
    if can_end:
        return "end", None
    return "pass", None


def compare(columns: list[tuple[str, dict[str, Any]]]) -> str:
    """One table: a row per metric, a column per tree (its rounds pooled), and each later
    tree's ratio to the first (candidate / baseline; below 1 is less time)."""
    rows: list[tuple[str, str, str]] = [
        ("steps/s done (offered)", "steps_per_s", "rate"),
        ("step round trip p50, ms", "rt.p50_ms", "ms"),
        ("step round trip p99, ms", "rt.p99_ms", "ms"),
        ("step round trip max, ms", "rt.max_ms", "ms"),
        ("round trips measured", "rt.count", "n"),
        ("sender ack p99, ms", "ack.p99_ms", "ms"),
        ("opponent update p99, ms", "recv.p99_ms", "ms"),
        ("p99 of round trips beside an ending, ms (count)", "during.p99_ms", "ms+during"),
        ("p99 of the other round trips, ms (count)", "outside.p99_ms", "ms+outside"),
        ("late / rejected / errors", "late", "faults"),
        ("endings in the window: resigned + by play", "endings", "endings"),
        ("resignation to ack p50, ms", "resign_ack.p50_ms", "ms"),
        ("resignation to ack p99, ms", "resign_ack.p99_ms", "ms"),
        ("ack to records p50, ms", "ack_records.p50_ms", "ms"),
        ("ack to records p99, ms", "ack_records.p99_ms", "ms"),
        ("resignation to records p99, ms", "resign_records.p99_ms", "ms"),
        ("records missing", "records_missing", "n"),
        ("server CPU per step, ms (daphne + workers)", "cpu_ms_per_step", "ms"),
        ("load generator CPU per step, ms", "client_cpu_ms_per_step", "ms"),
        ("tracebacks in server logs", "tracebacks", "n"),
    ]

    def get(fig: dict[str, Any], key: str) -> Any:
        for part in key.split("."):
            fig = fig.get(part) if isinstance(fig, dict) else None
        return fig

    def cell(fig: dict[str, Any], key: str, fmt: str) -> str:
        v = get(fig, key)
        if fmt == "rate":
            return f"{fig['steps_per_s']:.1f} ({fig['offered']:.0f})"
        if fmt in ("ms+during", "ms+outside"):
            n = get(fig, key.split(".")[0] + ".count")
            return "-" if v is None else f"{v:.1f} ({n})"
        if fmt == "faults":
            return f"{fig['late']} / {fig['rejected_total']} / {fig['errors_total']}"
        if fmt == "endings":
            return f"{fig['resigned']} + {fig['by_play']}"
        if v is None:
            return "-"
        return f"{v:.1f}" if fmt == "ms" else f"{v}"

    def ratio(a: dict[str, Any], b: dict[str, Any], key: str, fmt: str) -> str:
        if fmt not in ("ms", "rate", "ms+during", "ms+outside"):
            return ""
        x, y = get(a, key), get(b, key)
        if not x or y is None:
            return "-"
        return f"{y / x:.2f}"

    names = [name for name, _ in columns]
    head = ["metric", *names] + [f"{n} / {names[0]}" for n in names[1:]]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    first = columns[0][1]
    for label, key, fmt in rows:
        cells = [cell(fig, key, fmt) for _, fig in columns]
        ratios = [ratio(first, fig, key, fmt) for _, fig in columns[1:]]
        lines.append("| " + " | ".join([label, *cells, *ratios]) + " |")
    return "\n".join(lines)


def pool(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """One tree's figures over its rounds: percentiles of the pooled samples, counts summed,
    rates averaged."""
    def cat(key: str) -> list[float]:
        return [x for r in rounds for x in r["samples"][key]]

    rt = cat("ack") + cat("recv")
    endings = [e for r in rounds for e in r["endings"] if e["in_window"]]
    resigned = [e for e in endings if e["by"] == "resign"]
    acked = [e for e in resigned if e["ack"] is not None]
    with_records = [e for e in acked if e["records"] is not None]
    seconds = sum(r["window_s"] for r in rounds)
    rejected: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    for r in rounds:
        rejected.update(r["rejected"])
        errors.update(r["errors"])
    steps = sum(r["sent"] for r in rounds)
    return {
        "rounds": len(rounds), "offered": rounds[0]["offered"],
        "steps_per_s": sum(r["done"] for r in rounds) / seconds if seconds else 0.0,
        "rt": spread(rt), "ack": spread(cat("ack")), "recv": spread(cat("recv")),
        "during": spread(cat("during")), "outside": spread(cat("outside")),
        "late": sum(r["late"] for r in rounds),
        "rejected": dict(rejected), "errors": dict(errors),
        "rejected_total": sum(rejected.values()), "errors_total": sum(errors.values()),
        "resigned": len(resigned), "by_play": len(endings) - len(resigned),
        "resign_ack": spread([e["ack"] - e["sent"] for e in acked]),
        "ack_records": spread([max(0.0, e["records"] - e["ack"]) for e in with_records]),
        "resign_records": spread([e["records"] - e["sent"] for e in with_records]),
        "records_missing": len(acked) - len(with_records),
        "cpu_ms_per_step": (1000 * sum(r["cpu_s"] for r in rounds) / steps) if steps else None,
        "client_cpu_ms_per_step": ((1000 * sum(r["client_cpu_s"] for r in rounds) / steps)
                                   if steps else None),
        "tracebacks": sum(r["tracebacks"] for r in rounds),
        "games_made_during": sum(r["games_made_during"] for r in rounds),
    }


# --- accounts, sessions and games: the tree's own code, in its processes ---------------------

# Run with the tree's interpreter and the stack's environment: Django's user and session API
# only (stable across versions of the site), as a login makes a session.
SESSIONS_SCRIPT = r"""
import json, os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "talu_site.settings")
import django
django.setup()
from importlib import import_module
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth import get_user_model
User = get_user_model()
Store = import_module(settings.SESSION_ENGINE).SessionStore
out = {}
for name in json.load(sys.stdin):
    user = User(username=name)
    user.set_unusable_password()
    user.save()
    s = Store()
    s[SESSION_KEY] = str(user.pk)
    s[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    s[HASH_SESSION_KEY] = user.get_session_auth_hash()
    s.create()
    out[name] = s.session_key
json.dump(out, sys.stdout)
"""


def make_sessions(cluster: Cluster, names: list[str]) -> dict[str, str]:
    """Accounts ``names`` in the stack's database and a logged-in session cookie each."""
    proc = subprocess.run([cluster.python, "-c", SESSIONS_SCRIPT], cwd=cluster.root,
                          env=cluster.env(), input=json.dumps(names), capture_output=True,
                          text=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"making accounts failed:\n{proc.stdout}{proc.stderr}")
    keys = json.loads(proc.stdout.strip().splitlines()[-1])
    return {name: f"sessionid={key}" for name, key in keys.items()}


class Lobby:
    """The lobby over HTTP, as a browser uses it: a rated challenge naming the opponent, which
    the opponent accepts; the game's uuid from the redirect."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.csrf = self._csrf_token()

    def _request(self, method: str, path: str, cookie: str = "",
                 form: dict[str, str] | None = None) -> http.client.HTTPResponse:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Host": f"127.0.0.1:{self.port}"}
        body = None
        if cookie:
            headers["Cookie"] = cookie
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        resp.body = resp.read()  # type: ignore[attr-defined]
        conn.close()
        return resp

    def _csrf_token(self) -> str:
        """The CSRF cookie the login page sets (cookie-based CSRF: one token serves every
        account of the run, as it would serve every tab of one browser)."""
        resp = self._request("GET", "/accounts/login/")
        for name, value in resp.getheaders():
            if name.lower() == "set-cookie" and value.startswith("csrftoken="):
                return value.split(";", 1)[0].split("=", 1)[1]
        raise RuntimeError(f"no CSRF cookie from /accounts/login/ (HTTP {resp.status})")

    def new_game(self, light: tuple[str, str], dark: tuple[str, str]) -> str:
        """A rated standard game: ``light`` (name, cookie) plays I, ``dark`` O."""
        (name_i, cookie_i), (name_o, cookie_o) = light, dark
        csrf = f"csrftoken={self.csrf}"
        resp = self._request("POST", "/challenges/new/", f"{cookie_i}; {csrf}", {
            "csrfmiddlewaretoken": self.csrf, "variant": "standard", "rated": "1", "side": "I",
            "opponent": name_o})
        if resp.status != 302:
            raise RuntimeError(f"challenge by {name_i}: HTTP {resp.status}")
        resp = self._request("GET", "/lobby/state.json", cookie_o)
        ids = [c["id"] for c in json.loads(resp.body)["challenges"]  # type: ignore[attr-defined]
               if c["creator"] == name_i and c["opponent"] == name_o]
        if not ids:
            raise RuntimeError(f"{name_o} does not see the challenge of {name_i}")
        resp = self._request("POST", f"/challenges/{ids[-1]}/accept/", f"{cookie_o}; {csrf}",
                             {"csrfmiddlewaretoken": self.csrf})
        m = re.search(r"/games/([0-9a-f-]{36})/", resp.getheader("Location") or "")
        if resp.status != 302 or not m:
            raise RuntimeError(f"accepting {name_i}'s challenge: HTTP {resp.status} "
                               f"{resp.getheader('Location')}")
        return m.group(1)


@dataclass
class GameSpec:
    """A game made in the lobby, with its players' names and session cookies (I, O)."""

    uuid: str
    names: tuple[str, str]
    cookies: tuple[str, str]


class Games:
    """Games between pairs of new accounts: made before the round, and more during it if the
    spares run out (counted: the lobby's work then falls inside the measurement)."""

    def __init__(self, cluster: Cluster, tag: str) -> None:
        self.cluster = cluster
        self.tag = tag
        self.lobby = Lobby(cluster.servers[0].port)
        self.made = 0
        self.made_during = 0
        self.spares: list[GameSpec] = []

    def make(self, n: int, threads: int = 4) -> list[GameSpec]:
        names = [f"{self.tag}-{self.made + i}-{side}" for i in range(n) for side in "io"]
        cookies = make_sessions(self.cluster, names)
        pairs = [(names[2 * i], names[2 * i + 1]) for i in range(n)]
        self.made += n

        def one(pair: tuple[str, str]) -> GameSpec:
            i, o = pair
            uuid = self.lobby.new_game((i, cookies[i]), (o, cookies[o]))
            return GameSpec(uuid, pair, (cookies[i], cookies[o]))

        with concurrent.futures.ThreadPoolExecutor(threads) as pool:
            return list(pool.map(one, pairs))

    async def next(self) -> GameSpec:
        if not self.spares:
            self.made_during += 1
            return (await asyncio.to_thread(self.make, 1, 1))[0]
        return self.spares.pop()


# --- the load ----------------------------------------------------------------------------------


class _Event(msgspec.Struct):
    version: int


class _Frame(msgspec.Struct):
    """What the client reads of a frame on a game socket: the state and the game's metadata
    stay raw JSON until needed (the client shares the two cores with the servers). Lenient
    where a message of another type (the redesign's ``game``, say) might differ."""

    type: str
    from_version: int | None = -1
    version: int | None = -1
    events: list[_Event] | None = None
    state: msgspec.Raw = msgspec.Raw(b"null")
    game: msgspec.Raw = msgspec.Raw(b"null")
    ack: dict[str, Any] | None = None


_decode_frame = msgspec.json.Decoder(_Frame).decode


def has_records(game_raw: bytes | msgspec.Raw) -> bool:
    """Whether a message's ``game`` lists records. Only a finished game has any, so the JSON
    is parsed only when the word is there at all."""
    data = bytes(game_raw)
    if b"finished" not in data:
        return False
    game = orjson.loads(data)
    return bool(isinstance(game, dict) and game.get("records"))


@dataclass
class Ending:
    """One game's end: when its resignation (or finishing step) was sent, acknowledged, and
    when its records first reached one of its sockets (``time.perf_counter`` seconds)."""

    game: str
    by: str  # resign | play
    sent: float
    seq: str = ""
    ack: float | None = None
    records: float | None = None

    def interval(self, timeout: float) -> tuple[float, float]:
        end = max(x for x in (self.sent, self.ack, self.records) if x is not None)
        if self.records is None:
            end = max(end, self.sent + timeout)
        return self.sent, end


@dataclass
class Run:
    """Everything one round measures."""

    lo: float = 0.0
    hi: float = 0.0
    ack: list[tuple[float, float]] = field(default_factory=list)  # (send time, seconds)
    recv: list[tuple[float, float]] = field(default_factory=list)
    done: int = 0
    sent: int = 0
    late: int = 0
    rejected: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    endings: list[Ending] = field(default_factory=list)
    finishing: set[float] = field(default_factory=set)  # send times of steps that ended games

    def counts(self, t: float) -> bool:
        return self.lo <= t < self.hi


class GameConn:
    """One game's two player sockets; the side to move sends."""

    def __init__(self, spec: GameSpec, bases: list[str], index: int, run: Run,
                 rng: random.Random) -> None:
        self.spec = spec
        self.bases = bases
        self.index = index
        self.run = run
        self.rng = rng
        self.nonce = secrets.token_hex(4)
        self.seq = 0
        self.version = 0
        self.state: dict[str, Any] | msgspec.Raw | None = None
        self.sent_at: dict[int, tuple[float, int]] = {}
        self.ack_at: dict[str, float] = {}
        self.seen = [0, 0]
        self.shown = [asyncio.Event(), asyncio.Event()]
        self.waiter: asyncio.Future | None = None
        self.expect = 0
        self.sockets: list[Any] = []
        self.readers: list[asyncio.Task] = []
        self.ending: Ending | None = None
        self.records_at: float | None = None
        self.records_seen = asyncio.Event()
        self.last_ack: tuple[str, float] = ("", 0.0)  # seq, arrival

    async def open(self) -> None:
        opened = await asyncio.gather(*(self._open_one(k) for k in range(2)))
        self.sockets = [ws for ws, _ in opened]
        for k, (_, first) in enumerate(opened):
            self.seen[k] = first["version"]
            if first["version"] >= self.version:
                self.version, self.state = first["version"], first["state"]
        self.readers = [asyncio.create_task(self.read(k, ws)) for k, ws in enumerate(self.sockets)]

    async def _open_one(self, k: int) -> tuple[Any, dict[str, Any]]:
        base = self.bases[(self.index + k) % len(self.bases)]
        ws = await websockets.connect(
            f"ws://{base}/ws/game/{self.spec.uuid}/?ack=inline",
            additional_headers={"Origin": f"http://{base}", "Cookie": self.spec.cookies[k]},
            open_timeout=CONNECT_TIMEOUT, max_size=2 ** 22, ping_interval=None,
            compression=None)
        while True:
            msg = orjson.loads(await asyncio.wait_for(ws.recv(), CONNECT_TIMEOUT))
            if msg["type"] == "update":
                return ws, msg
            if msg["type"] == "error":
                raise RuntimeError(f"game socket refused: {msg}")

    async def close(self) -> None:
        for t in self.readers:
            t.cancel()
        await asyncio.gather(*(ws.close() for ws in self.sockets), return_exceptions=True)

    async def read(self, k: int, ws: Any) -> None:
        run = self.run
        try:
            async for raw in ws:
                t = time.perf_counter()
                try:
                    frame = _decode_frame(raw)
                except msgspec.ValidationError:  # not a shape we know: records only
                    run.errors["unexpected_message"] += 1
                    msg = orjson.loads(raw)
                    game = msg.get("game") if isinstance(msg, dict) else None
                    frame = _Frame(type="?", game=msgspec.Raw(orjson.dumps(game)))
                if self.records_at is None and has_records(frame.game):
                    self.records_at = t
                    if self.ending is not None:
                        self.ending.records = t
                    self.records_seen.set()
                if frame.type == "update" and frame.version is not None:
                    for ev in frame.events or ():
                        sent = self.sent_at.get(ev.version)
                        if sent and sent[1] != k and run.counts(sent[0]) and self.ending is None:
                            run.recv.append((sent[0], t - sent[0]))
                    v = frame.version
                    self.seen[k] = max(self.seen[k], v)
                    self.shown[k].set()
                    if v >= self.version:
                        self.version, self.state = v, frame.state
                    if self.waiter and not self.waiter.done() and v >= self.expect:
                        self.waiter.set_result(True)
                    if frame.ack is not None:
                        self.acked(frame.ack, t)
                    continue
                if frame.type in ("game", "?"):  # the new design's late metadata (records)
                    continue
                msg = orjson.loads(raw)
                kind = msg["type"]
                if kind == "ack":
                    self.acked(msg, t)
                elif kind == "rejected":
                    run.rejected[msg.get("code", "?")] += 1
                    self.ack_at.pop(str(msg.get("seq")), None)
                    if self.waiter and not self.waiter.done():
                        self.waiter.set_result(False)
                elif kind == "error":
                    run.errors[msg.get("code", "?")] += 1
        except websockets.ConnectionClosed:
            pass
        except Exception as exc:  # a bug of the client: counted and shown, not swallowed
            run.errors["client_reader"] += 1
            if run.errors["client_reader"] == 1:
                traceback.print_exception(exc, file=sys.stderr)

    def acked(self, ack: dict[str, Any], t: float) -> None:
        """The sender's round trip, or the acknowledgement of the game's ending."""
        seq = str(ack.get("seq"))
        sent = self.ack_at.pop(seq, None)
        if sent is None:
            return
        self.last_ack = (seq, t)
        if self.ending is not None and seq == self.ending.seq:
            self.ending.ack = t
            if self.waiter and not self.waiter.done():
                self.waiter.set_result(True)
        elif self.run.counts(sent):
            self.run.ack.append((sent, t - sent))
            self.run.done += 1

    def current_state(self) -> dict[str, Any] | None:
        if isinstance(self.state, msgspec.Raw):
            self.state = orjson.loads(memoryview(self.state))
        return self.state  # type: ignore[return-value]

    def finished(self) -> bool:
        state = self.current_state()
        return state is None or state.get("outcome") is not None

    async def _send(self, k: int, msg: dict[str, Any],
                    expect: int | None) -> tuple[bool, float, str]:
        """Send on player ``k``'s socket and wait for the step's update on a player's socket
        (``expect``: its version) or, for a resignation, its ack; (applied, sent at, seq)."""
        self.seq += 1
        seq = f"{self.nonce}-{self.seq}"
        msg["seq"] = seq
        self.expect = expect if expect is not None else 1 << 62
        self.waiter = asyncio.get_running_loop().create_future()
        t = time.perf_counter()
        if expect is not None:
            self.sent_at[expect] = (t, k)
        self.ack_at[seq] = t
        if msg["type"] == "resign":
            self.ending = Ending(self.spec.uuid, "resign", t, seq)
        await self.sockets[k].send(orjson.dumps(msg).decode())
        async with asyncio.timeout(30):
            return await self.waiter, t, seq

    async def step_once(self) -> None:
        state = self.current_state()
        assert state is not None
        k = 0 if state["side_to_move"] == "I" else 1
        while self.seen[k] < self.version:  # a player knows the game from its own socket
            self.shown[k].clear()
            async with asyncio.timeout(30):
                await self.shown[k].wait()
        action, step = choose_quiet_step(state, self.rng)
        msg: dict[str, Any] = {"type": action, "version": self.version}
        if step is not None:
            msg["step"] = step
        if self.run.counts(time.perf_counter()):
            self.run.sent += 1
        ok, t, seq = await self._send(k, msg, self.version + 1)
        if ok and self.finished():
            # This step ended the game: its round trips are the ending's, not the other
            # games' (``Run.finishing`` keeps them out), and its ack, if already here, the
            # ending's ack (else ``acked`` sets it when it comes).
            self.run.finishing.add(t)
            self.ending = Ending(self.spec.uuid, "play", t, seq, records=self.records_at)
            if self.last_ack[0] == seq:
                self.ending.ack = self.last_ack[1]
        elif not ok:
            await self.sockets[k].send(
                orjson.dumps({"type": "sync", "last_version": self.version}).decode())
            await asyncio.sleep(0.05)

    async def resign(self) -> None:
        state = self.current_state()
        side = (state or {}).get("side_to_move") or "I"
        k = 0 if side == "I" else 1
        await self._send(k, {"type": "resign"}, None)


async def retire(conn: GameConn, timeout: float) -> None:
    """A finished game's sockets stay open until its records arrive (as its players' pages
    would), then close."""
    try:
        async with asyncio.timeout(timeout):
            await conn.records_seen.wait()
    except TimeoutError:
        pass
    await conn.close()


async def drive(slot: dict[str, Any], games: Games, bases: list[str], run: Run, end: float,
                per_slot_rate: float, rng: random.Random, retiring: list[asyncio.Task],
                records_timeout: float) -> None:
    """One slot's fixed schedule: a step every ``1 / per_slot_rate`` s, a resignation when the
    ending scheduler asks for one, a new game (new players, new sockets) after every end."""
    period = 1.0 / per_slot_rate
    nxt = time.perf_counter() + rng.random() * period
    while True:
        now = time.perf_counter()
        if nxt >= end:
            break
        if nxt > now:
            await asyncio.sleep(nxt - now)
        elif now - nxt > period:
            if run.counts(now):
                run.late += 1
            nxt = now
        conn: GameConn = slot["conn"]
        try:
            if slot["resign"] and not conn.finished():
                slot["resign"] = False
                await conn.resign()
            elif not conn.finished():
                await conn.step_once()
            if conn.ending is not None or conn.finished():
                if conn.ending is None:  # over by an event we did not send (should not be)
                    conn.ending = Ending(conn.spec.uuid, "play", time.perf_counter())
                slot["resign"] = False
                run.endings.append(conn.ending)
                retiring.append(asyncio.create_task(retire(conn, records_timeout)))
                new = GameConn(await games.next(), bases, slot["index"], run,
                               random.Random(rng.random()))
                await new.open()
                slot["conn"] = new
                nxt = time.perf_counter()
                continue
        except (TimeoutError, websockets.ConnectionClosed) as exc:
            if run.counts(time.perf_counter()):
                run.errors[type(exc).__name__] += 1
        nxt += period


async def schedule_endings(slots: list[dict[str, Any]], times: list[float],
                           rng: random.Random) -> None:
    """At each time, one game among those playing (not asked already) is asked to resign."""
    for t in times:
        await asyncio.sleep(max(0.0, t - time.perf_counter()))
        playing = [s for s in slots if not s["resign"] and s["conn"].ending is None]
        if playing:
            rng.choice(playing)["resign"] = True


async def run_load(specs: list[GameSpec], games: Games, bases: list[str], args: argparse.Namespace,
                   pids: list[int], rng: random.Random) -> dict[str, Any]:
    run = Run()
    slots = [{"index": i, "resign": False,
              "conn": GameConn(s, bases, i, run, random.Random(rng.random()))}
             for i, s in enumerate(specs)]
    for i in range(0, len(slots), 10):  # a handshake storm is not what is measured
        await asyncio.gather(*(s["conn"].open() for s in slots[i:i + 10]))
    t0 = time.perf_counter() + 0.5
    run.lo = t0 + args.warmup
    run.hi = run.lo + args.seconds
    end = run.hi
    period = 60.0 / args.endings_per_minute if args.endings_per_minute > 0 else 1.0
    times = ending_times(args.endings_per_minute, t0, end, rng.random() * period)
    retiring: list[asyncio.Task] = []
    per_slot = args.rate / len(slots)
    tasks = [asyncio.create_task(drive(s, games, bases, run, end, per_slot,
                                       random.Random(rng.random()), retiring,
                                       args.records_timeout))
             for s in slots]
    sched = asyncio.create_task(schedule_endings(slots, times, random.Random(rng.random())))
    await asyncio.sleep(max(0.0, run.lo - time.perf_counter()))
    cpu0, client0 = cpu_seconds(pids), time.process_time()
    await asyncio.sleep(max(0.0, run.hi - time.perf_counter()))
    cpu, client_cpu = cpu_seconds(pids) - cpu0, time.process_time() - client0
    outcomes = await asyncio.gather(*tasks, sched, return_exceptions=True)
    failed = [x for x in outcomes if isinstance(x, BaseException)]
    if failed:  # a bug of the client, not a measurement: say so, loudly
        run.errors["client_failure"] += len(failed)
        print("  the client failed in", len(failed), "slot(s); the first:", file=sys.stderr)
        traceback.print_exception(failed[0], file=sys.stderr)
    await asyncio.sleep(1.5)  # round trips sent in the window that close after it still count
    if retiring:  # records of the last endings
        await asyncio.wait(retiring, timeout=args.records_timeout + 5)
    for s in slots:
        await s["conn"].close()
    window_s = run.hi - run.lo
    intervals = [e.interval(args.records_timeout) for e in run.endings]
    run.ack = [s for s in run.ack if s[0] not in run.finishing]
    run.recv = [s for s in run.recv if s[0] not in run.finishing]
    run.done = len(run.ack)
    samples = run.ack + run.recv
    during, outside = split_by_endings(samples, intervals)
    endings = [{"game": e.game, "by": e.by, "sent": e.sent, "ack": e.ack, "records": e.records,
                "in_window": run.counts(e.sent)} for e in run.endings]
    return {
        "offered": args.rate, "window_s": window_s, "done": run.done, "sent": run.sent,
        "late": run.late, "rejected": dict(run.rejected), "errors": dict(run.errors),
        "cpu_s": cpu, "client_cpu_s": client_cpu, "load": os.getloadavg(),
        "samples": {"ack": [x for _, x in run.ack], "recv": [x for _, x in run.recv],
                    "during": during, "outside": outside},
        "trips": run.ack + run.recv,  # (send time, seconds), for a trace (bench_computer_wave)
        "endings": endings, "games_made_during": games.made_during,
    }


# --- one round: a stack from one tree ------------------------------------------------------------


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time the given processes have used so far (0 for one that is gone)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


class Workers:
    """The tree's ``play_worker`` processes (the redesign's game-end workers), when it has the
    command; started with the servers' environment and stopped before the stack."""

    def __init__(self, cluster: Cluster, n: int) -> None:
        self.cluster = cluster
        self.n = n if (cluster.root / WORKER_COMMAND).exists() else 0
        self.procs: list[subprocess.Popen] = []
        self.logs = [cluster.workdir / f"worker-{i}.log" for i in range(self.n)]

    def start(self) -> None:
        for log_path in self.logs:
            with open(log_path, "ab") as log:
                self.procs.append(subprocess.Popen(
                    [self.cluster.python, "manage.py", "play_worker"], cwd=self.cluster.root,
                    env=self.cluster.env(), stdout=log, stderr=subprocess.STDOUT))
        time.sleep(1.0 if self.procs else 0.0)
        for p, log_path in zip(self.procs, self.logs, strict=True):
            if p.poll() is not None:
                raise RuntimeError(f"play_worker exited with {p.returncode}:\n"
                                   f"{log_path.read_text(errors='replace')[-3000:]}")

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(10)

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]


def tracebacks(paths: list[Path]) -> int:
    n = 0
    for p in paths:
        with contextlib.suppress(OSError):
            n += p.read_text(errors="replace").count("Traceback")
    return n


def run_round(tree: Path, label: str, round_no: int, args: argparse.Namespace) -> dict[str, Any]:
    tag = f"e{round_no}{secrets.token_hex(2)}"
    env = {"TALU_WS_HEARTBEAT": "20", "SECRET_KEY": f"bench-endings-{tag}-not-a-secret"}
    for item in args.env:
        name, _, value = item.partition("=")
        env[name] = value
    t_setup = time.perf_counter()
    # The harness's own working directory (logs, keyring): removed at the end unless
    # TALU_CLUSTER_KEEP is set; the tracebacks in its logs are counted before that.
    # workers=0: the harness's own workers need the command, which the old design lacks;
    # ``Workers`` starts them only for a tree that has it.
    with Cluster(servers=args.servers, env=env, root=tree, workers=0) as cluster:
        workers = Workers(cluster, args.workers)
        try:
            workers.start()
            games = Games(cluster, tag)
            specs = games.make(args.games + args.spares)
            games.spares = specs[args.games:]
            print(f"  [{label}] stack of {tree} ({cluster.python}), {args.servers} server(s), "
                  f"{workers.n} worker(s); {len(specs)} games made in "
                  f"{time.perf_counter() - t_setup:.0f} s", flush=True)
            bases = [f"127.0.0.1:{s.port}" for s in cluster.servers]
            pids = [s.proc.pid for s in cluster.servers] + workers.pids
            gc.collect()
            gc.disable()  # a collection of the client's heap would be a pause in a round trip
            try:
                res = asyncio.run(run_load(specs[:args.games], games, bases, args, pids,
                                           random.Random(args.seed + round_no)))
            finally:
                gc.enable()
        finally:
            workers.stop()
        res["tracebacks"] = tracebacks([s.log for s in cluster.servers] + workers.logs)
        res.update({"tree": str(tree), "label": label, "round": round_no,
                    "python": cluster.python, "servers": args.servers, "workers": workers.n,
                    "workdir": str(cluster.workdir)})
    return res


def round_line(res: dict[str, Any]) -> str:
    rt = spread(res["samples"]["ack"] + res["samples"]["recv"])
    ends = [e for e in res["endings"] if e["in_window"]]
    resigned = [e for e in ends if e["by"] == "resign" and e["ack"] is not None]
    ra = spread([e["ack"] - e["sent"] for e in resigned])
    rr = spread([e["records"] - e["sent"] for e in resigned if e["records"] is not None])

    def f(v: float | None) -> str:
        return "-" if v is None else f"{v:.1f}"

    return (f"    done {res['done'] / res['window_s']:.1f}/s  p50 {f(rt['p50_ms'])} ms  "
            f"p99 {f(rt['p99_ms'])} ms  max {f(rt['max_ms'])} ms  ({rt['count']})  "
            f"endings {len(resigned)} resigned + {len(ends) - len(resigned)} other  "
            f"resign->ack p99 {f(ra['p99_ms'])} ms  resign->records p99 {f(rr['p99_ms'])} ms  "
            f"late {res['late']}  rejected {res['rejected']}  errors {res['errors']}  "
            f"tracebacks {res['tracebacks']}  server CPU {res['cpu_s']:.1f} s, load generator "
            f"{res['client_cpu_s']:.1f} s in the window; load average {res['load'][0]:.1f}")


def machine() -> dict[str, Any]:
    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")),
                       "")
    except OSError:
        pass
    return {"python": platform.python_version(), "cpu": cpu, "cores": os.cpu_count(),
            "load_before": os.getloadavg()}


def commit_of(tree: Path) -> str:
    out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=tree, capture_output=True,
                         text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=tree,
                           capture_output=True, text=True).stdout.strip()
    return (out.stdout.strip() or "?") + ("+changes" if dirty else "")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", action="append", type=Path, default=[],
                    help="a source tree to measure (repeatable; default: this checkout)")
    ap.add_argument("--baseline", type=Path, help="the first tree (old code)")
    ap.add_argument("--candidate", type=Path, help="the second tree (new code)")
    ap.add_argument("--rounds", type=int, help="rounds per tree, alternated (default 2 with "
                    "two or more trees, else 1; 1 with --quick)")
    ap.add_argument("--games", type=int, help="games played at once (default 100)")
    ap.add_argument("--rate", type=float, help="total steps/s offered (default 200)")
    ap.add_argument("--endings-per-minute", type=float, default=20.0)
    ap.add_argument("--seconds", type=float, help="measurement window, s (default 60)")
    ap.add_argument("--warmup", type=float, help="s before the window (default 10)")
    ap.add_argument("--servers", type=int, default=2, help="daphne processes")
    ap.add_argument("--workers", type=int, default=1,
                    help="play_worker processes, for a tree that has the command")
    ap.add_argument("--spares", type=int, help="replacement games made before each round "
                    "(default: enough for the scheduled endings, and a margin)")
    ap.add_argument("--records-timeout", type=float, default=30.0,
                    help="s to wait for an ended game's records")
    ap.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                    help="extra server environment")
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--quick", action="store_true", help="smoke run: 20 games, 40 steps/s, "
                    "5 s warm-up, 20 s window, one round per tree (options given explicitly "
                    "still win)")
    ap.add_argument("--json", type=Path, help="write every round's raw figures here")
    args = ap.parse_args(argv)
    defaults = ({"games": 20, "rate": 40.0, "seconds": 20.0, "warmup": 5.0} if args.quick
                else {"games": 100, "rate": 200.0, "seconds": 60.0, "warmup": 10.0})
    for name, value in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    trees = list(args.tree)
    if args.baseline or args.candidate:
        if trees or not (args.baseline and args.candidate):
            ap.error("give --baseline and --candidate together, or --tree (repeatable)")
        trees = [args.baseline, args.candidate]
    trees = [t.resolve() for t in trees] or [ROOT]
    for t in trees:
        if not (t / "manage.py").is_file():
            ap.error(f"{t} is not a source tree of the site (no manage.py)")
    args.trees = trees
    if args.rounds is None:
        args.rounds = 2 if len(trees) > 1 and not args.quick else 1
    for name in ("rounds", "games", "servers"):
        if getattr(args, name) < 1:
            ap.error(f"--{name} must be at least 1")
    if args.workers < 0:
        ap.error("--workers must not be negative")
    if args.rate <= 0 or args.seconds <= 0 or args.warmup < 0 or args.records_timeout <= 0:
        ap.error("--rate, --seconds and --records-timeout must be positive, --warmup not "
                 "negative")
    if args.endings_per_minute < 0:
        ap.error("--endings-per-minute must not be negative")
    if args.json and not args.json.parent.is_dir():
        ap.error(f"--json: no directory {args.json.parent}")
    if args.spares is None:
        planned = args.endings_per_minute * (args.warmup + args.seconds + 2) / 60
        args.spares = math.ceil(planned * 1.2) + 5
    elif args.spares < 0:
        ap.error("--spares must not be negative")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    trees = args.trees
    labels = (["baseline", "candidate"] if len(trees) == 2
              else [f"tree{i + 1}" for i in range(len(trees))] if len(trees) > 1 else ["current"])
    info = machine()
    info["commits"] = {label: commit_of(t) for label, t in zip(labels, trees, strict=True)}
    print(f"talu endings benchmark: {args.games} games at {args.rate:.0f} steps/s, "
          f"{args.endings_per_minute:g} endings/min, {args.warmup:g} s warm-up + "
          f"{args.seconds:g} s window, {args.rounds} round(s) per tree; trees "
          + ", ".join(f"{lb}={t} ({info['commits'][lb]}, python {tree_python(t)})"
                      for lb, t in zip(labels, trees, strict=True))
          + f"; load average {info['load_before']}", flush=True)
    rounds: list[dict[str, Any]] = []
    for r in range(args.rounds):
        for label, tree in zip(labels, trees, strict=True):
            print(f"round {r + 1}, {label}:", flush=True)
            res = run_round(tree, label, r, args)
            print(round_line(res), flush=True)
            rounds.append(res)
    columns = [(label, pool([x for x in rounds if x["label"] == label])) for label in labels]
    print()
    print(compare(columns))
    for label, fig in columns:
        if fig["games_made_during"]:
            print(f"{label}: {fig['games_made_during']} replacement games made during the "
                  f"rounds (no spare left; raise --spares)")
    print(f"\nload average after: {os.getloadavg()}")
    if args.json:
        results = {"when": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                   "command": " ".join([Path(sys.argv[0]).as_posix(), *(argv or sys.argv[1:])]),
                   "machine": {**info, "load_after": os.getloadavg()},
                   "params": {k: (str(v) if isinstance(v, Path) else v)
                              for k, v in vars(args).items() if k != "trees"},
                   "trees": {lb: str(t) for lb, t in zip(labels, trees, strict=True)},
                   "pooled": dict(columns), "rounds": rounds}
        args.json.write_text(json.dumps(results, indent=1, default=str))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ClusterUnavailable as exc:
        print(f"bench_endings: cannot start the stack: {exc}", file=sys.stderr)
        sys.exit(2)
