"""A wave of computer games beside human games (issue 25): do they slow the humans' steps?

    .venv/bin/python benchmarks/bench_computer_wave.py                     # ~4 min
    .venv/bin/python benchmarks/bench_computer_wave.py --quick             # smoke run
    .venv/bin/python benchmarks/bench_computer_wave.py --json wave.json    # raw figures
    .venv/bin/python benchmarks/bench_computer_wave.py --tree . --tree ../main   # two trees
    .venv/bin/python benchmarks/bench_computer_wave.py --trace   # who ran, who waited

Needs PostgreSQL and the ``redis-server`` binary, like ``bench_endings.py``, whose stack,
lobby, accounts and human players this reuses (one ``tests/cluster/harness.py`` stack:
``--servers`` daphne processes and one ``play_worker``, whose pool thinks for the computer
with the site's own settings, ``TALU_COMPUTER_PROCESSES`` and the others).

The target: the step round trip of human games with 50 computer games running beside them is
no worse than 1.2x the round trip without them. On a shared 2-core machine a p99 moves by more
than that from one minute to the next, so both are measured in one run, on one stack, in
alternating phases (without, with, without, with for ``--rounds 2``), and compared in one table.

Human games: ``--games`` rated standard games between pairs of accounts, made in the lobby,
played over ``/ws/game/<uuid>/?ack=inline`` at ``--rate`` steps/s in all with quiet steps, on
``bench_endings.run_load``'s fixed schedule (no endings asked for). Measured in each phase's
``--seconds`` window after a ``--warmup``: every step's round trip from sending to the sender's
``ack`` and to the ``update`` reaching the opponent (p50, p99, max).

The wave (phases "with" only): ``--computer-games`` games made just before the phase by the
lobby's "Play the computer" (``POST /computer/new/``), untimed, the levels ``--levels`` in turn,
the person's side alternating, so half the games open with the computer's turn. Each person
answers quickly (one socket each; a look at the board of ``--person-pause`` seconds on average
before a turn, then quiet legal steps as fast as the socket shows them), so with 50 games the
computer nearly always has turns waiting: the worker's pool is never idle during the phase. At
the phase's end every person resigns (queued thinking for a finished game is dropped by the
worker), and the next phase starts after ``--settle`` seconds. Counted: the computer's steps
heard by the persons in the window (the wave really ran), and the CPU of the worker's pool
processes (the children of the worker).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import datetime as dt
import gc
import itertools
import json
import os
import random
import re
import secrets
import sys
import time
from pathlib import Path
from typing import Any

import orjson
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_endings import (  # noqa: E402
    CONNECT_TIMEOUT,
    Games,
    choose_quiet_step,
    commit_of,
    cpu_seconds,
    machine,
    make_sessions,
    run_load,
    spread,
    tracebacks,
)
from proc_trace import Trace, Tracer, profile  # noqa: E402

from tests.cluster.harness import Cluster, ClusterUnavailable  # noqa: E402

TARGET = 1.2


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (the worker's pool of thinking processes, and its
    forkserver)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if ppid == pid:
            out.append(int(entry))
    return out


def descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        kids = children(todo.pop())
        found += kids
        todo += kids
    return found


class Person:
    """One person playing the computer: a socket, and a quiet legal step whenever it shows
    their turn. Counts the computer's steps it hears (``heard``, by arrival time)."""

    def __init__(self, uuid: str, cookie: str, side: str, base: str, rng: random.Random,
                 pause: float = 0.0) -> None:
        self.uuid, self.cookie, self.side, self.base, self.rng = uuid, cookie, side, base, rng
        self.pause = pause  # seconds a person looks at the board before a turn's first step
        self.ws: Any = None
        self.heard: list[float] = []
        self.version = 0
        self.sent_for = -1  # the version we last answered (one message in flight)
        self.over = False
        self.errors = 0

    async def play(self, stop: asyncio.Event) -> None:
        base = self.base
        self.ws = await websockets.connect(
            f"ws://{base}/ws/game/{self.uuid}/?ack=inline",
            additional_headers={"Origin": f"http://{base}", "Cookie": self.cookie},
            open_timeout=CONNECT_TIMEOUT, max_size=2 ** 22, ping_interval=None,
            compression=None)
        seq = itertools.count()
        try:
            async for raw in self.ws:
                msg = orjson.loads(raw)
                kind = msg.get("type")
                if kind == "rejected":  # answer again from the next update
                    self.sent_for = -1
                    await self.ws.send(orjson.dumps({"type": "sync",
                                                     "last_version": self.version}).decode())
                    continue
                if kind != "update" or msg.get("version") is None:
                    continue
                t = time.perf_counter()
                for ev in msg.get("events") or ():
                    if ev.get("actor") == "computer":
                        self.heard.append(t)
                if msg["version"] < self.version:
                    continue
                self.version, state = msg["version"], msg["state"]
                if state.get("outcome") is not None:
                    self.over = True
                    return
                if stop.is_set():
                    await self.ws.send(orjson.dumps({"type": "resign",
                                                     "seq": f"r{next(seq)}"}).decode())
                    continue
                if state.get("side_to_move") != self.side or self.sent_for == self.version:
                    continue
                if self.pause and not state.get("steps_used"):
                    await asyncio.sleep(self.pause * (0.5 + self.rng.random()))
                action, step = choose_quiet_step(state, self.rng)
                out: dict[str, Any] = {"type": action, "version": self.version,
                                       "seq": f"s{next(seq)}"}
                if step is not None:
                    out["step"] = step
                self.sent_for = self.version
                await self.ws.send(orjson.dumps(out).decode())
        except websockets.ConnectionClosed:
            pass
        except Exception:  # a bug of the client: counted, the wave goes on
            self.errors += 1

    async def resign(self) -> None:
        """Resign now (the game may be waiting on the computer, whose turn it then ends)."""
        if self.ws is not None and not self.over:
            with contextlib.suppress(websockets.ConnectionClosed):
                await self.ws.send(orjson.dumps({"type": "resign", "seq": "end"}).decode())

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


