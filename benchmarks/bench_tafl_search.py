"""The tafl computer's benchmark (issue 42): level 8 against level 1, and the search's speed
beside talu's search in the same run.

    .venv/bin/python benchmarks/bench_tafl_search.py ladder --games 40 --jobs 2
    .venv/bin/python benchmarks/bench_tafl_search.py speed --positions 6

``ladder``: level 8 against level 1 (``--high``/``--low``), ``--games`` a board (tafl 7x7 and
9x9 and Tablut by default; ``--boards tafl:11,tablut:9``), sides alternated (the even games
give level 8 the attackers), game n seeded ``n`` (level 1's randomness; level 8 has none).
Budgets are the levels' node budgets with no CPU cap (``selfplay.play``), so a loaded machine
changes the time, not the games. Target: level 8 wins >= 95 % (a draw counts half).

``speed``: the search's nodes per second at levels 6 and 8 (no slip, no noise) from the opening
and from middlegames of seeded random play, on tafl 11x11 and Tablut; right after each row,
talu's search (``play.games.talu.search.choose_turn``) at level 4 on its standard variant for
about as long, in the same process. A tafl node is one move made (a ``Position.push`` with its
removals); a talu node one step state visited: the units differ, the ratio says the tafl
search is not slower per node than the talu search that meets its own targets.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from play.games.tafl import Position, Rules  # noqa: E402
from play.games.tafl.search import choose_move, get_level  # noqa: E402
from play.games.tafl.search.selfplay import play  # noqa: E402
from play.games.talu import TaluGame  # noqa: E402
from play.games.talu.search import choose_turn  # noqa: E402
from play.games.talu.search import get_level as talu_level  # noqa: E402


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if not n:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return ((c - h) / d, (c + h) / d)


def _board(text: str) -> Rules:
    game, n = text.split(":")
    return Rules(game, int(n))


def _game(board: str, high: int, low: int, n: int) -> dict:
    rules = _board(board)
    high_attacks = n % 2 == 0
    a, d = (high, low) if high_attacks else (low, high)
    started = time.perf_counter()
    g = play(rules, a, d, seed=n)
    high_side = 0 if high_attacks else 1
    points = 0.5 if g.winner is None else 1.0 if g.winner == high_side else 0.0
    return {"board": board, "game": n, "high_attacks": high_attacks, "points": points,
            "reason": g.reason, "plies": g.plies, "nodes": g.nodes,
            "seconds": round(time.perf_counter() - started, 1)}


def ladder(args: argparse.Namespace) -> dict:
    boards = args.boards.split(",")
    jobs = [(b, args.high, args.low, n) for n in range(args.games) for b in boards]
    results: list[dict] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(_game, *job) for job in jobs]
        for f in as_completed(futures):
            row = f.result()
            results.append(row)
            print(json.dumps(row), flush=True)
    summary = {}
    for b in boards:
        rows = [r for r in results if r["board"] == b]
        pts = sum(r["points"] for r in rows)
        lo, hi = wilson(pts, len(rows))
        summary[b] = {"games": len(rows), "points": pts, "rate": pts / len(rows),
                      "ci95": [round(lo, 3), round(hi, 3)],
                      "as_attackers": sum(r["points"] for r in rows if r["high_attacks"]),
                      "mean_plies": sum(r["plies"] for r in rows) / len(rows)}
    total = sum(s["points"] for s in summary.values())
    count = sum(s["games"] for s in summary.values())
    out = {"high": args.high, "low": args.low, "boards": summary, "points": total,
           "games": count, "rate": total / count,
           "ci95": [round(x, 3) for x in wilson(total, count)]}
    print(json.dumps(out), flush=True)
    return out


def tafl_positions(rules: Rules, count: int) -> list[Position]:
    """The opening and middlegames of seeded random play (10-30 moves), unfinished."""
    rng = random.Random(42)
    out = [Position(rules)]
    while len(out) < count:
        p = Position(rules)
        for _ in range(rng.randint(10, 30)):
            if p.result is not None:
                break
            p.push(rng.choice(p.legal_moves()))
            while p.pending:
                p.push_removal(rng.choice(p.pending[0]))
        if p.result is None:
            out.append(p)
    return out


def talu_positions(count: int) -> list[TaluGame]:
    from play.games.talu.search import choose_turn as turn  # the same seeded openings

    out = [TaluGame("standard")]
    while len(out) < count:
        g = TaluGame("standard")
        for n in range(2 * len(out)):
            if g.outcome is not None:
                break
            for step in turn(g, 1, seed=n).steps:
                g.play(step)
        if g.outcome is None:
            out.append(g)
    return out


def talu_rate(games: list[TaluGame], seconds: float) -> tuple[int, float]:
    """Talu's level-4 search (no slip) for about ``seconds``: its nodes and CPU seconds."""
    level = replace(talu_level(4), slip=0)
    nodes, spent, i = 0, 0.0, 0
    while spent < seconds:
        c = choose_turn(games[i % len(games)], level, seed=i, seconds=0)
        nodes += c.nodes
        spent += c.cpu
        i += 1
    return nodes, spent


def speed(args: argparse.Namespace) -> dict:
    talu_games = talu_positions(args.positions)
    rows = []
    for board in ("tafl:11", "tablut:9"):
        positions = tafl_positions(_board(board), args.positions)
        for level in (6, 8):
            lv = replace(get_level(level), slip=0.0, noise=0)
            nodes, spent = 0, 0.0
            for n, pos in enumerate(positions):
                c = choose_move(pos, lv, seed=n, seconds=0)
                nodes += c.nodes
                spent += c.cpu
            tn, ts = talu_rate(talu_games, spent)
            row = {"board": board, "level": level, "positions": len(positions),
                   "nodes": nodes, "cpu": round(spent, 2), "nodes_per_s": round(nodes / spent),
                   "cpu_per_move": round(spent / len(positions), 2),
                   "talu_nodes_per_s": round(tn / ts), "ratio": round(nodes / spent / (tn / ts), 2)}
            rows.append(row)
            print(json.dumps(row), flush=True)
    return {"rows": rows}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    lad = sub.add_parser("ladder")
    lad.add_argument("--games", type=int, default=40, help="games a board")
    lad.add_argument("--boards", default="tafl:7,tafl:9,tablut:9")
    lad.add_argument("--high", type=int, default=8)
    lad.add_argument("--low", type=int, default=1)
    lad.add_argument("--jobs", type=int, default=2)
    s = sub.add_parser("speed")
    s.add_argument("--positions", type=int, default=6)
    args = p.parse_args()
    {"ladder": ladder, "speed": speed}[args.what](args)


if __name__ == "__main__":
    main()
