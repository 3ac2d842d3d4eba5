"""Talat rules benchmark (issue 37): the legal-action list and the A7 frozen test on random
mid-game positions, medians in µs, beside python-chess's legal moves in the same run (the
baseline of ``bench_tafl.py``, imported from there).

    .venv/bin/python benchmarks/bench_talat.py            # ~15 s
    .venv/bin/python benchmarks/bench_talat.py --quick

Targets (issue 37): the full legal-action list of a mid-game position under 50 µs median,
the frozen test of one board under 200 µs median. Also: push + pop of every legal action
(a search's path) and random games replayed from their A10 records, in turns per second.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_tafl import chess_positions  # the same baseline as the tafl figures

from play.games.talat import Position, TalatGame, read_record, write_record


def midgame_positions(variant: str, count: int, rng: random.Random) -> list[Position]:
    """Positions 10-40 turns into play (after placement), the game still on."""
    out: list[Position] = []
    while len(out) < count:
        p = Position(variant)
        depth = rng.randint(10, 40)
        played = 0
        while not p.finished and played < depth:
            if p.phase == "play":
                played += 1
            p.push(rng.choice(p.legal()))
        if not p.finished:
            out.append(p)
    return out


def median_us(fn: Callable[[], object], inner: int = 20, repeat: int = 5) -> float:
    """The median over ``repeat`` runs of one call's time (µs), ``inner`` calls a run."""
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        runs.append((time.perf_counter() - t0) / inner)
    return statistics.median(runs) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    rng = random.Random(37)
    count = 40 if args.quick else 200
    boards = chess_positions(count // 2, rng)
    chess_us = statistics.median(median_us(lambda b=b: list(b.legal_moves)) for b in boards)
    report: dict[str, object] = {"chess_legal_us_median": round(chess_us, 2)}
    for variant in ("three", "two"):
        positions = midgame_positions(variant, count, rng)
        legal = [median_us(p.legal) for p in positions]
        frozen = [median_us(lambda p=p, b=b: p.frozen_board(b))
                  for p in positions for b in range(3)]
        actions = statistics.mean(len(p.legal()) for p in positions)
        t0, made = time.perf_counter(), 0
        for p in positions:
            for a in p.legal():
                p.push(a)
                p.pop()
                made += 1
        push = (time.perf_counter() - t0) / made
        texts = []
        for _ in range(count // 10 or 1):
            g = TalatGame(variant)
            while not g.finished:
                g.play(rng.choice(g.pos.legal()))
            texts.append((write_record(g), len(g.lines)))
        t0 = time.perf_counter()
        for text, _ in texts:
            read_record(text)
        replay = sum(n for _, n in texts) / (time.perf_counter() - t0)
        report[variant] = {
            "legal_us_median": round(statistics.median(legal), 2),
            "legal_us_p90": round(sorted(legal)[int(len(legal) * 0.9)], 2),
            "actions_per_position": round(actions, 1),
            "frozen_test_us_median": round(statistics.median(frozen), 2),
            "frozen_test_us_max": round(max(frozen), 2),
            "push_pop_us": round(push * 1e6, 2),
            "replay_turns_per_s": round(replay),
            "legal_target_met": statistics.median(legal) < 50,
            "frozen_target_met": statistics.median(frozen) < 200,
        }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