def make_wave(games: Games, n: int, levels: list[int], tag: str) -> list[tuple[str, str, str]]:
    """``n`` games against the computer made in the lobby: (uuid, the person's cookie, side)."""
    names = [f"{tag}-{i}" for i in range(n)]
    cookies = make_sessions(games.cluster, names)
    lobby = games.lobby
    csrf = f"csrftoken={lobby.csrf}"
    out = []
    for i, name in enumerate(names):
        side = "I" if i % 2 == 0 else "O"
        resp = lobby._request("POST", "/computer/new/", f"{cookies[name]}; {csrf}", {
            "csrfmiddlewaretoken": lobby.csrf, "variant": "standard",
            "level": str(levels[i % len(levels)]), "side": side, "time_control": "untimed"})
        m = re.search(r"/games/([0-9a-f-]{36})/", resp.getheader("Location") or "")
        if resp.status != 302 or not m:
            raise RuntimeError(f"play the computer for {name}: HTTP {resp.status} "
                               f"{resp.getheader('Location')}")
        out.append((m.group(1), cookies[name], side))
    return out


async def phase(specs, games: Games, bases: list[str], args: argparse.Namespace,
                pids: list[int], worker_pid: int, wave: list[tuple[str, str, str]],
                rng: random.Random) -> dict[str, Any]:
    """One phase: the human games' load (``run_load``), with the wave beside it if given."""
    stop = asyncio.Event()
    people = [Person(u, c, s, bases[i % len(bases)], random.Random(rng.random()),
                     args.person_pause) for i, (u, c, s) in enumerate(wave)]
    tasks = [asyncio.create_task(p.play(stop)) for p in people]
    pool0 = cpu_seconds(descendants(worker_pid))
    t0 = time.perf_counter()
    res = await run_load(specs, games, bases, args, pids, rng)
    elapsed = time.perf_counter() - t0
    pool_cpu = cpu_seconds(descendants(worker_pid)) - pool0
    lo = t0 + 0.5 + args.warmup
    hi = lo + args.seconds
    heard = sum(1 for p in people for t in p.heard if lo <= t < hi)
    stop.set()
    await asyncio.gather(*(p.resign() for p in people))
    if tasks:
        await asyncio.wait(tasks, timeout=15)
    for p in people:
        await p.close()
    for t in tasks:
        t.cancel()
    res.update({"lo": lo, "hi": hi, "heard": [t for p in people for t in p.heard],
                "computer_games": len(wave), "computer_steps_per_s": heard / args.seconds,
                "computer_games_over": sum(p.over for p in people),
                "person_errors": sum(p.errors for p in people),
                "pool_cpu_s": pool_cpu, "phase_s": elapsed})
    return res


