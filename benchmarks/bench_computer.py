"""The computer opponent's benchmark (issue 25): strength ladder, search speed beside sunfish.

    .venv/bin/python benchmarks/bench_computer.py speed --sunfish /tmp/sunfish/sunfish.py
    .venv/bin/python benchmarks/bench_computer.py ladder --games 100 [--variant standard]
    .venv/bin/python benchmarks/bench_computer.py ladder --reduced      # what time allowed
    .venv/bin/python benchmarks/bench_computer.py pair --a 8:fitted --b 8:hand --games 30

``speed``: for each variant and level, the computer's search from a fixed set of positions
(the opening and middlegames of seeded random play): nodes per second and whole turns generated
per second. A talu *node* is one step state visited (a step applied to a copy of a turn in
progress) or one exact R10 check (counted as ``JUDGE_NODES``); a *turn* is one distinct end
position a turn can reach. Beside it, in the same run, sunfish (a pure-Python chess engine,
fetched for the benchmark only, never into the project; give the path of its ``sunfish.py``)
searching chess positions for the same time: its own ``nodes`` counter (positions whose bound
it computes). Both are single-threaded CPython; measurements are interleaved so the machine's
load hits both alike.

``ladder``: level L against level L-1 (L = 2..8) and level 1 against a random legal mover,
``--games`` each, sides alternated, seeds fixed, each game from a seeded random opening of
``--opening`` turns (default 2: one each; the levels without noise are deterministic). A game
that reaches ``--max-turns`` is scored a draw (half a point). Target: each level >= 65 %
against the one below, level 1 >= 95 % against random. Games run in ``--jobs`` processes.

``pair``: two searches against each other in the same harness (seeds ``1000 * level + n``,
sides alternated, the same openings), a level with its own weights or with the evaluation's
fitted, refitted or hand-set ones (``8:fitted``, ``8:refitted``, ``8:hand``): how the fitted
weights were screened.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import platform
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from play.games.talu import TaluGame  # noqa: E402
from play.games.talu.search import Level, choose_turn, get_level  # noqa: E402

VARIANTS = ("standard", "dynamic", "grand-master")


# --- players ---------------------------------------------------------------------------------
def random_turn(game: TaluGame, rng: random.Random) -> None:
    """A random legal turn: random legal steps until the turn ends (never a pass when a step
    is possible, so the random mover does not simply forfeit by R12)."""
    side = game.side_to_move
    while game.outcome is None and game.side_to_move is side:
        steps = game.legal_steps()
        if len(steps) > 1 and game.steps_used == 0:
            steps = [s for s in steps if s.kind != "pass"]
        game.play(rng.choice(steps))


def computer_turn(game: TaluGame, level: int | Level, seed: int) -> int:
    # No time cap: a level is its node budget, whatever the machine's load (the site keeps
    # the level's time cap as a safety, which binds only on a machine several times slower).
    choice = choose_turn(game, level, seed=seed, seconds=0)
    for step in choice.steps:
        game.play(step)
    return choice.nodes


def play_game(args: tuple[str, int, int, int, int]) -> dict:
    """One game: ``hi`` (a level) against ``lo`` (a level, 0 = random); ``hi_side`` 0 = I."""
    variant, hi, lo, hi_side, seed = args[:5]  # then max_turns, opening turns
    max_turns = args[5] if len(args) > 5 else 200
    opening = args[6] if len(args) > 6 else 0
    rng = random.Random(seed)
    game = TaluGame(variant)
    turns = 0
    started = time.perf_counter()
    # A seeded random opening: the levels without noise are deterministic, and without it
    # every game of a pair with the same sides would be the same game.
    while game.outcome is None and turns < opening:
        random_turn(game, rng)
        turns += 1
    while game.outcome is None and turns < max_turns:
        me = game.turn.side
        level = hi if me == hi_side else lo
        if level == 0:
            random_turn(game, rng)
        else:
            computer_turn(game, level, seed * 1000 + turns)
        turns += 1
    o = game.outcome
    score = 0.5 if o is None or o.winner is None else 1.0 if o.winner.index == hi_side else 0.0
    return {"variant": variant, "hi": _label(hi), "lo": _label(lo), "hi_side": hi_side,
            "seed": seed, "score": score, "turns": turns,
            "reason": o.reason.value if o else "max-turns",
            "seconds": time.perf_counter() - started}


WEIGHT_SETS = ("hand", "fitted", "refitted")  # ``Level.tuned`` 0, 1, 2 (``evaluate.FITTED``)


def _label(level: int | Level) -> int | str:
    """A level's number, or for a level with other weights than its own (``pair``) its number
    and the weights: "8 fitted", "8 refitted", "8 hand"."""
    if isinstance(level, int):
        return level
    return f"{level.number} {WEIGHT_SETS[level.tuned]}"


def pair(args: argparse.Namespace) -> dict:
    """Two searches of the same harness against each other, e.g. level 8 with the fitted
    weights against level 8 with the hand-set ones (``--a 8:fitted --b 8:hand``)."""
    def spec(text: str) -> Level:
        number, _, weights = text.partition(":")
        lv = get_level(int(number))
        if weights and weights not in WEIGHT_SETS:
            raise SystemExit(f"{text!r}: the weights are one of {', '.join(WEIGHT_SETS)}")
        return replace(lv, tuned=WEIGHT_SETS.index(weights)) if weights else lv

    a, b = spec(args.a), spec(args.b)
    jobs = [(args.variant, a, b, n % 2, 1000 * a.number + n + args.seed_base, args.max_turns,
             args.opening) for n in range(args.games)]
    results: list[dict] = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for done in as_completed([pool.submit(play_game, job) for job in jobs]):
            results.append(done.result())
            print(json.dumps(results[-1]), file=sys.stderr, flush=True)
    return {"variant": args.variant, "table": table_of(results)}


def wilson(points: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % confidence interval (Wilson score) of a rate of ``points`` in ``games``."""
    if not games:
        return (0.0, 1.0)
    p = points / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def table_of(results: list[dict]) -> list[dict]:
    """One row per rung of the games played (also from a stopped run's log, ``--from-log``)."""
    table = []
    for hi in sorted({r["hi"] for r in results}):
        rows = [r for r in results if r["hi"] == hi]
        lo = rows[0]["lo"]
        points = sum(r["score"] for r in rows)
        target = 0.95 if lo == 0 else 0.65
        low, high = wilson(points, len(rows))
        table.append({
            "pair": f"level {hi} vs {'random' if lo == 0 else f'level {lo}'}",
            "games": len(rows), "points": points, "rate": points / len(rows),
            "ci95": [round(low, 3), round(high, 3)],
            "target": target, "met": points / len(rows) >= target,
            "as_I": sum(r["score"] for r in rows if r["hi_side"] == 0),
            "as_O": sum(r["score"] for r in rows if r["hi_side"] == 1),
            "mean_turns": sum(r["turns"] for r in rows) / len(rows),
            "endings": {k: sum(1 for r in rows if r["reason"] == k)
                        for k in sorted({r["reason"] for r in rows})},
            "seconds_per_game": sum(r["seconds"] for r in rows) / len(rows),
        })
    return table


