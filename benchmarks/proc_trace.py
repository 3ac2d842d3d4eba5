"""Who ran and who waited for a CPU while a benchmark's round trips were slow (``--trace``).

A sampler process reads the kernel's scheduler statistics (``/proc/PID/task/TID/schedstat``:
nanoseconds run, nanoseconds waited on a run queue) of named groups of the stack's processes
every ``interval`` seconds: the daphne servers' event-loop threads, the worker's event loop
and its other threads, the worker's pool of thinking processes, the stack's PostgreSQL
backends (found by their process title, which names the database), its Redis, the load
generator's own loop (the process that starts the tracer: its stamps are the round trips) and
the whole machine (``/proc/stat``). A round trip's interval [sent, sent + trip] is then charged with
what each group ran and waited in it (``charge``), so the slowest trips can be compared with
the typical ones: a server's loop that *waited* while the worker or PostgreSQL *ran* says the
trip queued for a core; a loop that ran says the trip's own work was slow.

The sampler is a separate process (not a thread of the load generator, whose GIL would move
the round trips it measures). Timestamps are ``time.perf_counter()`` (CLOCK_MONOTONIC), the
same clock the load generator stamps its sends with.
"""

from __future__ import annotations

import bisect
import contextlib
import multiprocessing
import os
import time
from collections.abc import Callable
from typing import Any

TICK_NS = 1e9 / os.sysconf("SC_CLK_TCK")


def _tids(pid: int) -> list[int]:
    try:
        return [int(t) for t in os.listdir(f"/proc/{pid}/task")]
    except OSError:
        return []


def _schedstat(pid: int, tid: int) -> tuple[int, int]:
    try:
        with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
            run, wait, _ = f.read().split()
        return int(run), int(wait)
    except (OSError, ValueError):
        return 0, 0


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(entry))
            except (OSError, ValueError, IndexError):
                continue
    return out


def _postgres_backends(database: str) -> list[int]:
    """The PostgreSQL backends serving ``database`` (their title: ``postgres: user db ...``)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    title = f.read()
            except OSError:
                continue
            if title.startswith(b"postgres: ") and f" {database} ".encode() in title:
                found.append(int(entry))
    return found


def _machine_busy_ns() -> int:
    with open("/proc/stat") as f:
        cpu = [int(x) for x in f.readline().split()[1:]]
    return int((sum(cpu) - cpu[3] - cpu[4]) * TICK_NS)  # all but idle and iowait


def _groups(spec: dict[str, Any]) -> dict[str, list[tuple[int, int]]]:
    """(pid, tid) of every thread each group is made of, as the processes are now."""
    groups: dict[str, list[tuple[int, int]]] = {}
    for n, pid in enumerate(spec["servers"]):
        groups[f"server{n} loop"] = [(pid, pid)]
        groups[f"server{n} threads"] = [(pid, t) for t in _tids(pid) if t != pid]
    w = spec["worker"]
    groups["worker loop"] = [(w, w)]
    groups["worker threads"] = [(w, t) for t in _tids(w) if t != w]
    pool = []
    todo = _children(w)
    while todo:
        p = todo.pop()
        pool += [(p, t) for t in _tids(p)]
        todo += _children(p)
    groups["worker pool"] = pool
    groups["postgres"] = [(p, p) for p in _postgres_backends(spec["database"])]
    if spec.get("client"):  # the load generator: its loop stamps the round trips
        c = spec["client"]
        groups["client loop"] = [(c, c)]
    if spec.get("redis"):
        groups["redis"] = [(spec["redis"], t) for t in _tids(spec["redis"])]
    return groups


def _sample(spec: dict[str, Any], interval: float, conn: Any) -> None:
    """The sampler process: cumulative (run, wait) ns per group every ``interval`` s until told
    to stop; then the samples down ``conn``. Threads that end keep their last counts."""
    # on time even when the benchmark runs under nice (a late sample blurs a trip)
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, 0, 0)
    last: dict[tuple[int, int], tuple[int, int]] = {}
    members = _groups(spec)
    refreshed = time.perf_counter()
    times: list[float] = []
    rows: list[list[int]] = []
    names = [*sorted(members), "machine"]
    while not conn.poll():
        now = time.perf_counter()
        if now - refreshed > 1.0:  # new threads, pool children, database connections
            fresh = _groups(spec)  # threads and connections that ended stay counted
            members = {name: sorted(set(members.get(name, ())) | set(fresh.get(name, ())))
                       for name in {*members, *fresh}}
            refreshed = now
        row: list[int] = []
        for name in names[:-1]:
            run = wait = 0
            for key in members.get(name, ()):
                got = _schedstat(*key)
                if got != (0, 0):
                    last[key] = got
                r, w = last.get(key, (0, 0))
                run += r
                wait += w
            row += [run, wait]
        row.append(_machine_busy_ns())
        times.append(now)
        rows.append(row)
        time.sleep(interval)
    conn.send({"names": names, "times": times, "rows": rows})


class Tracer:
    """Start (``start``) and stop (``stop``) a sampler over a stack's processes."""

    def __init__(self, servers: list[int], worker: int, database: str, redis: int | None,
                 interval: float = 0.01) -> None:
        self.spec = {"servers": servers, "worker": worker, "database": database, "redis": redis,
                     "client": os.getpid()}
        self.interval = interval
        self.proc: multiprocessing.Process | None = None
        self.conn: Any = None

    def start(self) -> None:
        ctx = multiprocessing.get_context("fork")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_sample, args=(self.spec, self.interval, child),
                                daemon=True)
        self.proc.start()

    def stop(self) -> Trace:
        self.conn.send("stop")
        data = self.conn.recv()
        self.proc.join(5)
        return Trace(data)


class Trace:
    """The samples, and what each group ran and waited over an interval."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.names: list[str] = data["names"]
        self.times: list[float] = data["times"]
        self.rows: list[list[int]] = data["rows"]

    def _at(self, t: float) -> list[int]:
        i = min(max(bisect.bisect_left(self.times, t), 0), len(self.times) - 1)
        return self.rows[i]

    def charge(self, lo: float, hi: float) -> dict[str, float]:
        """Milliseconds each group ran (``name run``) and waited for a core (``name wait``)
        between ``lo`` and ``hi`` (widened to the samples around them); the machine's busy
        CPU ms (``machine``, 10 ms resolution)."""
        a, b = self._at(lo - 0.0025), self._at(hi + 0.0025)
        out: dict[str, float] = {}
        for k, name in enumerate(self.names[:-1]):
            out[f"{name} run"] = (b[2 * k] - a[2 * k]) / 1e6
            out[f"{name} wait"] = (b[2 * k + 1] - a[2 * k + 1]) / 1e6
        out["machine"] = (b[-1] - a[-1]) / 1e6
        return out


def profile(trace: Trace, trips: list[tuple[float, float]], pick: Callable[[float], bool]
            ) -> dict[str, float]:
    """The mean charge (``Trace.charge``) of the round trips (send time, seconds) whose
    seconds ``pick`` keeps, and how many (``n``) and their mean trip (``trip ms``)."""
    chosen = [(t, s) for t, s in trips if pick(s)]
    total: dict[str, float] = {}
    for t, s in chosen:
        for k, v in trace.charge(t, t + s).items():
            total[k] = total.get(k, 0.0) + v
    n = len(chosen) or 1
    out = {k: v / n for k, v in total.items()}
    out["n"] = len(chosen)
    out["trip ms"] = 1000 * sum(s for _, s in chosen) / n
    return out
