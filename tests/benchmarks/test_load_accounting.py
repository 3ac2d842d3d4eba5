"""The load benchmark's accounting (benchmarks/bench_load.py): a lost, duplicated or reordered
step is counted as such, so a "0 lost / 0 duplicated" in BENCHMARKS.md means something."""

from __future__ import annotations

import asyncio
import json
import random
import time

import pytest

from tests import benchload


@pytest.fixture(scope="module")
def bench():
    yield from benchload.module()


def test_lost_duplicated_and_out_of_order_versions(bench):
    d = bench.Delivery(base=3)  # joined at version 3: versions up to 3 are not expected
    arrived = [bench.Delivery.see(d, v) for v in (4, 5, 5, 7, 6, 3)]
    assert arrived == [True, True, False, True, True, False]
    assert (d.dup, d.ooo) == (2, 1)  # 5 twice and 3 (already in the first state); 6 after 7
    assert d.lost(last=9) == 2  # 8 and 9 never came


def test_totals_add_up_over_sockets(bench):
    t = bench.Totals()
    a, b = bench.Delivery(0), bench.Delivery(2)
    for v in (1, 2, 3):
        a.see(v)
    b.see(3)
    t.add([a, b], last=4)
    assert (t.lost, t.expected) == (2, 6)  # a misses 4, b misses 4; 4 + 2 expected


def test_percentiles(bench):
    values = [i / 1000 for i in range(1, 101)]
    assert bench.pct(values, 0.5) == 0.05
    assert bench.pct(values, 0.99) == 0.099
    assert bench.pct([], 0.5) is None


def test_step_choice_is_legal_and_never_a_pass(bench):
    state = {"side_to_move": "I", "steps_used": 0, "honor_targets": [],
             "legal_steps": [{"kind": "pass", "from": None, "to": None},
                             {"kind": "move", "from": "A2", "to": "A3"},
                             {"kind": "move", "from": "B2", "to": "B3"}]}
    rng = random.Random(1)
    for _ in range(50):
        action, step = bench.choose_step(state, rng)
        assert action == "step" and step in state["legal_steps"][1:]


def test_honor_capture_comes_first(bench):
    honor = {"kind": "capture", "from": "C7", "to": "D8"}
    state = {"side_to_move": "O", "steps_used": 1, "honor_targets": ["D8"],
             "legal_steps": [{"kind": "move", "from": "A7", "to": "A6"},
                             {"kind": "capture", "from": "E7", "to": "F6"}, honor]}
    assert bench.choose_step(state, random.Random(2)) == ("step", honor)


class _Frames:
    """A socket that yields the given frames, then ends."""

    def __init__(self, frames: list[dict]) -> None:
        self.frames = [json.dumps(f) for f in frames]

    def __aiter__(self):
        return self

    async def __anext__(self) -> str:
        if not self.frames:
            raise StopAsyncIteration
        return self.frames.pop(0)


@pytest.mark.parametrize("ack_inside", [True, False])
def test_the_senders_round_trip_is_counted_once_either_way(bench, ack_inside):
    """The server acknowledges a step inside its update, or (rarely) alone before it: either
    way one round trip for the sender, none for its own update as a receiver."""
    window = bench.Window()
    window.lo, window.hi = 0.0, float("inf")
    slot = bench.GameSlot({"game": "g", "index": 0}, [], window, bench.Totals(),
                          random.Random(0))
    slot.deliveries = [bench.Delivery(0)]
    sent = time.perf_counter()
    slot.sent_at[1] = (sent, 0)
    slot.ack_at["s1"] = (sent, 1)
    update = {"type": "update", "from_version": 0, "version": 1,
              "events": [{"version": 1}], "state": {"side_to_move": "I"}}
    ack = {"seq": "s1", "version": 1}
    frames = [{**update, "ack": ack}] if ack_inside else [{"type": "ack", **ack}, update]
    asyncio.run(slot.read(0, _Frames(frames)))
    assert window.stats.done == 1 and len(window.stats.ack) == 1
    assert window.stats.recv == [] and slot.ack_at == {}
    assert slot.seen[0] == 1 and slot.deliveries[0].lost(1) == 0
    # The state was kept raw; the player to move reads it decoded.
    assert slot.current_state() == {"side_to_move": "I"} and not slot.finished()


def _phase(*levels: tuple[float, float]) -> dict:
    return {"levels": [{"offered": o, "per_s": d, "p99_ms": 5.0} for o, d in levels]}


def test_a_side_that_kept_up_with_the_top_level_is_not_called_saturated(bench):
    """Its best figure is then only a lower bound, and a ratio against it an upper bound: the
    report says so instead of passing it off as the target's figure."""
    cfg = {"relay_fixed": _phase((200, 200)), "relay_ramp": _phase((1000, 1000), (2000, 1990)),
           "stack_fixed": _phase((200, 200)), "stack_ramp": _phase((1000, 990), (2000, 900))}
    relay, stack = bench.saturation(cfg, "relay"), bench.saturation(cfg, "stack")
    assert (relay["per_s"], relay["saturated"]) == (1990, False)
    assert (stack["per_s"], stack["saturated"]) == (990, True)
    cfg["relay_ramp"] = _phase((1000, 1000), (2000, 800))  # fell back: saturated at 1,000
    assert bench.saturation(cfg, "relay") | {"p99_ms": 0} == {
        "per_s": 1000, "offered": 1000, "p99_ms": 0, "saturated": True}
