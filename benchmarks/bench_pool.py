"""One wave of a large quick-pairing pool (issue 23, R47): the pure core's matching.

    .venv/bin/python benchmarks/bench_pool.py                  # 2,000 players, 20 waves
    .venv/bin/python benchmarks/bench_pool.py --players 5000

A pool of ``--players`` players (ratings 250-2400 as on a young site: most in S1/S2, a tail
in S3), each having waited 0-10 waves, a tenth of the S3 players with their PSF bound (R27) and
every player's last opponent somewhere in the pool, is paired by
``play.lobby.pool_pairing.pair_wave`` ``--waves`` times (each wave a fresh random pool, as the
players come and go). Reported: the median and worst time of a wave, and how many it paired.
Target: under 1 s a wave.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from play.lobby.pool_pairing import Seeker, pair_wave  # noqa: E402


def pool_of(n: int, rng: random.Random) -> list[Seeker]:
    keys = [f"p{i}" for i in range(n)]
    out = []
    for key in keys:
        rating = int(min(2400, max(250, rng.lognormvariate(6.3, 0.5))))
        floor = None
        if rating >= 1000 and rng.random() < 0.1:
            floor = rating * (2 / rng.uniform(0.9, 1.3) - 1)
        out.append(Seeker(key, rating, rng.randint(0, 10), floor, rng.choice(keys)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--waves", type=int, default=20)
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    times, paired = [], []
    for _ in range(args.waves):
        pool = pool_of(args.players, rng)
        t = time.perf_counter()
        wave = pair_wave(pool)
        times.append(time.perf_counter() - t)
        paired.append(2 * len(wave.pairs))
    print(f"pool of {args.players}: a wave median {statistics.median(times) * 1000:.0f} ms, "
          f"worst {max(times) * 1000:.0f} ms; paired {min(paired)}-{max(paired)} players "
          f"({statistics.mean(paired) / args.players:.1%} on average)")


if __name__ == "__main__":
    main()
