"""Quick pairing's latency on the cluster (issue 23, R47): from the second player joining a pool
to both players having their game, with players joining at a steady rate.

    .venv/bin/python benchmarks/bench_matchmaking.py                    # 200 players, 100/min
    .venv/bin/python benchmarks/bench_matchmaking.py --players 60 --rate 100 --baseline 30

The stack is the cluster harness's (``tests/cluster/harness.py``): a fresh PostgreSQL
database, a private Redis, ``--servers`` daphne processes and ``--workers`` worker processes
with the site's default pool settings (``TALU_POOL_WAVE`` 3 s, ``TALU_WORKER_POLL`` 1 s;
``--env NAME=VALUE`` to change them).

The pool: ``--players`` new accounts (all rated 250: each in everyone's range) arrive as a
Poisson stream of ``--rate`` a minute. Each opens the lobby's websocket on one process, joins
the rated 3+2 pool through the API on the other (``POST /api/v1/pool/me/``) and waits for its
``paired`` message; then it leaves the lobby for its game (closes the socket). For each game:
from the moment the later of its two players sent their join to the moment the second of
them received ``paired``.

The baseline, in the same run after the pool: the same number of players a minute, as pairs
that do not wait at all: one opens a challenge to anyone, the other accepts it directly (the
lobby's form). From the accept being sent to both having the game: the accepter by the
answer (a redirect to the game), the challenger by their lobby socket's ``changed`` and the
lobby's state they then fetch (``/lobby/state.json``: their new game; the lobby page waits a
random 50-300 ms before that fetch, the benchmark does not). It is the floor of starting a
game between two players who have found each other; the pool's figure minus it is what the
waves cost.

Reported: p50, p99 and max of each, the joins' own HTTP round trip, how many games, and the
load average before and after (figures taken at a load above 4 are *loaded*).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from bench_endings import machine, spread  # noqa: E402  (percentiles as the others report)

from tests.cluster.harness import Cluster, ClusterUnavailable  # noqa: E402
from tests.cluster.lobby import LobbyPlayer  # noqa: E402

POOL_TIME = "fischer 180+2"
WAIT = 120.0  # seconds a player waits for their game before the run counts it lost


def arrivals(n: int, per_minute: float, rng: random.Random) -> list[float]:
    """``n`` arrival times (seconds from the start) of a Poisson stream of ``per_minute``."""
    t, out = 0.0, []
    for _ in range(n):
        out.append(t)
        t += rng.expovariate(per_minute / 60.0)
    return out


async def pool_player(p: LobbyPlayer, at: float, start: float, record: dict[str, Any]) -> None:
    await asyncio.sleep(max(0.0, start + at - time.monotonic()))
    await p.connect()
    try:
        record["join_sent"] = time.monotonic()
        answer = await p.join(POOL_TIME)
        record["join_answered"] = time.monotonic()
        if answer.status != 201:
            record["error"] = f"join: HTTP {answer.status} {answer.body}"
            return
        try:
            record["game"] = await p.wait_paired(WAIT)
            record["paired_at"] = p.paired[0][1]
        except AssertionError as err:
            record["error"] = str(err)
    finally:
        await p.close()


def pool_latencies(records: dict[str, dict[str, Any]]) -> tuple[list[float], list[str]]:
    """Second join to both paired, per game; and what went wrong."""
    by_game: dict[str, list[dict[str, Any]]] = {}
    problems = [f"{name}: {r['error']}" for name, r in records.items() if "error" in r]
    for r in records.values():
        if "game" in r:
            by_game.setdefault(r["game"], []).append(r)
    out = []
    for game, pair in by_game.items():
        if len(pair) != 2:
            problems.append(f"game {game} was sent to {len(pair)} players")
            continue
        out.append(max(r["paired_at"] for r in pair) - max(r["join_sent"] for r in pair))
    return out, problems


async def run_pool(cluster: Cluster, cookies: dict[str, str], names: list[str],
                   per_minute: float, rng: random.Random) -> dict[str, Any]:
    players = [LobbyPlayer(cluster, name, cookies[name], server=n % len(cluster.servers),
                           http_server=(n + 1) % len(cluster.servers))
               for n, name in enumerate(names)]
    records: dict[str, dict[str, Any]] = {name: {} for name in names}
    times = arrivals(len(players), per_minute, rng)
    start = time.monotonic()
    await asyncio.gather(*(pool_player(p, at, start, records[p.name])
                           for p, at in zip(players, times, strict=True)))
    latencies, problems = pool_latencies(records)
    joins = [r["join_answered"] - r["join_sent"] for r in records.values()
             if "join_answered" in r]
    return {"second_join_to_both": spread(latencies), "join_round_trip": spread(joins),
            "games": len(latencies), "unpaired": sum(1 for r in records.values()
                                                     if "game" not in r),
            "problems": problems, "seconds": time.monotonic() - start}


async def challenge_pair(creator: LobbyPlayer, accepter: LobbyPlayer, at: float, start: float,
                         out: list[float], problems: list[str]) -> None:
    """One open challenge, accepted directly: the accept to both players having the game."""
    await asyncio.sleep(max(0.0, start + at - time.monotonic()))
    await creator.connect()
    try:
        answer = await creator.request("POST", "/challenges/new/", form={
            "csrfmiddlewaretoken": creator.csrf, "variant": "standard", "rated": "1",
            "time": POOL_TIME, "side": "random"})
        if answer.status != 302:
            problems.append(f"{creator.name}: challenge HTTP {answer.status}")
            return
        state = await accepter.request("GET", "/lobby/state.json")
        ids = [c["id"] for c in state.body["challenges"] if c["creator"] == creator.name]
        if len(ids) != 1:
            problems.append(f"{creator.name}'s challenge seen {len(ids)} times")
            return
        seen = creator.changed
        sent = time.monotonic()
        accepted = asyncio.ensure_future(timed(accepter.request(
            "POST", f"/challenges/{ids[0]}/accept/",
            form={"csrfmiddlewaretoken": accepter.csrf})))
        creator_has = None
        while creator_has is None:  # the challenger's lobby: on each change, its state
            await creator.wait_changed(seen, WAIT)
            seen = creator.changed
            mine = (await creator.request("GET", "/lobby/state.json")).body["my_games"]
            if mine:
                creator_has = time.monotonic()
        answer, answered = await accepted
        if answer.status != 302 or "/games/" not in answer.location:
            problems.append(f"{accepter.name}: accept HTTP {answer.status}")
            return
        out.append(max(creator_has, answered) - sent)
    except AssertionError as err:
        problems.append(str(err))
    finally:
        await creator.close()


async def timed(call) -> tuple[Any, float]:
    """What ``call`` answered, and when."""
    return await call, time.monotonic()


async def run_baseline(cluster: Cluster, cookies: dict[str, str], names: list[str],
                       per_minute: float, rng: random.Random) -> dict[str, Any]:
    n = len(cluster.servers)
    pairs = [(LobbyPlayer(cluster, a, cookies[a], server=k % n, http_server=(k + 1) % n),
              LobbyPlayer(cluster, b, cookies[b], server=k % n, http_server=(k + 1) % n))
             for k, (a, b) in enumerate(zip(names[::2], names[1::2], strict=True))]
    times = arrivals(len(pairs), per_minute / 2, rng)  # two players a pair
    out: list[float] = []
    problems: list[str] = []
    start = time.monotonic()
    await asyncio.gather(*(challenge_pair(a, b, at, start, out, problems)
                           for (a, b), at in zip(pairs, times, strict=True)))
    return {"accept_to_both": spread(out), "games": len(out), "problems": problems,
            "seconds": time.monotonic() - start}


def errors_in(logs: list[str]) -> dict[str, int]:
    """The exceptions the logs' tracebacks ended in, and how many times each."""
    found: dict[str, int] = {}
    for text in logs:
        lines = text.splitlines()
        for k, line in enumerate(lines):
            if line.startswith("Traceback"):
                end = next((m for m in lines[k + 1:] if m and not m[0].isspace()), "?")
                found[end[:200]] = found.get(end[:200], 0) + 1
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=200, help="pool players (even)")
    parser.add_argument("--baseline", type=int, default=100,
                        help="players of the challenge baseline (even; 0: none)")
    parser.add_argument("--rate", type=float, default=100.0, help="players a minute")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--json", type=Path, help="write the results here too")
    args = parser.parse_args(argv)
    env = {"TALU_WS_HEARTBEAT": "20"}  # the production default, not the cluster tests' 1 s
    for item in args.env:
        name, _, value = item.partition("=")
        env[name] = value
    info = machine()
    rng = random.Random(args.seed)
    tag = f"mm{int(time.time()) % 100000}"
    pool_names = [f"{tag}p{n}" for n in range(args.players)]
    base_names = [f"{tag}b{n}" for n in range(args.baseline)]
    print(f"matchmaking: {args.players} pool players at {args.rate:.0f}/min, baseline "
          f"{args.baseline}, {args.servers} processes, {args.workers} worker(s), env {env}; "
          f"load before {info['load_before']}", flush=True)
    try:
        with Cluster(servers=args.servers, workers=args.workers, env=env) as cluster:
            cookies = cluster.accounts([*pool_names, *base_names])
            pool = asyncio.run(run_pool(cluster, cookies, pool_names, args.rate, rng))
            base = (asyncio.run(run_baseline(cluster, cookies, base_names, args.rate, rng))
                    if base_names else None)
            tracebacks = errors_in([p.tail(10**7) for p in [*cluster.servers,
                                                            *cluster.workers]])
    except ClusterUnavailable as err:
        print(f"cannot start the stack: {err}", file=sys.stderr)
        return 2
    results = {"when": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
               "command": " ".join(["benchmarks/bench_matchmaking.py", *(argv or sys.argv[1:])]),
               "machine": {**info, "load_after": os.getloadavg()}, "env": env,
               "pool": pool, "baseline": base, "tracebacks": tracebacks}
    show = pool["second_join_to_both"]
    print(f"pool: second join to both paired: p50 {show['p50_ms']:.0f} ms, p99 "
          f"{show['p99_ms']:.0f} ms, max {show['max_ms']:.0f} ms over {pool['games']} games "
          f"({pool['unpaired']} unpaired); join round trip p50 "
          f"{pool['join_round_trip']['p50_ms']:.0f} ms")
    if base is not None and base["games"]:
        b = base["accept_to_both"]
        print(f"baseline: challenge accepted to both: p50 {b['p50_ms']:.0f} ms, p99 "
              f"{b['p99_ms']:.0f} ms, max {b['max_ms']:.0f} ms over {base['games']} games")
    for problem in [*pool["problems"], *((base or {}).get("problems") or [])][:20]:
        print("  problem:", problem)
    print(f"tracebacks in the logs: {tracebacks or 'none'}; load after "
          f"{results['machine']['load_after']}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