def line(label: str, res: dict[str, Any]) -> str:
    rt = spread(res["samples"]["ack"] + res["samples"]["recv"])

    def f(v: float | None) -> str:
        return "-" if v is None else f"{v:.1f}"

    return (f"  {label:8} human steps {res['done'] / res['window_s']:.1f}/s  p50 "
            f"{f(rt['p50_ms'])} ms  p99 {f(rt['p99_ms'])} ms  max {f(rt['max_ms'])} ms "
            f"({rt['count']})  computer games {res['computer_games']}, their computer steps "
            f"{res['computer_steps_per_s']:.1f}/s, pool CPU {res['pool_cpu_s']:.0f} s; late "
            f"{res['late']}  rejected {res['rejected']}  errors {res['errors']}  load "
            f"{res['load'][0]:.1f}")


def table(rounds: list[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    pooled = {}
    for label in ("without", "with"):
        samples = [x for r in rounds if r["label"] == label
                   for x in r["samples"]["ack"] + r["samples"]["recv"]]
        pooled[label] = spread(samples)
    a, b = pooled["without"], pooled["with"]
    ratio = {k: (b[k] / a[k] if a[k] and b[k] is not None else None)
             for k in ("p50_ms", "p99_ms")}
    pooled["ratio"] = ratio
    met = all(v is not None and v <= TARGET for v in ratio.values())
    pooled["met"] = met
    text = ["| human step round trip | without computer games | with the wave | ratio |",
            "|---|---|---|---|"]
    for k, name in (("p50_ms", "p50"), ("p99_ms", "p99")):
        text.append(f"| {name} | {a[k]:.1f} ms | {b[k]:.1f} ms | {ratio[k]:.2f} |"
                    if ratio[k] is not None else f"| {name} | - | - | - |")
    text.append(f"| samples | {a['count']} | {b['count']} | target <= {TARGET}x: "
                f"{'met' if met else 'missed'} |")
    return "\n".join(text), pooled


TRACE_GROUPS = ("server0 loop", "server1 loop", "server0 threads", "server1 threads",
                "worker loop", "worker threads", "worker pool", "postgres", "redis", "client loop")


def trace_lines(trace: Trace, res: dict[str, Any], heard: list[float]) -> list[str]:
    """What ran and what waited while the phase's slowest human round trips (above the
    phase's p99) were in flight, against the typical ones (p40-p60): ms per trip of each
    group (``proc_trace``), and the computer's steps heard by the persons meanwhile."""
    trips = [(t, s) for t, s in res["trips"] if res["lo"] <= t < res["hi"]]
    if len(trips) < 100:
        return []
    seconds = sorted(s for _, s in trips)
    p40, p60, p99 = (seconds[int(q * (len(seconds) - 1))] for q in (0.4, 0.6, 0.99))
    slow = profile(trace, trips, lambda s: s > p99)
    typical = profile(trace, trips, lambda s: p40 <= s <= p60)
    heard.sort()

    def near(pick) -> float:
        chosen = [(t, s) for t, s in trips if pick(s)]
        hits = sum(bisect.bisect_right(heard, t + s) - bisect.bisect_left(heard, t)
                   for t, s in chosen)
        return hits / (len(chosen) or 1)

    out = [f"    trace: slowest {slow['n']} trips (> p99 {1000 * p99:.1f} ms, mean "
           f"{slow['trip ms']:.1f} ms) against {typical['n']} typical (p40-p60, mean "
           f"{typical['trip ms']:.1f} ms): ms per trip, run / waited for a core"]
    for g in TRACE_GROUPS:
        if f"{g} run" not in slow:
            continue
        out.append(f"      {g:16} slow {slow[g + ' run']:6.2f} / {slow[g + ' wait']:6.2f}   "
                   f"typical {typical[g + ' run']:6.2f} / {typical[g + ' wait']:6.2f}")
    out.append(f"      {'machine busy':16} slow {slow['machine']:6.2f}            typical "
               f"{typical['machine']:6.2f}   (all processes, 10 ms resolution)")
    out.append(f"      computer steps heard during a trip: slow {near(lambda s: s > p99):.2f}, "
               f"typical {near(lambda s: p40 <= s <= p60):.2f}")
    whole = trace.charge(res["lo"], res["hi"])
    res["trace_window"] = whole
    out.append("      the window's CPU s (run / waited): " + ", ".join(
        f"{g} {whole[g + ' run'] / 1000:.2f} / {whole[g + ' wait'] / 1000:.2f}"
        for g in TRACE_GROUPS if g + " run" in whole) + f"; machine {whole['machine'] / 1000:.1f}")
    return out


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, help="human games played at once (default 30)")
    ap.add_argument("--rate", type=float, help="human steps/s offered in all (default 40)")
    ap.add_argument("--computer-games", type=int, default=50)
    ap.add_argument("--levels", default="1,2,3,4,5,6,7,8", help="the wave's levels, in turn")
    ap.add_argument("--person-pause", type=float, default=2.0,
                    help="mean s a person of the wave looks before a turn's first step (0: "
                    "answers at once, the wave is then also a flood of the persons' steps)")
    ap.add_argument("--rounds", type=int, default=2, help="without/with pairs")
    ap.add_argument("--seconds", type=float, help="measurement window per phase (default 40)")
    ap.add_argument("--warmup", type=float, help="s before each window (default 10)")
    ap.add_argument("--settle", type=float, default=12.0,
                    help="s between phases (the resigned wave's last thinking ends)")
    ap.add_argument("--servers", type=int, default=2, help="daphne processes")
    ap.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                    help="extra environment of the stack (e.g. TALU_COMPUTER_PROCESSES=1)")
    ap.add_argument("--seed", type=int, default=25)
    ap.add_argument("--trace", action="store_true",
                    help="sample the stack's scheduler statistics (benchmarks/proc_trace.py) "
                    "and say what ran and what waited during each phase's slowest trips")
    ap.add_argument("--tree", action="append", type=Path, metavar="PATH",
                    help="a source tree whose stack to measure (its .venv's python); given "
                    "twice or more, one stack per tree, the phases of each round taken in "
                    "turn (default: this checkout)")
    ap.add_argument("--quick", action="store_true",
                    help="smoke run: 10 human games at 20 steps/s, 10 computer games, 5 s "
                    "warm-up, 15 s windows, one round")
    ap.add_argument("--json", type=Path, help="write every phase's raw figures here")
    args = ap.parse_args(argv)
    defaults = ({"games": 10, "rate": 20.0, "seconds": 15.0, "warmup": 5.0} if args.quick
                else {"games": 30, "rate": 40.0, "seconds": 40.0, "warmup": 10.0})
    if args.quick:
        args.rounds = 1
        if "--computer-games" not in (argv or sys.argv[1:]):
            args.computer_games = 10
    for name, value in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    args.level_list = [int(x) for x in args.levels.split(",") if x.strip()]
    if not args.level_list or not all(1 <= x <= 8 for x in args.level_list):
        ap.error("--levels: levels from 1 to 8, like 1,4,8")
    if min(args.games, args.rounds, args.servers) < 1 or args.computer_games < 0:
        ap.error("--games, --rounds and --servers must be at least 1")
    # run_load's knobs: no endings asked for; a game that ends by play is replaced
    args.endings_per_minute = 0.0
    args.records_timeout = 20.0
    return args


