"""Tafl rules benchmark (issue 42): legal moves per position and replay, against python-chess
in the same run (as ``bench_rules.py`` does for talu).

    .venv/bin/python benchmarks/bench_tafl.py            # ~20 s
    .venv/bin/python benchmarks/bench_tafl.py --quick

1. Legal moves per position: ``Position.legal_moves()`` on positions 20-60 random moves deep
   of tafl 11x11 and Tablut, against ``list(Board.legal_moves)`` on chess positions 20-40
   random plies deep; interleaved, best of several repeats. Target: chess time / tafl time
   >= 1 (tafl no slower per position).
2. Make/unmake: ``push`` + ``pop`` of every legal move of those positions (the search's path).
3. Replay: ``read_record`` of random games (OTN parsing, checked moves, captures and info
   suffixes checked) in moves/s, beside python-chess's ``push_san`` replay in plies/s.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import timeit

import chess

from play.games.tafl import Position, Rules, TaflGame, decode, read_record, write_record


def tafl_positions(rules: Rules, count: int, rng: random.Random) -> list[Position]:
    out: list[Position] = []
    while len(out) < count:
        p = Position(rules)
        depth = rng.randint(20, 60)
        while p.result is None and p.plies < depth:
            p.push(rng.choice(p.legal_moves()))
            while p.pending:
                p.push_removal(rng.choice(p.removal_choices()))
        if p.result is None:
            out.append(p)
    return out


def chess_positions(count: int, rng: random.Random) -> list[chess.Board]:
    out: list[chess.Board] = []
    while len(out) < count:
        b = chess.Board()
        for _ in range(rng.randint(20, 40)):
            moves = list(b.legal_moves)
            if not moves:
                break
            b.push(rng.choice(moves))
        if not b.is_game_over():
            out.append(b)
    return out


def random_record(rules: Rules, rng: random.Random) -> tuple[str, int]:
    g = TaflGame(rules)
    while g.result is None and g.pos.plies < 300:
        g.move(*decode(rng.choice(g.pos.legal_moves())))
        while g.pos.pending:
            g.remove(rng.choice(g.pos.removal_choices()))
    return write_record(g), len(g.records)


def chess_games(count: int, rng: random.Random) -> list[list[str]]:
    games = []
    for _ in range(count):
        b, sans = chess.Board(), []
        while not b.is_game_over() and len(sans) < 200:
            m = rng.choice(list(b.legal_moves))
            sans.append(b.san(m))
            b.push(m)
        games.append(sans)
    return games


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    rng = random.Random(42)
    count, repeat = (20, 3) if args.quick else (100, 7)
    boards = chess_positions(count, rng)
    report: dict[str, object] = {}
    for label, rules in (("tafl 11x11", Rules("tafl", 11)), ("tablut", Rules("tablut", 9))):
        positions = tafl_positions(rules, count, rng)
        tafl_t, chess_t = [], []
        for _ in range(repeat):  # interleaved: load on the machine hits both alike
            tafl_t.append(timeit.timeit(lambda ps=positions: [p.legal_moves() for p in ps],
                                        number=5) / 5 / len(positions))
            chess_t.append(timeit.timeit(lambda: [list(b.legal_moves) for b in boards],
                                         number=5) / 5 / len(boards))
        moves = sum(len(p.legal_moves()) for p in positions) / len(positions)
        t0, made = time.perf_counter(), 0
        for p in positions:
            for m in p.legal_moves():
                p.push(m)
                while p.pending:
                    p.push_removal(p.removal_choices()[0])
                p.pop()
                while p.pending:
                    p.pop()
                made += 1
        push = (time.perf_counter() - t0) / made
        records = [random_record(rules, rng) for _ in range(count // 5 or 1)]
        t0 = time.perf_counter()
        for text, _ in records:
            read_record(text)
        replay = sum(n for _, n in records) / (time.perf_counter() - t0)
        report[label] = {
            "legal_us_per_position": round(min(tafl_t) * 1e6, 2),
            "moves_per_position": round(moves, 1),
            "positions_per_s": round(1 / min(tafl_t)),
            "moves_per_s": round(moves / min(tafl_t)),
            "chess_legal_us_per_position": round(min(chess_t) * 1e6, 2),
            "ratio_chess_over_tafl": round(min(chess_t) / min(tafl_t), 2),
            "push_pop_us": round(push * 1e6, 2),
            "replay_moves_per_s": round(replay),
        }
    games = chess_games(count // 5 or 1, rng)
    t0 = time.perf_counter()
    plies = 0
    for sans in games:
        b = chess.Board()
        for san in sans:
            b.push_san(san)
        plies += len(sans)
    report["chess_replay_plies_per_s"] = round(plies / (time.perf_counter() - t0))
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
