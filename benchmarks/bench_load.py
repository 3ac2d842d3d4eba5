"""Live play under load (issue 7): the game stack next to a bare broadcast relay, one run.

    .venv/bin/python benchmarks/bench_load.py                 # the recorded figures (~10 min)
    .venv/bin/python benchmarks/bench_load.py --quick         # a smoke run (~2 min)
    .venv/bin/python benchmarks/bench_load.py --json out.json # the raw figures as well

Needs PostgreSQL (``TALU_TEST_DATABASE_URL``, default postgres://postgres@127.0.0.1:5432/test,
on whose server a throw-away database is made) and the ``redis-server`` binary: the stack is
started by the cluster harness (``tests/cluster/harness.py``): a fresh migrated database, a
private Redis on a free port, a worker and the daphne processes, serving the site with the
benchmark relay in front (``benchmarks.relay:application``) and production settings
(``DEBUG=false``, default heartbeat).
The one-process figures use the first process only, the two-process figures both.

For each number of server processes, on fresh games (so that each configuration starts from
the same point), in this order so that machine noise hits both alike:

1. **relay, fixed rate**: ``--games`` groups of one sender and two listeners on the bare
   relay (``benchmarks/relay.py``: joins its group, relays every text frame, nothing else),
   ``--rate`` messages/s in all. The stack's floor: daphne + Channels + the Redis layer alone.
2. **stack, fixed rate**: ``--games`` games, each with its two players and ``--spectators``
   spectators connected to ``/ws/game/<uuid>/`` with real session cookies, the side to move
   sending ``--rate`` steps/s in all (legal steps chosen from the server's own
   ``state.legal_steps``, captures preferred, never a pass, so games end by play; a finished
   game is replaced by a new one between the same players).
3. **relay ramp** and 4. **stack ramp**: the same at rising total rates (``--ramp``) to find
   the most round trips per second each sustains (saturation); the default ramp reaches 2,800/s,
   past where the relay saturates with two processes (1,500-2,300/s on the 2-core machines
   measured). A side still doing what the top level offered was not saturated: the report
   says so, and its figure is only a lower bound.

Sockets are spread over the processes: with two, a game's players sit on different processes
(and so do a group's sender and listeners), so every step crosses the channel layer.

Every sender keeps at most one message in flight, as a player must (the next step names the
version the previous one produced), and a player moves only once its own socket has shown it
the current version, as a browser must: it sends at its slot of the fixed schedule or, when the
previous round trip is still open then, as soon as it closes (counted as ``late``). Offered
rates above what the server sustains therefore show as achieved < offered, not as a queue.

Measured, per phase: the **round trip** from a message being sent to (a) the sender's ``ack``
(relay: its own echo) and (b) the ``update`` carrying it (relay: the relayed frame) arriving at
each other client; **steps/s** completed in the measurement window; per receiving socket,
versions (relay: sequence numbers) **lost** (never arrived after a drain), **duplicated** and
**out of order**; rejections and errors. p50/p99 are over every receiver's arrival. Also
the daphne processes' CPU time inside each window per message sent (a cost figure that load
from elsewhere distorts far less than latency), the most Redis connections seen, and the
servers' channel-layer warnings ("over capacity", "Too many connections") from their logs.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import gc
import json
import math
import multiprocessing as mp
import os
import platform
import random
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any, TypedDict

import msgspec
import orjson
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.cluster.harness import Cluster, ClusterUnavailable  # noqa: E402

CONNECT_TIMEOUT = 30
# Replacement games made before each stack phase, per slot: the fixed phase ends almost none,
# the ramp to 2,800/s up to about four per slot (BENCHMARKS.md).
SPARES = {"stack_fixed": 1, "stack_ramp": 5}
# Seconds to wait at the end of a phase for every receiver to have every version before the
# missing ones count as lost: longer than the game sockets' heartbeat (20 s), which is what
# delivers a step whose broadcast the channel layer dropped when no later step follows it.
DRAIN = 25.0

# --- set-up: database, accounts, sessions, games (Django, in the parent process) ---------------


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "talu_site.settings")
    import django

    django.setup()


def session_cookie(user) -> str:
    """A logged-in session of ``user`` in the site's session store (the cache in front of the
    database too, when the site has one), as a login would make it."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    s = import_module(settings.SESSION_ENGINE).SessionStore()
    s[SESSION_KEY] = str(user.pk)
    s[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    s[HASH_SESSION_KEY] = user.get_session_auth_hash()
    s.create()
    return f"sessionid={s.session_key}"


def make_slots(n: int, spectators: int, tag: str) -> list[dict[str, Any]]:
    """``n`` pairs of players (and shared spectator accounts), each with a session and a game."""
    from django.contrib.auth import get_user_model

    from play.lifecycle import start_game

    User = get_user_model()

    def user(name: str):
        u = User(username=name)
        u.set_unusable_password()  # no password hashing: 200 accounts in a moment
        u.save()
        return u

    watchers = [session_cookie(user(f"{tag}-w{k}")) for k in range(spectators)]
    slots = []
    for i in range(n):
        pi, po = user(f"{tag}-{i}-i"), user(f"{tag}-{i}-o")
        game = start_game(pi, po, variant="standard", rated=False)
        slots.append({"index": i, "players": [pi.pk, po.pk],
                      "cookies": [session_cookie(pi), session_cookie(po), *watchers],
                      "game": str(game.uuid)})
    return slots


def top_up_spares(slots: list[dict[str, Any]], per_slot: int) -> None:
    """Make each slot's replacement games before a phase, so that the load generator does not
    make them (database writes and a ``gpg`` signature, holding its interpreter lock) while it
    times round trips. A slot that runs out makes more during the phase (counted)."""
    for spec in slots:
        spares = spec.setdefault("spares", [])
        while len(spares) < per_slot:
            spares.append(new_game(spec["players"]))


def new_game(player_pks: list[int]) -> str:
    """A fresh game between a slot's players (called in a worker's thread)."""
    from django.contrib.auth import get_user_model
    from django.db import close_old_connections, connection

    from play.lifecycle import start_game

    if not connection.in_atomic_block:  # a test's own transaction (tests/site) is not stale
        close_old_connections()
    User = get_user_model()
    pi, po = User.objects.get(pk=player_pks[0]), User.objects.get(pk=player_pks[1])
    return str(start_game(pi, po, variant="standard", rated=False).uuid)


def advance(game_uuid: str, player_pks: list[int], steps: int, rng: random.Random) -> str:
    """Play ``steps`` steps into a slot's game through the site's command path, chosen as the
    load generator chooses them (``--stagger``): the slot's game then, or a fresh one if that
    game ended on the way (a new game starts at its first step, as on a real site)."""
    from django.contrib.auth import get_user_model

    from play import gameview
    from play.commands.player import submit_as

    User = get_user_model()
    who = {"I": User.objects.get(pk=player_pks[0]), "O": User.objects.get(pk=player_pks[1])}
    for _ in range(steps):
        data = gameview.sync(game_uuid)
        state = data["state"]
        if state["outcome"] is not None:
            return new_game(player_pks)
        action, step = choose_step(state, rng)
        result = submit_as(game_uuid, who[state["side_to_move"]], action, step=step,
                           version=data["version"], announce=False)
        if not result.ok:
            raise RuntimeError(f"stagger: {action} {step} refused: {result.reason}")
    if gameview.sync(game_uuid)["state"]["outcome"] is not None:
        return new_game(player_pks)
    return game_uuid


# --- measurement ------------------------------------------------------------------------------


class Stats:
    """What one worker measured in one level of one phase."""

    def __init__(self) -> None:
        self.ack: list[float] = []  # sender round trips (ack / own echo), seconds
        self.recv: list[float] = []  # other receivers' round trips
        self.done = 0  # round trips completed whose send fell in the window
        self.sent = 0
        self.late = 0
        self.rejected: Counter[str] = Counter()
        self.errors: Counter[str] = Counter()

    def as_dict(self) -> dict[str, Any]:
        return {"ack": self.ack, "recv": self.recv, "done": self.done, "sent": self.sent,
                "late": self.late, "rejected": dict(self.rejected), "errors": dict(self.errors)}


class Window:
    """The measurement window of the level running now (send times inside it count)."""

    def __init__(self) -> None:
        self.lo = self.hi = 0.0
        self.stats = Stats()

    def counts(self, t_sent: float) -> bool:
        return self.lo <= t_sent < self.hi


class Delivery:
    """Per receiving socket: versions (or sequence numbers) seen, for lost/dup/out-of-order."""

    def __init__(self, base: int) -> None:
        self.base = base
        self.seen: set[int] = set()
        self.top = base
        self.dup = 0
        self.ooo = 0

    def see(self, v: int) -> bool:
        if v in self.seen or v <= self.base:
            self.dup += 1
            return False
        if v < self.top:
            self.ooo += 1
        self.seen.add(v)
        self.top = max(self.top, v)
        return True

    def lost(self, last: int) -> int:
        return sum(1 for v in range(self.base + 1, last + 1) if v not in self.seen)


class Totals:
    """Delivery counts over the whole phase (all levels), per worker."""

    def __init__(self) -> None:
        self.lost = self.dup = self.ooo = self.expected = 0
        self.games_finished = 0
        self.games_made = 0  # replacement games made during the phase (no spare left)
        self.sent_all = 0  # every message sent in the phase, warm-ups included
        self.dup_samples: list[dict[str, Any]] = []  # what a duplicate arrived in (diagnosis)

    def add(self, deliveries: list[Delivery], last: int) -> None:
        for d in deliveries:
            self.lost += d.lost(last)
            self.dup += d.dup
            self.ooo += d.ooo
            self.expected += max(0, last - d.base)


def ws_url(base: str, path: str) -> str:
    return f"ws://{base}{path}"


async def open_socket(base: str, path: str, cookie: str = ""):
    headers = {"Origin": f"http://{base}"}
    if cookie:
        headers["Cookie"] = cookie
    return await websockets.connect(ws_url(base, path), additional_headers=headers,
                                    open_timeout=CONNECT_TIMEOUT, max_size=2 ** 22,
                                    ping_interval=None, compression=None)


# --- the game stack ---------------------------------------------------------------------------


def choose_step(state: dict[str, Any], rng: random.Random) -> tuple[str, dict | None]:
    """A legal step from the server's state: captures preferred (honor captures first), chains
    closed, now and then an early end; never a pass, so games finish by play.

    One pass over the legal steps, and the forward moves sorted out only when a forward move
    is wanted: the player to move runs this for every step, on the two cores the servers
    share (BENCHMARKS.md, issue 7)."""
    honor = state.get("honor_targets") or ()
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
        elif kind == "exit" or kind == "stay":
            closers.append(s)
        elif kind == "end":
            can_end = True
    if hcaps:
        return "step", rng.choice(hcaps)
    if caps and rng.random() < 0.7:
        return "step", rng.choice(caps)
    if closers and not moves:
        return "step", rng.choice(closers)
    if state["steps_used"] and can_end and rng.random() < 0.1:
        return "end", None
    if moves:
        if rng.random() < 0.3:
            ahead = 1 if state["side_to_move"] == "I" else -1  # I moves up the ranks
            fwd = [s for s in moves if (int(s["to"][1:]) - int(s["from"][1:])) * ahead > 0]
            if fwd:
                return "step", rng.choice(fwd)
        return "step", rng.choice(moves)
    others: list[dict | None] = [*caps, *closers]  # no move: what is left (None: the end)
    if can_end:
        others.append(None)
    if others:
        s = rng.choice(others)
        return ("end", None) if s is None else ("step", s)
    return "pass", None


class _Event(msgspec.Struct):
    version: int


class _Frame(msgspec.Struct):
    """What the load generator reads of a server frame on a game socket.

    Every socket decodes this much, checked (the type, the version range, each event's
    version, the inline ack); msgspec passes over the rest without building it, and the state
    stays raw JSON until the player to move reads it (``GameSlot.current_state``). Decoding
    whole updates on all four sockets was a third of the client's CPU, which this 2-core
    machine then lacked for the servers (BENCHMARKS.md, issue 7)."""

    type: str
    from_version: int = -1
    version: int = -1
    events: list[_Event] = []
    state: msgspec.Raw = msgspec.Raw(b"null")  # a union with None would accept only null
    ack: dict[str, Any] | None = None


_decode_frame = msgspec.json.Decoder(_Frame).decode


class _PlayState(TypedDict, total=False):
    """What the player to move reads of the state (``choose_step``, ``finished``): decoded
    into a plain dict, the rest of the state (the board's sets, the notation, which grows with
    the game) passed over."""

    side_to_move: str | None
    steps_used: int
    legal_steps: list[dict[str, Any]]
    honor_targets: list[str]
    outcome: Any


_decode_state = msgspec.json.Decoder(_PlayState).decode


class GameSlot:
    """One game's four (or more) sockets: I, O, then spectators; the side to move sends."""

    def __init__(self, spec: dict, bases: list[str], window: Window, totals: Totals,
                 rng: random.Random) -> None:
        self.spec = spec
        self.bases = bases
        self.window = window
        self.totals = totals
        self.rng = rng
        self.uuid = spec["game"]
        self.seq = 0
        self.nonce = f"{spec['index']}-{secrets.token_hex(4)}"
        self.sent_at: dict[int, tuple[float, int]] = {}  # event version -> (time, sender idx)
        self.ack_at: dict[str, tuple[float, int]] = {}  # seq -> (time, expected version)
        self.version = 0
        self.state: dict[str, Any] | msgspec.Raw | None = None  # raw until read
        self.last = 0  # highest version known to exist
        self.waiter: asyncio.Future | None = None
        self.expect = 0
        self.sockets: list = []
        self.readers: list[asyncio.Task] = []
        self.deliveries: list[Delivery] = []
        self.seen = [0, 0]  # the version each player's own socket has shown it
        self.shown = [asyncio.Event(), asyncio.Event()]

    async def open(self) -> None:
        """The game's sockets, opened together: each is a different person (two players, the
        spectators) arriving at the game on their own, as they do when a finished game is
        replaced, not one after the other."""
        self.sent_at, self.ack_at = {}, {}
        opened = await asyncio.gather(*(self._open_one(k, cookie)
                                        for k, cookie in enumerate(self.spec["cookies"])))
        self.sockets = [ws for ws, _ in opened]
        self.deliveries = [Delivery(first["version"]) for _, first in opened]
        for k, (_, first) in enumerate(opened):
            if k < 2:
                self.seen[k] = first["version"]
            if first["version"] >= self.version:
                self.version, self.state = first["version"], first["state"]
        self.last = self.version
        self.readers = [asyncio.create_task(self.read(k, ws)) for k, ws in enumerate(self.sockets)]

    async def _open_one(self, k: int, cookie: str) -> tuple[Any, dict[str, Any]]:
        """Socket ``k`` and the first update on it."""
        base = self.bases[(self.spec["index"] + k) % len(self.bases)]
        ws = await open_socket(base, f"/ws/game/{self.uuid}/?ack=inline", cookie)
        while True:
            msg = orjson.loads(await asyncio.wait_for(ws.recv(), CONNECT_TIMEOUT))
            if msg["type"] == "update":
                return ws, msg
            if msg["type"] == "error":
                raise RuntimeError(f"game socket refused: {msg}")

    async def close(self) -> None:
        self.totals.add(self.deliveries, self.last)
        for t in self.readers:
            t.cancel()
        await asyncio.gather(*(ws.close() for ws in self.sockets))  # each leaves on its own

    async def read(self, k: int, ws) -> None:
        stats_of = self.window
        try:
            async for raw in ws:
                t = time.perf_counter()
                frame = _decode_frame(raw)
                if frame.type == "update":
                    for ev in frame.events:
                        v = ev.version
                        if not self.deliveries[k].see(v):
                            if len(self.totals.dup_samples) < 5:
                                self.totals.dup_samples.append(
                                    {"socket": k, "event": v, "from_version": frame.from_version,
                                     "version": frame.version, "events": len(frame.events)})
                            continue
                        sent = self.sent_at.get(v)
                        if sent and sent[1] != k and stats_of.counts(sent[0]):
                            stats_of.stats.recv.append(t - sent[0])
                    v = frame.version
                    self.last = max(self.last, v)
                    if k < 2:
                        self.seen[k] = max(self.seen[k], v)
                        self.shown[k].set()
                    if v >= self.version:
                        self.version, self.state = v, frame.state
                    if self.waiter and not self.waiter.done() and v >= self.expect and k < 2:
                        self.waiter.set_result(True)
                    if frame.ack is not None:  # the update of the sender's own step
                        self.acked(frame.ack, t)
                    continue
                msg = orjson.loads(raw)  # not an update: rare, read whole
                kind = msg["type"]
                if kind == "ack":
                    if msg.get("duplicate"):  # not ours to time: resynchronise
                        self.ack_at.pop(str(msg.get("seq")), None)
                        stats_of.stats.rejected["duplicate"] += 1
                        if self.waiter and not self.waiter.done():
                            self.waiter.set_result(False)
                        continue
                    self.acked(msg, t)
                elif kind == "rejected":
                    stats_of.stats.rejected[msg.get("code", "?")] += 1
                    self.ack_at.pop(str(msg.get("seq")), None)
                    if self.waiter and not self.waiter.done():
                        self.waiter.set_result(False)
                elif kind == "error":
                    stats_of.stats.errors[msg.get("code", "?")] += 1
        except websockets.ConnectionClosed:
            pass

    def current_state(self) -> dict[str, Any] | None:
        """The state of the latest version seen, decoded once, when a player reads it."""
        if isinstance(self.state, msgspec.Raw):
            self.state = _decode_state(self.state)
        return self.state

    def acked(self, ack: dict[str, Any], t: float) -> None:
        """The sender's round trip: to its ``ack``, alone or inside its step's update."""
        sent = self.ack_at.pop(str(ack.get("seq")), None)
        self.last = max(self.last, ack["version"])
        if sent and self.window.counts(sent[0]):
            self.window.stats.ack.append(t - sent[0])
            self.window.stats.done += 1

    async def step_once(self) -> None:
        """Send one step for the side to move and wait until its update (or refusal) is back."""
        state = self.current_state()
        assert state is not None
        side = state["side_to_move"]
        k = 0 if side == "I" else 1
        # A player knows the game only from its own socket, as a browser does: it moves once
        # that socket has shown it the current version (it may have reached the opponent's or
        # a spectator's socket first, on another server process).
        while self.seen[k] < self.version:
            self.shown[k].clear()
            async with asyncio.timeout(30):  # one timer, not wait_for's task and callbacks
                await self.shown[k].wait()
        action, step = choose_step(state, self.rng)
        self.seq += 1
        seq = f"{self.nonce}-{self.seq}"  # unique per game and player across phases
        msg: dict[str, Any] = {"type": action, "version": self.version, "seq": seq}
        if step is not None:
            msg["step"] = step
        self.expect = self.version + 1
        loop = asyncio.get_running_loop()
        self.waiter = loop.create_future()
        t = time.perf_counter()
        self.sent_at[self.version + 1] = (t, k)
        self.ack_at[seq] = (t, self.version + 1)
        self.totals.sent_all += 1
        if self.window.counts(t):
            self.window.stats.sent += 1
        await self.sockets[k].send(orjson.dumps(msg).decode())  # a text frame, as a browser
        async with asyncio.timeout(30):
            ok = await self.waiter
        if not ok:  # refused (stale, busy): resynchronise before the next step
            await self.sockets[k].send(
                orjson.dumps({"type": "sync", "last_version": self.version}).decode())
            await asyncio.sleep(0.05)

    def finished(self) -> bool:
        state = self.current_state()
        return state is None or state.get("outcome") is not None

    def complete(self) -> bool:
        return all(d.lost(self.last) == 0 for d in self.deliveries)


async def drive(slot, levels: list[tuple[float, float, float]], window: Window,
                rng: random.Random, renew) -> None:
    """Open-loop schedule for one slot over the levels (rate per slot, start, end)."""
    for rate, lo, hi in levels:
        period = 1.0 / rate
        nxt = lo - 2.0 + rng.random() * period  # 2 s warm-up before each window
        while True:
            now = time.perf_counter()
            if nxt >= hi:
                break
            if nxt > now:
                await asyncio.sleep(nxt - now)
            elif now - nxt > period:
                if window.counts(now):
                    window.stats.late += 1
                nxt = now
            if slot.finished():
                await renew(slot)
                nxt = time.perf_counter()
                continue
            try:
                await slot.step_once()
            except (TimeoutError, websockets.ConnectionClosed) as exc:
                window.stats.errors[type(exc).__name__] += 1
            nxt += period


# --- the relay baseline -----------------------------------------------------------------------


class RelaySlot:
    """One relay group: a sender and ``listeners`` listeners; the sender's echo is its ack."""

    def __init__(self, spec: dict, bases: list[str], window: Window, totals: Totals,
                 listeners: int, tag: str) -> None:
        self.spec = spec
        self.bases = bases
        self.window = window
        self.totals = totals
        self.n_listen = listeners
        self.group = f"{tag}-{spec['index']}"
        self.n = 0
        self.sent_at: dict[int, float] = {}
        self.waiter: asyncio.Future | None = None
        self.sockets: list = []
        self.readers: list[asyncio.Task] = []
        self.deliveries: list[Delivery] = []

    async def open(self) -> None:
        for k in range(1 + self.n_listen):
            base = self.bases[(self.spec["index"] + k) % len(self.bases)]
            self.sockets.append(await open_socket(base, f"/ws/bench/relay/{self.group}/"))
            self.deliveries.append(Delivery(0))
        await asyncio.sleep(0.2)  # group_add happens before accept; settle anyway
        self.readers = [asyncio.create_task(self.read(k, ws)) for k, ws in enumerate(self.sockets)]

    async def close(self) -> None:
        self.totals.add(self.deliveries, self.n)
        for t in self.readers:
            t.cancel()
        for ws in self.sockets:
            await ws.close()

    async def read(self, k: int, ws) -> None:
        w = self.window
        try:
            async for raw in ws:
                t = time.perf_counter()
                n = orjson.loads(raw)["n"]
                if not self.deliveries[k].see(n):
                    continue
                sent = self.sent_at.get(n)
                if sent is None or not w.counts(sent):
                    pass
                elif k == 0:
                    w.stats.ack.append(t - sent)
                    w.stats.done += 1
                else:
                    w.stats.recv.append(t - sent)
                if k == 0 and self.waiter and not self.waiter.done() and n == self.n:
                    self.waiter.set_result(True)
        except websockets.ConnectionClosed:
            pass

    async def step_once(self) -> None:
        self.n += 1
        self.waiter = asyncio.get_running_loop().create_future()
        t = time.perf_counter()
        self.sent_at[self.n] = t
        self.totals.sent_all += 1
        if self.window.counts(t):
            self.window.stats.sent += 1
        # A payload of the size of a small game update's header, so framing costs are alike.
        await self.sockets[0].send(
            orjson.dumps({"type": "relay", "n": self.n, "pad": "x" * 64}).decode())
        async with asyncio.timeout(30):
            await self.waiter

    def finished(self) -> bool:
        return False

    def complete(self) -> bool:
        return all(d.lost(self.n) == 0 for d in self.deliveries)


# --- one phase in one worker process -----------------------------------------------------------


async def run_phase(job: dict[str, Any]) -> dict[str, Any]:
    window = Window()
    totals = Totals()
    bases = job["bases"]
    rng = random.Random(job["seed"])
    if job["kind"] == "stack":
        slots = [GameSlot(s, bases, window, totals, random.Random(rng.random()))
                 for s in job["slots"]]
    else:
        slots = [RelaySlot(s, bases, window, totals, job["listeners"], job["tag"])
                 for s in job["slots"]]
    for i in range(0, len(slots), 10):  # connect in batches: a handshake storm is not the test
        await asyncio.gather(*(s.open() for s in slots[i:i + 10]))

    async def renew(slot: GameSlot) -> None:
        deadline = time.perf_counter() + DRAIN  # the last update must reach every socket
        while not slot.complete() and time.perf_counter() < deadline:
            await asyncio.sleep(0.1)
        await slot.close()
        totals.games_finished += 1
        if slot.spec.get("spares"):
            slot.spec["game"] = slot.spec["spares"].pop(0)
        else:
            totals.games_made += 1
            slot.spec["game"] = await asyncio.to_thread(new_game, slot.spec["players"])
        slot.uuid = slot.spec["game"]
        slot.version, slot.state = 0, None
        await slot.open()

    t0 = time.perf_counter() + 1.0
    plan = []
    t = t0
    for total_rate, duration in job["levels"]:
        plan.append((total_rate / job["n_slots"], t + 2.0, t + 2.0 + duration))
        t += 2.0 + duration
    results = []
    tasks = [asyncio.create_task(drive(s, plan, window, rng, renew)) for s in slots]
    for (_rate, lo, hi), (total_rate, duration) in zip(plan, job["levels"], strict=True):
        window.lo, window.hi, window.stats = lo, hi, Stats()
        gc.collect()  # here, in the warm-up, not inside a window (see ``worker``)
        await asyncio.sleep(max(0.0, lo - time.perf_counter()))
        cpu_lo = cpu_seconds(job["pids"])
        await asyncio.sleep(max(0.0, hi - time.perf_counter()))
        cpu = cpu_seconds(job["pids"]) - cpu_lo  # the servers' CPU inside the window
        stats = window.stats
        # Round trips of sends inside the window that finish after it still count: wait.
        await asyncio.sleep(1.5)  # < the 2 s warm-up of the next level
        results.append({"offered": total_rate, "duration": duration, "cpu_s": cpu,
                        **stats.as_dict()})
    await asyncio.gather(*tasks, return_exceptions=True)
    window.lo = window.hi = 0.0
    deadline = time.perf_counter() + DRAIN
    while time.perf_counter() < deadline and not all(s.complete() for s in slots):
        await asyncio.sleep(0.25)
    for s in slots:
        await s.close()
    return {"levels": results, "lost": totals.lost, "dup": totals.dup, "ooo": totals.ooo,
            "expected": totals.expected, "games_finished": totals.games_finished,
            "games_made": totals.games_made,
            "sent_all": totals.sent_all, "dup_samples": totals.dup_samples,
            "slots": [s.spec for s in slots]}


def worker(job: dict[str, Any]) -> dict[str, Any]:
    """One load-generator process. Its garbage collector runs only between measurement windows:
    a full collection of its heap (every socket's state and tallies) stopped it for about
    100 ms, which delayed every arrival in flight at once and put the pause, not the server,
    into a window's p99 (BENCHMARKS.md)."""
    from django.db import connections

    connections.close_all()  # the parent's connections are not ours
    gc.disable()
    try:
        return asyncio.run(run_phase(job))
    finally:
        gc.enable()


def run_phase_in_workers(kind: str, slots: list[dict], bases: list[str], levels, clients: int,
                         listeners: int, tag: str, seed: int, pids: list[int]) -> dict[str, Any]:
    from django.db import connections

    connections.close_all()
    parts = [slots[i::clients] for i in range(clients)]
    jobs = [{"kind": kind, "slots": part, "bases": bases, "levels": levels,
             "n_slots": len(slots), "listeners": listeners, "tag": tag, "seed": seed + i,
             "pids": pids}
            for i, part in enumerate(parts) if part]
    ctx = mp.get_context("fork")
    with ctx.Pool(len(jobs)) as pool:
        outs = pool.map(worker, jobs)
    by_index = {s["index"]: s for out in outs for s in out["slots"]}
    for s in slots:  # carry each slot's current game into the next phase
        s.update(by_index[s["index"]])
    merged: dict[str, Any] = {"levels": []}
    for key in ("lost", "dup", "ooo", "expected", "games_finished", "games_made", "sent_all"):
        merged[key] = sum(o[key] for o in outs)
    merged["dup_samples"] = [d for o in outs for d in o["dup_samples"]][:5]
    for i in range(len(levels)):
        lv = [o["levels"][i] for o in outs]
        merged["levels"].append(summarise(lv))
    return merged


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    v = sorted(values)
    return v[min(len(v) - 1, max(0, math.ceil(q * len(v)) - 1))]


def summarise(parts: list[dict[str, Any]]) -> dict[str, Any]:
    ack = [x for p in parts for x in p["ack"]]
    recv = [x for p in parts for x in p["recv"]]
    allrt = ack + recv
    duration = parts[0]["duration"]
    rejected: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    for p in parts:
        rejected.update(p["rejected"])
        errors.update(p["errors"])
    done = sum(p["done"] for p in parts)
    ms = 1000.0
    return {
        "offered": parts[0]["offered"], "duration": duration,
        "sent": sum(p["sent"] for p in parts), "done": done, "per_s": done / duration,
        "late": sum(p["late"] for p in parts),
        "p50_ms": (pct(allrt, 0.5) or 0) * ms, "p99_ms": (pct(allrt, 0.99) or 0) * ms,
        "ack_p50_ms": (pct(ack, 0.5) or 0) * ms, "ack_p99_ms": (pct(ack, 0.99) or 0) * ms,
        "recv_p50_ms": (pct(recv, 0.5) or 0) * ms, "recv_p99_ms": (pct(recv, 0.99) or 0) * ms,
        "deliveries": len(allrt), "rejected": dict(rejected), "errors": dict(errors),
        # Server CPU per message sent in the window (every worker reads the same processes).
        "cpu_ms_per_msg": 1000 * parts[0]["cpu_s"] / max(1, sum(p["sent"] for p in parts)),
    }


# --- the run ----------------------------------------------------------------------------------


def redis_clients(url: str) -> int | None:
    try:
        import redis

        return int(redis.Redis.from_url(url).info("clients")["connected_clients"])
    except Exception:
        return None


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time the server processes have used so far."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def log_sizes(cluster: Cluster) -> list[int]:
    return [s.log.stat().st_size if s.log.exists() else 0 for s in cluster.servers]


def log_warnings(cluster: Cluster, since: list[int]) -> dict[str, int]:
    """Channel-layer trouble the servers logged since ``since`` (byte offsets per log)."""
    counts: Counter[str] = Counter()
    for s, offset in zip(cluster.servers, since, strict=True):
        with open(s.log, "rb") as f:
            f.seek(offset)
            text = f.read().decode(errors="replace")
        counts["over_capacity"] += text.count("over capacity")
        counts["traceback"] += text.count("Traceback")
        counts["too_many_connections"] += text.count("Too many connections")
    return dict(counts)


def run_config(n_servers: int, args, slots, cluster: Cluster, tag: str) -> dict[str, Any]:
    bases = [f"127.0.0.1:{s.port}" for s in cluster.servers[:n_servers]]
    since = log_sizes(cluster)
    out: dict[str, Any] = {"servers": n_servers}
    fixed = [(args.rate, args.duration)]
    ramp = [(r, args.ramp_duration) for r in args.ramp]
    peak = {"clients": 0}
    sampling = threading.Event()

    def sample() -> None:  # Redis connections of all processes, the pool-size measurement
        while not sampling.wait(0.5):
            peak["clients"] = max(peak["clients"], redis_clients(cluster.redis.url) or 0)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    phases = [(name, kind, levels)
              for name, kind, levels in (("relay_fixed", "relay", fixed),
                                         ("stack_fixed", "stack", fixed),
                                         ("relay_ramp", "relay", ramp),
                                         ("stack_ramp", "stack", ramp))
              if kind in args.only]
    for name, kind, levels in phases:
        print(f"  {n_servers} process(es): {name} ...", flush=True)
        pids = [s.proc.pid for s in cluster.servers[:n_servers]]
        if kind == "stack":
            top_up_spares(slots, SPARES[name])
        cpu0 = cpu_seconds(pids)
        res = run_phase_in_workers(kind, slots, bases, levels, args.clients, 2,
                                   f"{tag}{n_servers}{name[6:9]}", args.seed, pids)
        # Server CPU per message over the whole phase (connections and drain included).
        res["server_cpu_ms_per_msg"] = (1000 * (cpu_seconds(pids) - cpu0)
                                        / max(1, res["sent_all"]))
        out[name] = res
        for lv in res["levels"]:
            print(f"    offered {lv['offered']:>6.0f}/s  done {lv['per_s']:7.1f}/s  "
                  f"p50 {lv['p50_ms']:7.1f} ms  p99 {lv['p99_ms']:7.1f} ms  "
                  f"cpu {lv['cpu_ms_per_msg']:5.2f} ms/msg  late {lv['late']}  "
                  f"rejected {lv['rejected']}  errors {lv['errors']}",
                  flush=True)
        print(f"    lost {res['lost']}  dup {res['dup']}  out-of-order {res['ooo']} "
              f"(of {res['expected']} expected arrivals; {res['games_finished']} games "
              f"finished, {res['games_made']} made during the phase); server CPU "
              f"{res['server_cpu_ms_per_msg']:.2f} ms per message over the phase"
              + (f"; duplicates arrived in {res['dup_samples']}" if res["dup"] else ""),
              flush=True)
    sampling.set()
    sampler.join()
    out["redis_clients_seen"] = peak["clients"]
    out["log"] = log_warnings(cluster, since)
    print(f"    Redis connections seen at most: {out['redis_clients_seen']}; server logs: "
          f"{out['log']}", flush=True)
    return out


def saturation(cfg: dict[str, Any], kind: str) -> dict[str, Any]:
    """The most round trips/s ``kind`` completed at any level, fixed phase included, and
    whether that is a saturation at all: a side that still did what the ramp's top level
    offered (95% of it) was not saturated, and its figure is only a lower bound."""
    ramp = cfg[f"{kind}_ramp"]["levels"]
    levels = cfg[f"{kind}_fixed"]["levels"] + ramp
    best = max(levels, key=lambda lv: lv["per_s"])
    top = max(ramp, key=lambda lv: lv["offered"]) if ramp else best
    saturated = top["per_s"] < 0.95 * top["offered"]
    return {"per_s": best["per_s"], "offered": best["offered"], "p99_ms": best["p99_ms"],
            "saturated": saturated}


def report(results: dict[str, Any]) -> str:
    lines = ["", "| processes | what | steps/s (offered) | p50 ms | p99 ms | sender ack p99 ms "
             "| server CPU ms per step | saturation round trips/s (p99 ms there) "
             "| lost / dup / out of order |",
             "|---|---|---|---|---|---|---|---|---|"]
    for cfg in results["configs"]:
        for kind in ("relay", "stack"):
            fx = cfg[f"{kind}_fixed"]
            lv = fx["levels"][0]
            sat = saturation(cfg, kind)
            name = "bare relay (baseline)" if kind == "relay" else "game stack"
            lost = (f"{fx['lost'] + cfg[f'{kind}_ramp']['lost']} / "
                    f"{fx['dup'] + cfg[f'{kind}_ramp']['dup']} / "
                    f"{fx['ooo'] + cfg[f'{kind}_ramp']['ooo']}")
            lines.append(f"| {cfg['servers']} | {name} | {lv['per_s']:.0f} ({lv['offered']:.0f}) "
                         f"| {lv['p50_ms']:.1f} | {lv['p99_ms']:.1f} | {lv['ack_p99_ms']:.1f} "
                         f"| {lv['cpu_ms_per_msg']:.2f} | {'' if sat['saturated'] else '>= '}"
                         f"{sat['per_s']:.0f} ({sat['p99_ms']:.0f}) | {lost} |")
    lines.append("")
    for cfg in results["configs"]:
        r, s = cfg["relay_fixed"]["levels"][0], cfg["stack_fixed"]["levels"][0]
        rs, ss = saturation(cfg, "relay"), saturation(cfg, "stack")
        p99x = s["p99_ms"] / r["p99_ms"] if r["p99_ms"] else float("inf")
        satx = ss["per_s"] / rs["per_s"] if rs["per_s"] else 0.0
        lost = sum(cfg[f"stack_{p}"][k] for p in ("fixed", "ramp") for k in ("lost", "dup"))
        unsat = "" if rs["saturated"] else (" (at most: the relay was not saturated by the "
                                            "ramp's top level; extend --ramp)")
        lines.append(f"{cfg['servers']} process(es): stack p99 / relay p99 = {p99x:.2f} (target "
                     f"<= 2); stack saturation / relay = {satx:.2f}{unsat} (target >= 0.5); "
                     f"stack lost + duplicated = {lost} (target 0); server logs {cfg['log']}; "
                     f"Redis clients seen {cfg.get('redis_clients_seen')}")
    return "\n".join(lines)


def machine() -> dict[str, Any]:
    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")),
                       "")
    except OSError:
        pass
    return {"python": platform.python_version(), "cpu": cpu, "cores": os.cpu_count(),
            "load_before": os.getloadavg(),
            "commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                                     capture_output=True, text=True).stdout.strip()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100, help="games (and relay groups)")
    ap.add_argument("--spectators", type=int, default=2, help="spectators per game")
    ap.add_argument("--rate", type=float, default=200.0, help="total steps/s, fixed phase")
    ap.add_argument("--duration", type=float, default=20.0, help="seconds, fixed phase")
    ap.add_argument("--ramp", type=lambda s: [float(x) for x in s.split(",")],
                    default=[300.0, 500.0, 800.0, 1200.0, 1600.0, 2000.0, 2400.0, 2800.0],
                    help="total rates of the ramp")
    ap.add_argument("--ramp-duration", type=float, default=8.0, help="seconds per ramp level")
    ap.add_argument("--servers", type=lambda s: [int(x) for x in s.split(",")], default=[1, 2],
                    help="numbers of server processes to run, e.g. 1,2")
    ap.add_argument("--clients", type=int, default=1, help="client processes")
    ap.add_argument("--only", type=lambda s: s.split(","), default=["relay", "stack"],
                    help="relay, stack or both (profiling one side); the report needs both")
    ap.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                    help="extra server environment, e.g. TALU_CHANNEL_CAPACITY=100")
    ap.add_argument("--stagger", type=int, default=0, metavar="N",
                    help="advance each game by a random 0..N steps before the phases, so that "
                         "games end at a steady rate rather than together (default 0: every "
                         "game starts at its first step)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--quick", action="store_true", help="smoke run: 20 games, short phases")
    ap.add_argument("--json", type=Path, help="write the raw figures here")
    args = ap.parse_args(argv)
    if args.quick:
        args.games, args.rate, args.duration = 20, 40.0, 5.0
        args.ramp, args.ramp_duration = [80.0, 160.0], 4.0

    tag = f"bl{int(time.time()) % 100000}"
    extra = {
        "SECRET_KEY": "bench-" + tag + "-not-a-secret",
        "TALU_WS_HEARTBEAT": "20",  # the production default, not the cluster tests' 1 s
        "LOG_LEVEL": "INFO",  # channels-redis reports over-capacity groups at INFO
    }
    for item in args.env:
        name, _, value = item.partition("=")
        extra[name] = value
    info = machine()
    print(f"talu load benchmark: {args.games} games x (2 players + {args.spectators} "
          f"spectators), {args.rate:.0f} steps/s fixed, ramp {args.ramp}, processes "
          f"{args.servers}; load average before {info['load_before']}", flush=True)
    t_setup = time.perf_counter()
    workdir = Path(tempfile.mkdtemp(prefix="talu-bench-load-"))  # kept: the server logs
    with Cluster(servers=max(args.servers), env=extra, workdir=workdir,
                 asgi="benchmarks.relay:application") as cluster:
        os.environ.update(cluster.env())  # the same database, keyring and SECRET_KEY
        setup_django()
        configs = []
        for n in args.servers:
            # Fresh games for every number of processes, so that each configuration starts
            # from the same point: reused games were near their ends by the second one, whose
            # window then held dozens of game ends (records signed, games replaced).
            slots = make_slots(args.games, args.spectators, f"{tag}{n}")
            if args.stagger:
                rng = random.Random(args.seed)
                t_stagger = time.perf_counter()
                for spec in slots:
                    spec["game"] = advance(spec["game"], spec["players"],
                                           rng.randint(0, args.stagger), rng)
                print(f"  staggered: each game advanced by 0-{args.stagger} steps in "
                      f"{time.perf_counter() - t_stagger:.1f} s", flush=True)
            print(f"  set-up: stack, {len(slots)} games, accounts and sessions in "
                  f"{time.perf_counter() - t_setup:.1f} s; server pids "
                  f"{[s.proc.pid for s in cluster.servers]}", flush=True)
            configs.append(run_config(n, args, slots, cluster, tag))
            t_setup = time.perf_counter()
        from django.db import connections

        connections.close_all()  # before the harness drops the database
    results = {"when": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
               "command": " ".join([Path(sys.argv[0]).as_posix(), *(argv or sys.argv[1:])]),
               "machine": {**info, "load_after": os.getloadavg()},
               "params": {k: (str(v) if isinstance(v, Path) else v)
                          for k, v in vars(args).items()},
               "env": extra, "configs": configs}
    if set(args.only) >= {"relay", "stack"}:
        print(report(results))
    print(f"\nload average after: {os.getloadavg()}; server logs in {workdir}")
    if args.json:
        slim = json.loads(json.dumps(results))
        args.json.write_text(json.dumps(slim, indent=1))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ClusterUnavailable as exc:  # no PostgreSQL or redis-server here: say so, plainly
        print(f"bench_load: cannot start the stack: {exc}", file=sys.stderr)
        sys.exit(2)