class Stack:
    """One tree's stack and its human games (``--tree``)."""

    def __init__(self, tree: Path | None, env: dict[str, str], args: argparse.Namespace) -> None:
        self.tree = tree
        self.name = "." if tree is None else str(tree)
        self.commit = commit_of(tree or ROOT)
        self.cluster = Cluster(servers=args.servers, env=env, workers=1, root=tree)

    def start(self, args: argparse.Namespace) -> None:
        self.cluster.start()
        self.games = Games(self.cluster, f"w{secrets.token_hex(2)}")
        spares = 4 * args.rounds
        specs = self.games.make(args.games + spares)
        self.games.spares = specs[args.games:]
        self.specs = specs[:args.games]
        self.bases = [f"127.0.0.1:{s.port}" for s in self.cluster.servers]
        self.worker_pid = self.cluster.workers[0].proc.pid
        self.pids = [s.proc.pid for s in self.cluster.servers] + [self.worker_pid]

    def tracer(self) -> Tracer:
        return Tracer([s.proc.pid for s in self.cluster.servers], self.worker_pid,
                      self.cluster.database.name, self.cluster.redis.proc.pid)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    info = machine()
    info["commit"] = commit_of(ROOT)
    trees = args.tree or [None]
    print(f"talu computer wave: {args.games} human games at {args.rate:g} steps/s; "
          f"{args.computer_games} computer games (levels {args.levels}) in the 'with' phases; "
          f"{args.rounds} round(s) of without/with, {args.warmup:g} s warm-up + "
          f"{args.seconds:g} s window each; commit {info['commit']}; load average "
          f"{info['load_before']}", flush=True)
    env = {"TALU_WS_HEARTBEAT": "20", "SECRET_KEY": f"bench-wave-{secrets.token_hex(4)}"}
    for item in args.env:
        name, _, value = item.partition("=")
        env[name] = value
    rounds: list[dict[str, Any]] = []
    rng = random.Random(args.seed)
    stacks = [Stack(t, env, args) for t in trees]
    with contextlib.ExitStack() as exits:
        for st in stacks:
            exits.callback(st.cluster.stop)  # also when its start fails half way
            st.start(args)
            if len(stacks) > 1:
                print(f"  stack of {st.name} (commit {st.commit}) ready", flush=True)
        for r in range(args.rounds):
            for st in stacks:
                for label in ("without", "with"):
                    wave = (make_wave(st.games, args.computer_games, args.level_list,
                                      f"c{r}{secrets.token_hex(2)}") if label == "with" else [])
                    tracer = st.tracer() if args.trace else None
                    if tracer is not None:
                        tracer.start()
                    gc.collect()
                    gc.disable()  # a collection of the client's heap would be a pause in a trip
                    try:
                        res = asyncio.run(phase(st.specs, st.games, st.bases, args, st.pids,
                                                st.worker_pid, wave,
                                                random.Random(rng.random())))
                    finally:
                        gc.enable()
                        trace = tracer.stop() if tracer is not None else None
                    res.update({"label": label, "round": r, "tree": st.name})
                    tag = label if len(stacks) == 1 else f"{label} {Path(st.name).name}"
                    print(line(tag, res), flush=True)
                    if trace is not None:
                        print("\n".join(trace_lines(trace, res, res["heard"])), flush=True)
                    for key in ("trips", "heard"):
                        res.pop(key, None)
                    rounds.append(res)
                    time.sleep(args.settle)
        logs = [p.log for st in stacks for p in (*st.cluster.servers, *st.cluster.workers)]
        n_tracebacks = tracebacks(logs)
    met = True
    pooled_all = {}
    for st in stacks:
        text, pooled = table([r for r in rounds if r["tree"] == st.name])
        pooled_all[st.name] = pooled
        met = met and pooled["met"]
        print(f"\n{st.name} (commit {st.commit}):" if len(stacks) > 1 else "")
        print(text)
    print(f"\ntracebacks in the stack's logs: {n_tracebacks}; load average after: "
          f"{os.getloadavg()}")
    if args.json:
        args.json.write_text(json.dumps({
            "when": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "command": " ".join([Path(sys.argv[0]).as_posix(), *(argv or sys.argv[1:])]),
            "machine": {**info, "load_after": os.getloadavg()},
            "params": {k: v for k, v in vars(args).items() if not isinstance(v, Path)},
            "pooled": pooled_all if len(stacks) > 1 else pooled_all[stacks[0].name],
            "rounds": rounds}, indent=1, default=str))
    return 0 if met else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ClusterUnavailable as exc:
        print(f"bench_computer_wave: cannot start the stack: {exc}", file=sys.stderr)
        sys.exit(2)
