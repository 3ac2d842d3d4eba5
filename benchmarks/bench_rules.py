"""Rules-engine benchmark (issue 2): talu against python-chess, same machine, one run.

    .venv/bin/python benchmarks/bench_rules.py            # the recorded figures (~1-2 min)
    .venv/bin/python benchmarks/bench_rules.py --quick    # a smoke run (< 30 s)

What it measures, each variant of talu next to python-chess:

1. Replay: ``read_stgn`` over a few hundred generated games per variant (see ``gen_games``),
   in turns/s and steps/s. A "step" is one entry of ``TurnRecord.steps`` of kind move, capture,
   exit or stay: what a player sends and the engine validates. The ``end`` and ``pass`` entries
   are not counted (they are written implicitly in STGN); their number is shown. The peer is
   python-chess replaying SAN move lists with ``Board.push_san`` from a fresh board (plies/s).
   The replay includes everything ``read_stgn`` does: parsing, validation, the end-of-turn rules
   and the R10 invasion search whenever a side invades.
2. Legal steps per position: ``legal_steps()`` on middlegame positions (rounds 5-30 of the
   generated games, at turn starts and inside turns, a chain possibly open), against
   ``list(Board.legal_moves)`` on chess positions 20-40 random plies deep. Each position is
   timed with ``timeit`` (best of several repeats); the mean and median over positions are shown.
   ``TurnState.legal()`` (the integer core, no ``Step`` objects) is shown for diagnosis.
3. The R10 invasion search ``can_remove_all_invaders`` on every position of the generated games
   where a side has just invaded (median, p90 and max ms per variant).

Ratios: talu steps/s / chess plies/s and chess legal-move time / talu legal-step time; both
targets are >= 1. Replay measurements of talu and chess are interleaved, and so are the
per-position measurements, so load from other processes hits both sides alike; the best
repetition is reported (the median too). Numbers on a shared machine are noisy: compare ratios
within one run, not absolute figures across runs.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import timeit
from typing import Any

import chess
from gen_games import (
    BOARD_KINDS,
    chess_middlegames,
    chess_san_games,
    rebuild,
    step_counts,
    talu_games,
)

from play.games.talu import read_stgn
from play.games.talu.invasion import can_remove_all_invaders
from play.games.talu.turn import TurnState

VARIANTS = ("standard", "grand-master", "dynamic")


def machine_info() -> dict[str, Any]:
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        load = os.getloadavg()
    except OSError:
        load = None
    return {
        "talu_rules": rules_revision(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "cpu": cpu,
        "cpu_count": os.cpu_count(),
        "loadavg": load,
        "python_chess": chess.__version__,
    }


def rules_revision() -> str:
    """The commit the rules engine was measured at, and whether play/games/talu had local edits."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, check=True,
                              capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "play/games/talu"], cwd=root,
                               check=True, capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{head}{' (play/games/talu modified)' if dirty else ''}"


def _q(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(p * len(s)))]


def per_call(fn, number: int, repeat: int) -> float:
    """Best time of one call of ``fn`` over ``repeat`` timeit runs of ``number`` calls."""
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def time_talu_replay(texts: list[str], variant: str) -> float:
    gc.collect()
    t0 = time.perf_counter()
    for text in texts:
        read_stgn(text, variant)
    return time.perf_counter() - t0


def time_chess_replay(games: list[list[str]]) -> float:
    gc.collect()
    t0 = time.perf_counter()
    for sans in games:
        board = chess.Board()
        push = board.push_san
        for san in sans:
            push(san)
    return time.perf_counter() - t0


