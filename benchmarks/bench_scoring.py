"""Scoring benchmarks (issue 3): S3 scoring per game, and the 100,000-game cascade (R30).

Run: ``.venv/bin/python benchmarks/bench_scoring.py`` (``--help`` for sizes). Data is generated
from a fixed seed, so figures are comparable between runs on the same machine.

Targets: S3 scoring of a game from its tally under 1 ms (on top of replay); a cascade over
100,000 rated games under 5 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from registry.scoring.cascade import PlayerState, RatedGame, cascade
from registry.scoring.figures import figures_from_tally
from registry.scoring.sx import score_game
from registry.scoring.tally import CODES, Tally, empty_codes

EXAMPLES = Path(__file__).resolve().parents[2] / "shared" / "examples"
OUTCOMES = [
    ("I", "invasion", "G.a"), ("O", "invasion", "G.b"), ("I", "invasion", "G.c"),
    ("O", "invasion", "G.c"), ("I", "elimination", "G.d"), ("O", "elimination", "G.d"),
    ("I", "forfeit", None), ("O", "decision", None), (None, "null", None),
]  # fmt: skip
PLAIN = [c for c in CODES if not c.startswith(("F.", "G."))]


def random_tally(rng: random.Random) -> Tally:
    """A plausible tally: small code counts, 10-60 rounds, mostly decided games."""
    codes = {"I": empty_codes(), "O": empty_codes()}
    rounds = rng.randint(10, 60)
    winner, reason, g = rng.choice(OUTCOMES)
    for side in "IO":
        for code in PLAIN:
            codes[side][code] = rng.choice((0, 0, 0, 1, 1, 2, 3))
        codes[side]["F.a"] = rounds
        if g:
            codes[side][g] = 1
    captures = {side: rng.randint(0, 8) for side in "IO"}
    return Tally(codes=codes, captures=captures, rounds=rounds, winner=winner, reason=reason)


def per_call_us(fn, items, repeat: int) -> float:
    """Best-of-``repeat`` mean time of ``fn(item)`` over ``items``, in microseconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for item in items:
            fn(item)
        best = min(best, (time.perf_counter() - start) / len(items))
    return best * 1e6


def bench_s3_from_tally(rng: random.Random, n: int, repeat: int) -> None:
    tallies = [random_tally(rng) for _ in range(n)]
    ratings = {"I": 1500, "O": 1380}
    s3 = {"I": "S3", "O": "S3"}
    us = per_call_us(lambda t: score_game(t, s3, ratings), tallies, repeat)
    print(f"S3 score of one game from its tally (both sides): {us:8.1f} us  (target < 1000 us)")
    mixed = {"I": "S1", "O": "S2"}
    us_mixed = per_call_us(lambda t: score_game(t, mixed, ratings), tallies, repeat)
    print(f"S1 + S2 score of one game from its tally:          {us_mixed:8.1f} us")
    us_fig = per_call_us(figures_from_tally, tallies, repeat)
    print(f"precompute per-game figures (once per game):       {us_fig:8.1f} us")


def bench_tally_on_examples(repeat: int) -> None:
    """tally_game + S3 scoring on the example games, each replayed once beforehand."""
    try:
        from play.games.talu import read_stgn
        from registry.scoring.tally import tally_game
    except ImportError as e:  # the engine is another issue's; skip if it is absent
        print(f"tally + S3 on example games: skipped ({e})")
        return
    games = []
    for path in sorted(EXAMPLES.glob("legal-*.stgn")):
        variant = path.stem.split("-", 2)[2].rsplit("-", 1)[0]
        games.append(read_stgn(path.read_text(encoding="utf-8"), variant))
    if not games:
        print("tally + S3 on example games: skipped (no examples)")
        return
    s3 = {"I": "S3", "O": "S3"}
    ratings = {"I": 1500, "O": 1380}
    us = per_call_us(lambda g: score_game(tally_game(g), s3, ratings), games * 20, repeat)
    label = f"tally_game + S3 score ({len(games)} example games):"
    print(f"{label:<50} {us:8.1f} us  (target < 1000 us)")


def bench_cascade(rng: random.Random, n_games: int, n_players: int, pool: int, repeat: int):
    figures = [figures_from_tally(random_tally(rng)) for _ in range(pool)]
    players = [f"P{k:06d}" for k in range(n_players)]
    # A third of the players start in each stratum so that every model is exercised.
    seed = {}
    for k, pid in enumerate(players):
        stratum = k % 3 + 1
        base = (250, 500, 1000)[stratum - 1]
        seed[pid] = PlayerState(pid, stratum=stratum, rating=base + rng.randint(0, base // 2))
    records = []
    for k in range(n_games):
        i, o = rng.sample(players, 2)
        model = "S3" if k % 10 == 0 else None  # some events fix S3 (R25)
        records.append(RatedGame(f"g{k}", i, o, rng.choice(figures), model))

    times = []
    result = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = cascade(records, seed)
        times.append(time.perf_counter() - t0)
    assert result is not None
    promoted = sum(len(s.promotions) for s in result.players.values())
    print(
        f"cascade over {n_games:,} games, {n_players:,} players: best {min(times):.2f} s, "
        f"median {statistics.median(times):.2f} s  (target < 5 s; {promoted} promotions)"
    )
    print(f"  ({pool:,} distinct generated games; figures precomputed once, not timed here)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=5_000)
    parser.add_argument("--pool", type=int, default=5_000, help="distinct generated games")
    parser.add_argument("--tallies", type=int, default=2_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(20260521)
    print(f"Python {sys.version.split()[0]} on {sys.platform}")
    bench_s3_from_tally(rng, args.tallies, args.repeat)
    bench_tally_on_examples(args.repeat)
    bench_cascade(rng, args.games, args.players, args.pool, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
