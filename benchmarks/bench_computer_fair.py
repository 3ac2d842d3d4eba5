"""The computer's pool shared between accounts (issue 41, finding 6): a person's level-1 replies
beside two accounts that keep three level-8 grand-master searches each in the pool.

    .venv/bin/python benchmarks/bench_computer_fair.py                 # ~3.5 min
    .venv/bin/python benchmarks/bench_computer_fair.py --seconds 20    # shorter
    .venv/bin/python benchmarks/bench_computer_fair.py --json fair.json

The attack as the issue measured it (0.04 s -> median 11.5 s, max 25.5 s), on the pool alone:
no stack, no database, the worker's own pool of ``--processes`` forkserver children under
``SCHED_IDLE`` (``play.background_pool``) running the real ``think`` of ``play.computer.think``.
Two attackers keep three level-8 searches each in the pool at all times (the opening of
grand-master talu, the computer playing light: a person who answers at once); a third person
asks for a level-1 reply (the opening of standard talu), waits for it, looks at it for
``--pause`` seconds, asks again. Measured after a ``--warmup``: each reply's time from asking
to answer (p50, max), and the level-8 searches the attackers got done meanwhile. Modes, one
after the other on fresh pools:

- ``fifo``: the pool before issue 41, a ``ProcessPoolExecutor`` of ``--processes`` started in
  the order asked;
- ``fair``: the fair scheduler (``play.computer.fair``) in front of the same processes, no
  quick lane: a reply waits for one running search to end, never behind the queue;
- ``fair+quick``: the site's pool (``play.computer.pool``): that scheduler and one process
  more that only the cheap levels may take.

The machine is shared and the pool runs on CPU nobody else wants: a loaded machine stretches
every figure. Compare modes of one run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from play.background_pool import process_pool  # noqa: E402
from play.computer.fair import FairExecutor, FairScheduler  # noqa: E402
from play.computer.think import snapshot, think  # noqa: E402
from play.games.talu import TaluGame  # noqa: E402
from play.games.talu.search import get_level  # noqa: E402

QUICK_COST = 1.0  # as play.computer.pool: levels 1-3
NICE = 10


def _pools(processes: int) -> dict[str, Callable[[], Executor]]:
    return {
        "fifo": lambda: process_pool(processes, True, NICE),
        "fair": lambda: FairExecutor(process_pool(processes, True, NICE),
                                     FairScheduler(processes, 0, QUICK_COST)),
        "fair+quick": lambda: FairExecutor(process_pool(processes + 1, True, NICE),
                                           FairScheduler(processes, 1, QUICK_COST)),
    }


def _submit(pool: Executor, account: str, level: int, position: bytes, variant: str) -> Future:
    if isinstance(pool, FairExecutor):
        return pool.submit_for(account, get_level(level).seconds, think, variant, position,
                               level)
    return pool.submit(think, variant, position, level)


def run_mode(name: str, make: Callable[[], Executor], args: argparse.Namespace) -> dict[str, Any]:
    pool = make()
    grand_master = snapshot(TaluGame("grand-master"))
    standard = snapshot(TaluGame("standard"))
    stop = threading.Event()
    measuring = threading.Event()
    searches = {"mallory": 0, "trudy": 0}
    lock = threading.Lock()

    def keep_busy(account: str, _done: Future | None = None) -> None:
        if _done is not None and measuring.is_set() and not _done.cancelled():
            with lock:
                searches[account] += 1
        if stop.is_set():
            return
        try:
            future = _submit(pool, account, 8, grand_master, "grand-master")
        except RuntimeError:  # the pool stopped
            return
        future.add_done_callback(lambda f: keep_busy(account, f))

    for account in searches:
        for _ in range(args.games):
            keep_busy(account)
    time.sleep(args.warmup)
    measuring.set()
    replies: list[float] = []
    until = time.monotonic() + args.seconds
    while time.monotonic() < until:
        asked = time.perf_counter()
        _submit(pool, "vic", 1, standard, "standard").result()
        replies.append(time.perf_counter() - asked)
        time.sleep(args.pause)
    stop.set()
    with lock:
        done = dict(searches)
    pool.shutdown(wait=True, cancel_futures=True)  # the searches running end first
    return {"mode": name, "replies": len(replies),
            "reply_p50_s": statistics.median(replies), "reply_max_s": max(replies),
            "level8_searches": done}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=2, help="TALU_COMPUTER_PROCESSES")
    parser.add_argument("--games", type=int, default=3, help="level-8 games per attacker")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured, per mode")
    parser.add_argument("--warmup", type=float, default=8.0)
    parser.add_argument("--pause", type=float, default=0.5, help="between a reply and the next")
    parser.add_argument("--modes", default="fifo,fair,fair+quick")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args()
    pools = _pools(args.processes)
    results = {"machine": {"cores": os.cpu_count(), "load_before": os.getloadavg()},
               "args": {k: v for k, v in vars(args).items() if k != "json"}, "modes": []}
    print(f"{'mode':<12} {'replies':>7} {'p50 s':>8} {'max s':>8}  level-8 searches")
    for name in args.modes.split(","):
        row = run_mode(name, pools[name], args)
        results["modes"].append(row)
        print(f"{name:<12} {row['replies']:>7} {row['reply_p50_s']:>8.3f} "
              f"{row['reply_max_s']:>8.3f}  {row['level8_searches']}", flush=True)
    results["machine"]["load_after"] = os.getloadavg()
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