def invasion_positions(tg) -> list[TurnState]:
    """Defender's fresh turns right after each invasion (pieces on the mover's goal row)."""
    g = tg.game
    geo, v = g.geometry, g.variant
    out = []
    for rec in g.turns:
        s = rec.side.index
        attacker, defender = rec.after[s], rec.after[1 - s]
        if attacker & geo.goal_row(s) and defender:
            out.append(TurnState(v, 1 - s, defender, attacker))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=None,
                    help="generated games per talu variant, and chess games (default 300; "
                         "40 with --quick)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--quick", action="store_true", help="small sizes: a smoke run under 30 s")
    ap.add_argument("--positions", type=int, default=None,
                    help="sampled positions per variant and for chess (default 200; 60 quick)")
    ap.add_argument("--reps", type=int, default=None,
                    help="replay repetitions (default 5; 2 quick)")
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = ap.parse_args(argv)
    n_games = args.games or (40 if args.quick else 300)
    n_pos = args.positions or (60 if args.quick else 200)
    reps = args.reps or (2 if args.quick else 5)
    t_start = time.perf_counter()

    info = machine_info()
    cmd = "benchmarks/bench_rules.py " + " ".join(sys.argv[1:] if argv is None else argv)
    print(f"# talu rules benchmark  {dt.datetime.now().isoformat(timespec='seconds')}")
    print(f"command: .venv/bin/python {cmd.strip()}")
    for k, val in info.items():
        print(f"{k}: {val}")
    print(f"games/variant={n_games} positions={n_pos} reps={reps} seed={args.seed}")
    print()

    # --- generation ------------------------------------------------------------------------
    gen: dict[str, list] = {}
    print("generating games ...")
    for v in VARIANTS:
        t0 = time.perf_counter()
        gen[v] = talu_games(v, n_games, args.seed)
        games = [tg.game for tg in gen[v]]
        reasons: dict[str, int] = {}
        for g in games:
            r = g.outcome.reason.value if g.outcome else "undecided (round cap)"
            reasons[r] = reasons.get(r, 0) + 1
        rounds = [g.rounds_played for g in games]
        print(f"  {v:13s} {len(games)} games in {time.perf_counter() - t0:5.1f}s; rounds "
              f"mean {statistics.mean(rounds):.1f} median {statistics.median(rounds)} max "
              f"{max(rounds)}; outcomes {reasons}")
    t0 = time.perf_counter()
    chess_games = chess_san_games(n_games, args.seed)
    chess_pos = chess_middlegames(n_pos, args.seed)
    chess_plies = sum(map(len, chess_games))
    print(f"  {'chess':13s} {len(chess_games)} games ({chess_plies} plies, mean "
          f"{chess_plies / len(chess_games):.0f}) + {len(chess_pos)} positions in "
          f"{time.perf_counter() - t0:5.1f}s")

    # --- 1. replay -------------------------------------------------------------------------
    texts = {v: [tg.text for tg in gen[v]] for v in VARIANTS}
    counts = {}
    for v in VARIANTS:
        c: dict[str, int] = {}
        for tg in gen[v]:
            for k, n in step_counts(tg.game).items():
                c[k] = c.get(k, 0) + n
        counts[v] = c
        # Sanity: the written record replays to the same game.
        bad = 0
        for tg, text in zip(gen[v], texts[v], strict=True):
            back = read_stgn(text, v)
            if back.stgn() != text or back.bits != tg.game.bits:
                bad += 1
        if bad:
            print(f"  WARNING: {bad} {v} games do not round-trip through STGN")
    talu_t: dict[str, list[float]] = {v: [] for v in VARIANTS}
    chess_t: list[float] = []
    for _ in range(reps):
        for v in VARIANTS:
            talu_t[v].append(time_talu_replay(texts[v], v))
            chess_t.append(time_chess_replay(chess_games))
    chess_best = chess_plies / min(chess_t)
    chess_med = chess_plies / statistics.median(chess_t)
    print()
    print("## 1. full-game replay (read_stgn vs push_san), best of "
          f"{reps} (median in brackets)")
    replay: dict[str, Any] = {"chess": {"plies": chess_plies, "plies_per_s": chess_best,
                                        "plies_per_s_median": chess_med}}
    tot_steps = tot_turns = 0
    tot_time = 0.0
    for v in VARIANTS:
        turns = sum(len(tg.game.turns) for tg in gen[v])
        steps = sum(counts[v].get(k, 0) for k in BOARD_KINDS)
        best, med = min(talu_t[v]), statistics.median(talu_t[v])
        tot_steps += steps
        tot_turns += turns
        tot_time += best
        replay[v] = {"turns": turns, "steps": steps, "step_kinds": counts[v],
                     "seconds": best, "turns_per_s": turns / best, "steps_per_s": steps / best,
                     "steps_per_s_median": steps / med, "ratio": steps / best / chess_best}
        kinds = " ".join(f"{k}={counts[v].get(k, 0)}" for k in (*BOARD_KINDS, "end", "pass"))
        print(f"  talu {v:13s} {turns:6d} turns {steps:7d} steps in {best:6.3f}s: "
              f"{turns / best:8.0f} turns/s  {steps / best:8.0f} steps/s "
              f"[{steps / med:.0f}]  ratio vs chess {steps / best / chess_best:5.2f}")
        print(f"       kinds: {kinds}")
    print(f"  talu {'all variants':13s} {tot_turns:6d} turns {tot_steps:7d} steps in "
          f"{tot_time:6.3f}s: {tot_turns / tot_time:8.0f} turns/s  "
          f"{tot_steps / tot_time:8.0f} steps/s")
    print(f"  chess push_san       {chess_plies:7d} plies in {min(chess_t):6.3f}s: "
          f"{chess_best:8.0f} plies/s [{chess_med:.0f}]")
    replay_ratio = tot_steps / tot_time / chess_best
    replay["all"] = {"steps_per_s": tot_steps / tot_time, "ratio": replay_ratio}
    print(f"  RATIO talu steps/s / chess plies/s = {replay_ratio:.2f} (target >= 1)")

    # --- 2. legal steps per position ---------------------------------------------------------
    positions = {}
    for v in VARIANTS:
        ps = []
        for tg in gen[v]:
            for k in tg.samples:
                ps.append(rebuild(v, tg.played[:k]))
        positions[v] = ps[:n_pos]
    number, repeat = (20, 5) if not args.quick else (10, 3)
    t_api = {v: [] for v in VARIANTS}
    t_core = {v: [] for v in VARIANTS}
    n_steps = {v: [] for v in VARIANTS}
    start_flags = {v: [] for v in VARIANTS}
    t_chess: list[float] = []
    for i in range(max(n_pos, *(len(p) for p in positions.values()))):
        for v in VARIANTS:
            if i < len(positions[v]):
                g = positions[v][i]
                t_api[v].append(per_call(g.legal_steps, number, repeat))
                t_core[v].append(per_call(g.turn.legal, number, repeat))
                n_steps[v].append(len(g.legal_steps()))
                start_flags[v].append(g.turn.used == 0)
        if i < len(chess_pos):
            b = chess_pos[i]
            t_chess.append(per_call(lambda b=b: list(b.legal_moves), number, repeat))
    us = 1e6
    c_mean, c_med = statistics.mean(t_chess) * us, statistics.median(t_chess) * us
    n_moves = statistics.mean(len(list(b.legal_moves)) for b in chess_pos)
    print()
    print("## 2. legal steps per position (us per call; best of "
          f"{repeat}x{number} calls per position)")
    print(f"  chess list(legal_moves)  {len(t_chess):4d} pos: mean {c_mean:6.1f} median "
          f"{c_med:6.1f}  ({n_moves:.1f} moves/pos)")
    legal: dict[str, Any] = {"chess": {"positions": len(t_chess), "mean_us": c_mean,
                                       "median_us": c_med, "moves": n_moves}}
    ratios = []
    for v in VARIANTS:
        a, core = t_api[v], t_core[v]
        starts = [x for x, f in zip(a, start_flags[v], strict=True) if f]
        med = statistics.median(a) * us
        ratio = c_med / med
        ratios.append(ratio)
        legal[v] = {
            "positions": len(a), "turn_starts": len(starts),
            "mean_us": statistics.mean(a) * us, "median_us": med,
            "p90_us": _q(a, 0.9) * us,
            "turn_start_median_us": statistics.median(starts) * us if starts else None,
            "core_median_us": statistics.median(core) * us,
            "steps": statistics.mean(n_steps[v]), "ratio": ratio,
            "ratio_turn_start": c_med / (statistics.median(starts) * us) if starts else None,
        }
        d = legal[v]
        ts = (f"{d['turn_start_median_us']:6.1f} ({d['ratio_turn_start']:.2f}x)"
              if starts else "n/a")
        print(f"  talu {v:13s} legal_steps {len(a):4d} pos: mean {d['mean_us']:6.1f} median "
              f"{med:6.1f} p90 {d['p90_us']:6.1f}  ({d['steps']:.1f} steps/pos)  "
              f"ratio chess/talu {ratio:5.2f}")
        print(f"       turn starts only ({len(starts)} pos): median {ts};  core "
              f"TurnState.legal() median {d['core_median_us']:6.1f}")
    legal_ratio = min(ratios)
    print(f"  RATIO chess legal-move time / talu legal-step time (median, worst variant) = "
          f"{legal_ratio:.2f} (target >= 1)")

    # --- 3. R10 invasion search ----------------------------------------------------------------
    print()
    print("## 3. R10 invasion search can_remove_all_invaders (ms per position)")
    invasion: dict[str, Any] = {}
    for v in VARIANTS:
        ms, removable = [], 0
        for tg in gen[v]:
            for st in invasion_positions(tg):
                t0 = time.perf_counter()
                ok = can_remove_all_invaders(st)
                first = time.perf_counter() - t0
                best = first
                if first < 0.02:  # cheap: repeat for a stable figure; a slow one stands
                    best = min(first, per_call(lambda st=st: can_remove_all_invaders(st), 1, 3))
                ms.append(best * 1e3)
                removable += ok
        if not ms:
            print(f"  {v:13s} no invasions")
            continue
        invasion[v] = {"positions": len(ms), "removable": removable,
                       "median_ms": statistics.median(ms), "p90_ms": _q(ms, 0.9),
                       "p99_ms": _q(ms, 0.99), "max_ms": max(ms)}
        d = invasion[v]
        print(f"  {v:13s} {len(ms):5d} pos ({removable} removable): median "
              f"{d['median_ms']:6.3f}  p90 {d['p90_ms']:6.3f}  p99 {d['p99_ms']:7.3f}  max "
              f"{d['max_ms']:7.3f}")

    # --- summary ---------------------------------------------------------------------------
    elapsed = time.perf_counter() - t_start
    info["loadavg_end"] = os.getloadavg() if hasattr(os, "getloadavg") else None
    print()
    print("## summary")
    verdict = lambda ok: "met" if ok else "MISSED"  # noqa: E731
    print(f"  replay: talu {tot_steps / tot_time:.0f} steps/s vs chess {chess_best:.0f} plies/s "
          f"-> ratio {replay_ratio:.2f} ({verdict(replay_ratio >= 1)})")
    print(f"  legal:  chess {c_med:.1f} us vs talu median "
          + ", ".join(f"{v} {legal[v]['median_us']:.1f}" for v in VARIANTS)
          + f" us -> worst ratio {legal_ratio:.2f} ({verdict(legal_ratio >= 1)})")
    if invasion:
        worst = max(invasion.values(), key=lambda d: d["median_ms"])
        print(f"  R10:    median <= {worst['median_ms']:.2f} ms, max "
              f"{max(d['max_ms'] for d in invasion.values()):.1f} ms")
    print(f"  load average end: {info['loadavg_end']}; total {elapsed:.0f}s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": info, "args": vars(args), "replay": replay, "legal": legal,
                       "invasion": invasion, "elapsed_s": elapsed}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