def ladder(args: argparse.Namespace) -> dict:
    if args.from_log:
        results = [json.loads(line) for line in Path(args.from_log).read_text().splitlines()
                   if line.startswith("{")]
        return {"variant": args.variant, "from_log": args.from_log,
                "table": table_of(results)}
    pairs = [(1, 0)] + [(lv, lv - 1) for lv in range(2, 9)]
    if args.reduced:  # what a shared machine allows in minutes: fewer games up the ladder
        games = {1: 100, 2: 60, 3: 40, 4: 24, 5: 12, 6: 8, 7: 4, 8: 2}
    else:
        games = {lv: args.games for lv, _ in pairs}
    if args.levels:
        wanted = {int(x) for x in args.levels.split(",")}
        pairs = [p for p in pairs if p[0] in wanted]
    jobs = [(args.variant, hi, lo, n % 2, 1000 * hi + n + args.seed_base, args.max_turns,
             args.opening)
            for hi, lo in pairs for n in range(games[hi])]
    if args.interleave:  # game n of every rung, then n + 1: a run stopped early has all rungs
        jobs.sort(key=lambda j: (j[4] % 1000, j[1]))
    results: list[dict] = []
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(play_game, job) for job in jobs]
        for done in as_completed(futures):
            r = done.result()
            results.append(r)
            print(json.dumps(r), file=sys.stderr, flush=True)  # progress, one game a line
    return {"variant": args.variant, "reduced": args.reduced, "table": table_of(results),
            "wall_seconds": time.perf_counter() - started}


# --- speed -----------------------------------------------------------------------------------
def positions(variant: str, count: int) -> list[TaluGame]:
    """The opening, then middlegames of seeded random play (turns 6-20), none finished."""
    out = [TaluGame(variant)]
    rng = random.Random(f"speed-{variant}")
    while len(out) < count:
        game = TaluGame(variant)
        for _ in range(rng.randrange(6, 20)):
            random_turn(game, rng)
            if game.outcome is not None:
                break
        if game.outcome is None:
            out.append(game)
    return out


