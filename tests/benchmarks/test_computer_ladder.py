"""The computer ladder's table (benchmarks/bench_computer.py, issue 25): each rung's score,
its sides and its 95 % interval come from the games played, also from a stopped run's progress
lines (``--from-log``), so the ladder rows in BENCHMARKS.md mean what they say."""

from __future__ import annotations

import json

import pytest

from tests import benchload


@pytest.fixture(scope="module")
def bench():
    yield from benchload.module("bench_computer")


def _game(hi: int, lo: int, side: int, score: float, seed: int) -> dict:
    return {"variant": "standard", "hi": hi, "lo": lo, "hi_side": side, "seed": seed,
            "score": score, "turns": 20, "reason": "invasion", "seconds": 1.0}


def test_a_rung_is_scored_by_its_games_with_a_wilson_interval(bench):
    games = [_game(8, 7, n % 2, 1.0 if n < 13 else 0.0, 8000 + n) for n in range(20)]
    games += [_game(1, 0, n % 2, 1.0, 1000 + n) for n in range(10)]
    table = bench.table_of(games)
    assert [row["pair"] for row in table] == ["level 1 vs random", "level 8 vs level 7"]
    top = table[1]
    assert (top["games"], top["points"], top["rate"]) == (20, 13.0, 0.65)
    assert top["met"] and top["target"] == 0.65
    assert top["as_I"] + top["as_O"] == 13.0
    low, high = top["ci95"]
    assert 0.42 < low < 0.65 < high < 0.83  # 13 of 20 is no proof of 65 %
    assert table[0]["rate"] == 1.0 and table[0]["target"] == 0.95 and table[0]["ci95"][1] == 1.0


def test_the_table_of_a_stopped_run_comes_from_its_progress_lines(bench, tmp_path):
    log = tmp_path / "ladder.log"
    lines = [json.dumps(_game(3, 2, n % 2, 0.5 if n == 0 else 1.0, 3000 + n)) for n in range(4)]
    log.write_text("\n".join(["noise the pool printed", *lines]) + "\n")
    args = bench.argparse.Namespace(from_log=str(log), variant="standard")
    (row,) = bench.ladder(args)["table"]
    assert (row["games"], row["points"]) == (4, 3.5)
