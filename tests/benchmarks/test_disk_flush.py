"""benchmarks/bench_disk_flush.py: the figure BENCHMARKS.md quotes for the disk's slow flushes
comes from flushes it really made, its scratch file is gone afterwards, and a directory it
cannot write in is a clear error, not a traceback."""

from __future__ import annotations

import pytest

from tests import benchload


@pytest.fixture(scope="module")
def bench():
    yield from benchload.module("bench_disk_flush")


def test_measures_flushes_and_leaves_nothing(bench, tmp_path):
    f = bench.measure(str(tmp_path), seconds=0.3, pause=0.01, slow_ms=0.0)
    assert len(f.times_ms) >= 5
    assert all(t > 0 for t in f.times_ms)
    assert len(f.slow) == len(f.times_ms)  # every flush is over 0 ms, so every one is listed
    assert list(tmp_path.iterdir()) == []
    text = bench.report(f)
    assert text.startswith(f"{len(f.times_ms)} flushes: p50 ")
    assert text.count(" UTC ") == len(f.slow)


def test_quantiles_and_counts(bench):
    f = bench.Flushes(times_ms=[float(i) for i in range(1, 101)])
    assert (f.quantile(0.5), f.quantile(0.99), f.over(50)) == (51.0, 100.0, 50)


def test_unwritable_directory_is_a_clear_error(bench, tmp_path, capsys):
    missing = tmp_path / "nowhere"
    assert bench.main(["--dir", str(missing), "--seconds", "0.1"]) == 2
    assert f"cannot write in {str(missing)!r}" in capsys.readouterr().err


def test_no_duration_is_a_clear_error(bench, tmp_path, capsys):
    assert bench.main(["--dir", str(tmp_path), "--seconds", "0"]) == 2
    assert "--seconds must be more than 0, not 0.0" in capsys.readouterr().err
