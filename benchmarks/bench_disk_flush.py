"""How long a disk takes to flush a small write: the tail, not the average.

Every step of a game is committed to PostgreSQL, so flushed to its write-ahead log, before any
socket hears of it, and the steps in flight wait behind a slow flush together: a disk's rare
long flushes are the game stack's p99 misses that the bare relay, which writes nothing, never
has (BENCHMARKS.md, docs/deployment.md, issue 7). PostgreSQL's own ``pg_test_fsync`` reports
averages; this writes one 8 kB page and ``fdatasync``s it, as a commit flushes the WAL, at a
steady pace, and reports the distribution with the slow flushes and when they came.

Run it next to the database's files (its data directory; needs write access there)::

    .venv/bin/python benchmarks/bench_disk_flush.py --dir /var/lib/postgresql --seconds 60
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field

PAGE = b"\0" * 8192


@dataclass
class Flushes:
    """Flush times in ms, and the wall-clock moments of the slow ones (to match with a run)."""

    times_ms: list[float] = field(default_factory=list)
    slow: list[tuple[float, float]] = field(default_factory=list)

    def quantile(self, q: float) -> float:
        ordered = sorted(self.times_ms)
        return ordered[min(len(ordered) - 1, int(len(ordered) * q))]

    def over(self, ms: float) -> int:
        return sum(1 for t in self.times_ms if t > ms)


def measure(directory: str, seconds: float, pause: float = 0.005, slow_ms: float = 20.0) -> Flushes:
    """Flush one page every ``pause`` seconds for ``seconds`` in a scratch file of ``directory``."""
    out = Flushes()
    fd, path = tempfile.mkstemp(prefix="talu-flush-", dir=directory)
    try:
        end = time.perf_counter() + seconds
        i = 0
        while time.perf_counter() < end:
            os.pwrite(fd, PAGE, (i % 64) * len(PAGE))
            i += 1
            at = time.time()
            t = time.perf_counter()
            os.fdatasync(fd)
            ms = (time.perf_counter() - t) * 1000
            out.times_ms.append(ms)
            if ms > slow_ms:
                out.slow.append((at, ms))
            time.sleep(pause)
    finally:
        os.close(fd)
        os.unlink(path)
    return out


def report(f: Flushes) -> str:
    lines = [f"{len(f.times_ms)} flushes: p50 {f.quantile(0.5):.2f} ms, p99 {f.quantile(0.99):.2f}"
             f" ms, p99.9 {f.quantile(0.999):.2f} ms, max {max(f.times_ms):.1f} ms;"
             f" over 20 ms: {f.over(20)}, over 50 ms: {f.over(50)}"]
    for at, ms in f.slow:
        stamp = time.strftime("%H:%M:%S", time.gmtime(at)) + f"{at % 1:.3f}"[1:]
        lines.append(f"  {stamp} UTC  {ms:.1f} ms")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", default=".", help="a directory on the disk to measure")
    ap.add_argument("--seconds", type=float, default=60.0)
    args = ap.parse_args(argv)
    if not os.path.isdir(args.dir) or not os.access(args.dir, os.W_OK):
        print(f"bench_disk_flush: cannot write in {args.dir!r}", file=sys.stderr)
        return 2
    if not args.seconds > 0:
        print(f"bench_disk_flush: --seconds must be more than 0, not {args.seconds}",
              file=sys.stderr)
        return 2
    print(report(measure(args.dir, args.seconds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
