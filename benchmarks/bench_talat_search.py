"""Talat's computer benchmark (issue 37): level N against two level-1 seats, and the speed of
a whole game of three computer seats.

    .venv/bin/python benchmarks/bench_talat_search.py ladder --games 60 --jobs 1
    .venv/bin/python benchmarks/bench_talat_search.py ladder --variant two --games 40
    .venv/bin/python benchmarks/bench_talat_search.py speed --games 3

``ladder``: three-seat games (``--variant``) with one seat at level ``--high`` (4) and the
others at ``--low`` (1), the strong seat rotated through the seats (game n: seat n mod 3),
game n seeded ``n`` (the levels' randomness). Budgets are the levels' node budgets with no
CPU cap (``search.selfplay.play``), so a loaded machine changes the time, not the games. A
game counts when the strong seat ranks first alone (A8: a shared first place does not
count); the rate has a 95 % Wilson interval. Target (issue 37): >= 90 %.

``speed``: whole three-seat games with every seat at ``--level`` (4), at the level's full
budget (nodes and its CPU cap, as on the site): the CPU seconds of each game (all seats'
searches; target: under 30 s) after ``--opening`` seeded random placements (level 4 has no
randomness: each game would be the same), the turns, and the search's nodes per CPU second.
A node is one action made (``Position.push``) in the search or its captures' look at the leaves.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from play.games.talat import Position  # noqa: E402
from play.games.talat.search import choose_action  # noqa: E402
from play.games.talat.search.selfplay import play  # noqa: E402


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if not n:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return ((c - h) / d, (c + h) / d)


def _game(variant: str, high: int, low: int, n: int) -> dict:
    seats = 3 if variant == "three" else 2
    seat = n % seats
    levels = tuple(high if s == seat else low for s in range(seats))
    started = time.perf_counter()
    g = play(variant, levels, seed=n)
    first = g.ranks[seat] == 1 and list(g.ranks.values()).count(1) == 1
    return {"game": n, "seat": seat + 1, "first": first, "rank": g.ranks[seat],
            "scores": list(g.scores), "reason": g.reason, "turns": g.turns,
            "nodes": g.nodes, "cpu": round(g.cpu, 2),
            "seconds": round(time.perf_counter() - started, 1)}


def ladder(args: argparse.Namespace) -> dict:
    results: list[dict] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(_game, args.variant, args.high, args.low, n)
                   for n in range(args.games)]
        for f in as_completed(futures):
            row = f.result()
            results.append(row)
            print(json.dumps(row), flush=True)
    firsts = sum(r["first"] for r in results)
    n = len(results)
    by_seat = {s: sum(r["first"] for r in results if r["seat"] == s)
               for s in sorted({r["seat"] for r in results})}
    out = {"variant": args.variant, "high": args.high, "low": args.low, "games": n,
           "first": firsts, "rate": round(firsts / n, 3),
           "ci95": [round(x, 3) for x in wilson(firsts, n)], "first_by_seat": by_seat,
           "mean_rank": round(sum(r["rank"] for r in results) / n, 2),
           "mean_turns": round(sum(r["turns"] for r in results) / n, 1)}
    print(json.dumps(out), flush=True)
    return out


def speed(args: argparse.Namespace) -> dict:
    rows = []
    for n in range(args.games):
        pos = Position(args.variant)
        rng = random.Random(n)
        for _ in range(args.opening):  # a seeded opening: level 4 has no randomness
            pos.push(rng.choice(pos.legal()))
        nodes, cpu, worst = 0, 0.0, 0.0
        started = time.process_time()
        while not pos.finished:
            c = choose_action(pos, args.level, seed=n * 1000 + pos.turns)
            nodes += c.nodes
            cpu += c.cpu
            worst = max(worst, c.cpu)
            pos.push(c.action)
        row = {"game": n, "variant": args.variant, "level": args.level, "turns": pos.turns,
               "reason": pos.reason, "scores": pos.scores[:pos.players],
               "cpu_search": round(cpu, 2),
               "cpu_process": round(time.process_time() - started, 2),
               "worst_turn_cpu": round(worst, 3), "nodes": nodes,
               "nodes_per_s": round(nodes / cpu) if cpu else 0}
        rows.append(row)
        print(json.dumps(row), flush=True)
    total = sum(r["cpu_process"] for r in rows)
    out = {"games": len(rows), "mean_cpu_per_game": round(total / len(rows), 2),
           "max_cpu_per_game": max(r["cpu_process"] for r in rows),
           "nodes_per_s": round(sum(r["nodes"] for r in rows)
                                / sum(r["cpu_search"] for r in rows))}
    print(json.dumps(out), flush=True)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    lad = sub.add_parser("ladder")
    lad.add_argument("--games", type=int, default=60)
    lad.add_argument("--variant", default="three", choices=("three", "two"))
    lad.add_argument("--high", type=int, default=4)
    lad.add_argument("--low", type=int, default=1)
    lad.add_argument("--jobs", type=int, default=1)
    s = sub.add_parser("speed")
    s.add_argument("--games", type=int, default=3)
    s.add_argument("--variant", default="three", choices=("three", "two"))
    s.add_argument("--level", type=int, default=4)
    s.add_argument("--opening", type=int, default=3, help="random placements first (seeded)")
    args = p.parse_args()
    {"ladder": ladder, "speed": speed}[args.what](args)


if __name__ == "__main__":
    main()