def load_sunfish(path: str):
    spec = importlib.util.spec_from_file_location("sunfish_bench", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sunfish_positions(sf) -> list:
    """The chess start and positions after a few opening moves (sunfish's own Position)."""
    lines = [[], ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"],
             ["d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6", "c1g5", "f8e7"],
             ["e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6"]]
    out = []
    for moves in lines:
        hist = [sf.Position(sf.initial, 0, (True, True), (True, True), 0, 0)]
        for ply, m in enumerate(moves):
            i, j = sf.parse(m[:2]), sf.parse(m[2:4])
            if ply % 2 == 1:
                i, j = 119 - i, 119 - j
            hist.append(hist[-1].move(sf.Move(i, j, "")))
        out.append(hist)
    return out


def sunfish_rate(sf, hists: list, seconds: float) -> tuple[int, float]:
    """Nodes sunfish visits searching each position for ``seconds``; (nodes, elapsed)."""
    total, elapsed = 0, 0.0
    for hist in hists:
        searcher = sf.Searcher()
        t0 = time.perf_counter()
        for _depth, _gamma, _score, _move in searcher.search(hist):
            if time.perf_counter() - t0 > seconds:
                break
        elapsed += time.perf_counter() - t0
        total += searcher.nodes
    return total, elapsed


def speed(args: argparse.Namespace) -> dict:
    sf = load_sunfish(args.sunfish) if args.sunfish else None
    hists = sunfish_positions(sf) if sf else []
    rows = []
    levels = [int(x) for x in args.speed_levels.split(",")]
    for variant in VARIANTS:
        games = positions(variant, args.positions)
        for level in levels:
            nodes = turns = 0
            spent = 0.0
            # the level's search (a slip, a turn walked at random, searches nothing)
            searched = replace(get_level(level), slip=0)
            for n, game in enumerate(games):
                c = choose_turn(game, searched, seed=n, seconds=0)
                nodes += c.nodes
                turns += c.turns
                spent += c.seconds
            row = {"variant": variant, "level": level, "positions": len(games),
                   "nodes": nodes, "seconds": spent, "nodes_per_s": nodes / spent,
                   "turns_per_s": turns / spent, "seconds_per_turn": spent / len(games)}
            if sf:  # interleaved: sunfish for about as long, right after
                sn, st = sunfish_rate(sf, hists, max(0.2, spent / len(hists)))
                row["sunfish_nodes_per_s"] = sn / st
                row["ratio"] = row["nodes_per_s"] / row["sunfish_nodes_per_s"]
            rows.append(row)
            print(json.dumps(row), flush=True)
    return {"rows": rows}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--sunfish", help="path of sunfish.py (fetched for the benchmark only)")
    s.add_argument("--positions", type=int, default=6)
    s.add_argument("--speed-levels", default="1,4,6,8")
    lad = sub.add_parser("ladder")
    lad.add_argument("--variant", default="standard", choices=VARIANTS)
    lad.add_argument("--games", type=int, default=100)
    lad.add_argument("--reduced", action="store_true")
    lad.add_argument("--levels", default="", help="only these upper levels, e.g. 1,2,3")
    lad.add_argument("--max-turns", type=int, default=200)
    lad.add_argument("--jobs", type=int, default=2)
    lad.add_argument("--seed-base", type=int, default=0, help="more games: other seeds")
    lad.add_argument("--interleave", action="store_true",
                     help="play the rungs' games in turn (a run stopped early has them all)")
    lad.add_argument("--from-log", help="the table of a (stopped) run's progress lines")
    lad.add_argument("--opening", type=int, default=2,
                     help="random turns (both sides) before the levels play")
    pr = sub.add_parser("pair", help="two searches: LEVEL or LEVEL:hand / :fitted / :refitted")
    pr.add_argument("--a", required=True)
    pr.add_argument("--b", required=True)
    pr.add_argument("--variant", default="standard", choices=VARIANTS)
    pr.add_argument("--games", type=int, default=40)
    pr.add_argument("--max-turns", type=int, default=200)
    pr.add_argument("--jobs", type=int, default=2)
    pr.add_argument("--seed-base", type=int, default=0)
    pr.add_argument("--opening", type=int, default=2)
    args = p.parse_args()
    out = {"speed": speed, "ladder": ladder, "pair": pair}[args.what](args)
    out["machine"] = {"python": platform.python_version(), "cpus": os.cpu_count(),
                      "load": os.getloadavg()}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
