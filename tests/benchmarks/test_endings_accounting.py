"""The endings benchmark's accounting (benchmarks/bench_endings.py): the endings schedule, the
percentiles, which round trips count as beside an ending, and the pooled table, so that its
figures in BENCHMARKS.md (issue 19) mean what they say."""

from __future__ import annotations

import itertools
import random

import pytest

from tests import benchload


@pytest.fixture(scope="module")
def bench():
    yield from benchload.module("bench_endings")


def test_twenty_endings_a_minute_are_twenty_in_every_minute(bench):
    times = bench.ending_times(20, start=100.0, stop=220.0, phase=1.0)
    assert len(times) == 40
    assert times[0] == 101.0
    assert all(b - a == pytest.approx(3.0) for a, b in itertools.pairwise(times))
    for minute in (100.0, 130.0, 160.0):  # any 60 s of the schedule holds 20
        assert sum(minute <= t < minute + 60 for t in times) == 20
    assert bench.ending_times(0, 0.0, 60.0, 0.0) == []
    assert bench.ending_times(20, 0.0, 2.0, 2.5) == []  # the first would be after the end


def test_percentiles_are_round_trips_that_happened(bench):
    values = [i / 1000 for i in range(1, 101)]
    assert bench.pct(values, 0.5) == 0.05
    assert bench.pct(values, 0.99) == 0.099
    assert bench.pct([0.003], 0.99) == 0.003
    assert bench.pct([], 0.5) is None
    s = bench.spread([0.001, 0.002, 0.010])
    assert s == {"p50_ms": 2.0, "p99_ms": 10.0, "max_ms": 10.0, "count": 3}
    assert bench.spread([])["p99_ms"] is None


def test_round_trips_beside_an_ending(bench):
    endings = [(10.0, 10.2), (10.1, 10.5), (20.0, 20.1)]  # the first two overlap
    assert bench.merge_intervals(endings) == [(10.0, 10.5), (20.0, 20.1)]
    samples = [
        (9.0, 0.005),    # long before
        (9.99, 0.02),    # in flight when the first ending started
        (10.3, 0.004),   # inside the merged interval
        (10.6, 0.010),   # after it
        (19.95, 0.06),   # closes after the third started
        (19.90, 0.05),   # closes just before it
        (20.2, 0.001),   # after everything
    ]
    during, outside = bench.split_by_endings(samples, endings)
    assert during == [0.02, 0.004, 0.06]
    assert outside == [0.005, 0.010, 0.05, 0.001]
    assert bench.split_by_endings(samples, []) == ([], [s[1] for s in samples])


def test_quiet_steps_are_legal_and_keep_off_the_goal_rows(bench):
    state = {"side_to_move": "I", "round": 2, "ranks": 8, "honor_targets": [],
             "legal_steps": [{"kind": "move", "from": "A6", "to": "A7"},  # too deep
                             {"kind": "move", "from": "B2", "to": "B3"},  # forward
                             {"kind": "move", "from": "C3", "to": "C2"},  # back
                             {"kind": "capture", "from": "D4", "to": "D5"},
                             {"kind": "pass", "from": None, "to": None}]}
    rng = random.Random(3)
    picks = {bench.choose_quiet_step(state, rng)[1]["to"] for _ in range(50)}
    assert picks == {"B3"}  # even round: forward, within the ranks allowed, no capture
    state["round"] = 3
    picks = {bench.choose_quiet_step(state, rng)[1]["to"] for _ in range(50)}
    assert picks == {"C2"}  # odd round: back
    state = {"side_to_move": "O", "round": 2, "ranks": 8, "honor_targets": [],
             "legal_steps": [{"kind": "move", "from": "E7", "to": "E6"},  # forward (down)
                             {"kind": "move", "from": "F7", "to": "F8"},  # back
                             {"kind": "move", "from": "G3", "to": "G2"}]}  # too deep
    picks = {bench.choose_quiet_step(state, rng)[1]["to"] for _ in range(50)}
    assert picks == {"E6"}
    state["round"] = 3
    picks = {bench.choose_quiet_step(state, rng)[1]["to"] for _ in range(50)}
    assert picks == {"F8"}


