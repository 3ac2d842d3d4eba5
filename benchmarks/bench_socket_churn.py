"""What opening and closing a websocket costs the machine: game sockets next to relay sockets.

A game's end replaces its sockets (two players, the spectators), so under load the cost of a
socket's life, not of a step, is a large part of the end of a game (BENCHMARKS.md, issue 7).
This opens and closes the sockets of ``--games`` fresh games (two players with their session
cookies, ``--spectators`` spectators) on one daphne process, one game at a time, ``--rounds``
times, and, in the same run and alternating with them, as many sockets of the bare relay
(``benchmarks/relay.py``: a group join, nothing else) as the baseline. It reports the CPU per
socket opened and closed, from ``/proc``: of the daphne process, of every PostgreSQL process and of
this client.

Needs what ``bench_load.py`` needs (PostgreSQL, the ``redis-server`` binary); starts its own
stack through ``tests/cluster/harness.py``. About a minute::

    .venv/bin/python benchmarks/bench_socket_churn.py
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import bench_load as bl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.cluster.harness import Cluster, ClusterUnavailable  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def _cpu_of(pid: str) -> float:
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime


def postgres_cpu() -> float:
    """CPU seconds of every PostgreSQL process (the server's backends included)."""
    total = 0.0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                if not fh.read().startswith(b"postgres"):
                    continue
            total += _cpu_of(pid)
        except OSError:  # gone meanwhile
            continue
    return total


def client_cpu() -> float:
    t = os.times()
    return t.user + t.system


async def churn(slots: list, rounds: int, server_pid: int) -> dict[str, float]:
    """CPU per socket opened and closed, ms: (daphne, postgres, client) for ``slots``."""
    before = (_cpu_of(str(server_pid)), postgres_cpu(), client_cpu())
    sockets = 0
    for _ in range(rounds):
        for slot in slots:
            await slot.open()
            sockets += len(slot.sockets)
            await slot.close()
            slot.sockets, slot.deliveries = [], []  # a relay slot appends on open
    after = (_cpu_of(str(server_pid)), postgres_cpu(), client_cpu())
    return {name: 1000 * (b - a) / sockets
            for name, a, b in zip(("daphne", "postgres", "client"), before, after, strict=True)}


async def run(cluster: Cluster, specs: list[dict], args) -> dict[str, dict[str, float]]:
    bases = [cluster.servers[0].base_url.split("//", 1)[1]]
    window, totals = bl.Window(), bl.Totals()
    games = [bl.GameSlot(s, bases, window, totals, random.Random(1)) for s in specs]
    relays = [bl.RelaySlot(s, bases, window, totals, 1 + args.spectators, "churn")
              for s in specs]
    pid = cluster.servers[0].proc.pid
    results: dict[str, list[dict[str, float]]] = {"relay": [], "game": []}
    await churn(games, 1, pid)  # warm-up: the first open of a game reads it from the database
    for _ in range(args.repeats):  # alternating, so that load from elsewhere hits both
        results["relay"].append(await churn(relays, args.rounds, pid))
        results["game"].append(await churn(games, args.rounds, pid))
    return {kind: {k: min(r[k] for r in runs) for k in runs[0]}
            for kind, runs in results.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=25)
    ap.add_argument("--spectators", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=2, help="opens and closes per game and repeat")
    ap.add_argument("--repeats", type=int, default=3, help="alternations; the least is kept")
    args = ap.parse_args(argv)
    env = {"SECRET_KEY": "churn-bench-not-a-secret-" + "x" * 20,
           "TALU_WS_HEARTBEAT": "20"}
    workdir = Path(tempfile.mkdtemp(prefix="talu-bench-churn-"))
    with Cluster(servers=1, env=env, workdir=workdir,
                 asgi="benchmarks.relay:application") as cluster:
        os.environ.update(cluster.env())
        bl.setup_django()
        specs = bl.make_slots(args.games, args.spectators, f"ch{int(time.time()) % 100000}")
        figures = asyncio.run(run(cluster, specs, args))
        from django.db import connections

        connections.close_all()  # before the harness drops the database
    per = 2 + args.spectators
    print(f"CPU per websocket opened and closed, ms ({args.games} games x {per} sockets, "
          f"{args.rounds} rounds, least of {args.repeats}):")
    for kind in ("relay", "game"):
        f = figures[kind]
        print(f"  {kind:5}  daphne {f['daphne']:5.2f}  postgres {f['postgres']:5.2f}  "
              f"client {f['client']:5.2f}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ClusterUnavailable as exc:
        print(f"bench_socket_churn: cannot start the stack: {exc}", file=sys.stderr)
        sys.exit(2)