def test_an_honour_capture_comes_first(bench):
    honor = {"kind": "capture", "from": "C2", "to": "D1"}
    state = {"side_to_move": "I", "round": 5, "ranks": 8, "honor_targets": ["D1"],
             "legal_steps": [{"kind": "move", "from": "A2", "to": "A3"}, honor]}
    assert bench.choose_quiet_step(state, random.Random(1)) == ("step", honor)


def test_pooled_rounds_and_the_ratio(bench):
    def round_(rt: float, resign_ack: float, records: float) -> dict:
        return {
            "offered": 200.0, "window_s": 10.0, "done": 1000, "sent": 1000, "late": 1,
            "rejected": {"stale": 1}, "errors": {}, "cpu_s": 2.0, "client_cpu_s": 0.5,
            "tracebacks": 0,
            "games_made_during": 0,
            "samples": {"ack": [rt] * 99 + [rt * 10], "recv": [rt] * 100,
                        "during": [rt * 10], "outside": [rt] * 199},
            "endings": [
                {"by": "resign", "sent": 1.0, "ack": 1.0 + resign_ack,
                 "records": 1.0 + records, "in_window": True},
                {"by": "resign", "sent": 2.0, "ack": 2.0 + resign_ack, "records": None,
                 "in_window": True},
                {"by": "play", "sent": 3.0, "ack": 3.01, "records": 3.01, "in_window": True},
                {"by": "resign", "sent": 0.5, "ack": 0.6, "records": 0.6,
                 "in_window": False},  # in the warm-up: not counted
            ],
        }

    base = bench.pool([round_(0.004, 0.150, 0.150), round_(0.004, 0.150, 0.150)])
    cand = bench.pool([round_(0.002, 0.010, 0.300)])
    assert base["steps_per_s"] == 100.0 and base["rounds"] == 2
    assert base["rt"]["count"] == 400 and base["rt"]["p50_ms"] == pytest.approx(4.0)
    assert (base["resigned"], base["by_play"], base["records_missing"]) == (4, 2, 2)
    assert base["resign_ack"]["p99_ms"] == pytest.approx(150.0)
    assert base["ack_records"]["p99_ms"] == pytest.approx(0.0)  # the records came with it
    assert cand["ack_records"]["p99_ms"] == pytest.approx(290.0)
    assert base["rejected_total"] == 2 and base["late"] == 2
    assert base["cpu_ms_per_step"] == pytest.approx(2.0)
    table = bench.compare([("baseline", base), ("candidate", cand)])
    lines = table.splitlines()
    assert lines[0] == "| metric | baseline | candidate | candidate / baseline |"
    p50 = next(ln for ln in lines if ln.startswith("| step round trip p50"))
    assert p50.endswith("| 4.0 | 2.0 | 0.50 |")
    ends = next(ln for ln in lines if ln.startswith("| endings in the window"))
    assert "| 4 + 2 | 2 + 1 |" in ends


def test_records_are_seen_in_an_update_or_a_later_game_message(bench):
    live = bench._decode_frame(b'{"type": "update", "version": 3, "events": [], '
                               b'"game": {"status": "live", "records": []}}')
    assert not bench.has_records(live.game)
    final = bench._decode_frame(b'{"type": "update", "version": 4, "events": [], '
                                b'"game": {"status": "finished", "records": []}}')
    assert not bench.has_records(final.game)  # finished, records still to come (new design)
    later = bench._decode_frame(b'{"type": "game", "game": {"status": "finished", '
                                b'"records": [{"kind": "STSE", "session": 1}]}}')
    assert later.type == "game" and bench.has_records(later.game)
    assert not bench.has_records(bench._decode_frame(b'{"type": "pong"}').game)
