"""The computer's search shared fairly between accounts (issue 41, finding 6): the order in
which ``play.computer.fair`` starts waiting searches, checked by the order of starts alone (no
clock, no timing): a level-1 reply is not queued behind other accounts' level-8 searches, one
account's many games take no more than their share while others wait, accounts take turns."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor, wait

import pytest

from play.computer.fair import FairExecutor, FairScheduler

L1, L4, L8 = 1.0, 3.0, 12.0  # the levels' CPU seconds, the cost the pool orders by
CHEAP = 1.0


def _run_one_at_a_time(scheduler: FairScheduler) -> list:
    """Start and end the waiting jobs one by one; the order they started."""
    order = []
    while (job := scheduler.next()) is not None:
        order.append(job)
        scheduler.done(job)
    return order


def test_a_level_1_reply_starts_before_other_accounts_queued_level_8_searches():
    """The attack: two accounts with three level-8 games each fill the pool's two processes
    and its queue; a third person's level-1 reply starts at the next free process."""
    fair = FairScheduler(2, cheap=CHEAP)
    for n in range(3):
        fair.submit("mallory", L8, f"mallory-{n}")
        fair.submit("trudy", L8, f"trudy-{n}")
    running = [fair.next(), fair.next()]
    assert sorted(running) == ["mallory-0", "trudy-0"] and fair.next() is None  # both busy
    fair.submit("vic", L1, "vic-reply")
    fair.done(running[0])
    assert fair.next() == "vic-reply"
    assert fair.waiting == 4 and fair.running == 2


def test_the_quick_slot_takes_a_cheap_reply_while_level_8_searches_hold_the_others():
    fair = FairScheduler(2, quick_slots=1, cheap=CHEAP)
    for n in range(3):
        fair.submit("mallory", L8, f"mallory-{n}")
        fair.submit("trudy", L8, f"trudy-{n}")
    assert {fair.next(), fair.next()} == {"mallory-0", "trudy-0"}
    assert fair.next() is None  # the quick slot is free, but no level-8 search may take it
    fair.submit("vic", L1, "vic-reply")
    assert fair.next() == "vic-reply"  # at once: no search had to end first
    fair.submit("wendy", L1, "wendy-reply")
    assert fair.next() is None  # the quick slot is taken, the others too
    fair.done("vic-reply")
    assert fair.next() == "wendy-reply"


def test_a_cheap_search_takes_the_quick_slot_first_and_keeps_the_others_free():
    fair = FairScheduler(1, quick_slots=1, cheap=CHEAP)
    fair.submit("vic", L1, "vic-reply")
    assert fair.next() == "vic-reply"
    fair.submit("mallory", L8, "mallory-0")
    assert fair.next() == "mallory-0"  # the general slot was still free


def test_one_account_s_many_games_take_no_more_than_their_share_while_others_wait():
    fair = FairScheduler(2, cheap=CHEAP)
    for n in range(3):
        fair.submit("mallory", L8, f"mallory-{n}")
    first, second = fair.next(), fair.next()
    assert [first, second] == ["mallory-0", "mallory-1"]  # nobody else waited
    fair.submit("bob", L8, "bob-0")
    fair.done(first)  # (jobs are told apart by identity: the objects started)
    assert fair.next() == "bob-0"  # not mallory's third while bob has nothing running
    fair.done(second)
    assert fair.next() == "mallory-2"


def test_accounts_take_turns_and_each_thinks_its_cheapest_first():
    fair = FairScheduler(1, cheap=CHEAP)
    for name in ("ann", "ben", "cat"):
        for n, cost in enumerate((L8, L4, L8)):
            fair.submit(name, cost, f"{name}-{n}")
    assert _run_one_at_a_time(fair) == [
        "ann-1", "ben-1", "cat-1", "ann-0", "ben-0", "cat-0", "ann-2", "ben-2", "cat-2"]


def test_a_stream_of_level_4_searches_does_not_starve_a_level_8_player():
    """Only cheap versus not: among levels 4-8 the accounts take turns, whatever the level."""
    fair = FairScheduler(1, cheap=CHEAP)
    fair.submit("ann", L4, "ann-0")
    fair.submit("eve", L8, "eve-0")
    fair.submit("ben", L4, "ben-0")
    first = fair.next()
    assert first == "ann-0"
    fair.submit("ann", L4, "ann-1")  # ann's next turn comes while her search runs
    fair.done(first)
    assert _run_one_at_a_time(fair) == ["eve-0", "ben-0", "ann-1"]


def test_an_account_that_comes_again_joins_the_end_of_the_round():
    fair = FairScheduler(1, cheap=CHEAP)
    fair.submit("ann", L8, "ann-0")
    assert fair.next() == "ann-0"
    fair.submit("ben", L8, "ben-0")
    fair.submit("cat", L8, "cat-0")
    fair.done("ann-0")
    fair.submit("ann", L8, "ann-1")  # ann had nothing left: she comes after ben and cat
    assert _run_one_at_a_time(fair) == ["ben-0", "cat-0", "ann-1"]


def test_a_withdrawn_search_never_starts_and_a_started_one_cannot_be_withdrawn():
    fair = FairScheduler(1, cheap=CHEAP)
    fair.submit("ann", L8, "ann-0")
    fair.submit("ann", L8, "ann-1")
    fair.submit("ben", L8, "ben-0")
    assert fair.next() == "ann-0"
    assert not fair.withdraw("ann-0")  # running: it ends by itself
    assert fair.withdraw("ben-0") and not fair.withdraw("ben-0")
    fair.done("ann-0")
    assert _run_one_at_a_time(fair) == ["ann-1"]
    fair.submit("cat", L8, "cat-0")
    assert fair.clear() == ["cat-0"] and fair.next() is None and fair.waiting == 0


def test_the_same_job_twice_and_a_scheduler_without_slots_are_refused():
    fair = FairScheduler(1)
    job = object()
    fair.submit("ann", L8, job)
    with pytest.raises(ValueError, match="already"):
        fair.submit("ben", L8, job)
    with pytest.raises(ValueError, match="slot"):
        FairScheduler(0)


def _executor(workers: int = 1, quick: int = 0) -> FairExecutor:
    return FairExecutor(ThreadPoolExecutor(max_workers=workers + quick),
                        FairScheduler(workers, quick, CHEAP))


def test_the_executor_starts_the_waiting_calls_in_the_scheduler_s_order():
    """In front of a real executor: while one call holds the only worker, others queue; when
    it ends they start in the fair order, not the order they came."""
    pool = _executor()
    started: list[str] = []
    entered, release = threading.Event(), threading.Event()

    def held() -> str:
        entered.set()
        assert release.wait(10)
        return "held"

    first = pool.submit(held)  # nobody's
    assert entered.wait(10)
    futures = [pool.submit_for(name, cost, started.append, name)
               for name, cost in (("mallory", L8), ("trudy", L8), ("mallory", L8),
                                  ("trudy", L8), ("vic", L1))]
    assert started == [] and pool.scheduler.waiting == 5
    release.set()
    done, _ = wait([first, *futures], timeout=10)
    assert len(done) == 6 and first.result() == "held"
    assert started == ["vic", "mallory", "trudy", "mallory", "trudy"]
    pool.shutdown()


def test_a_cancelled_waiting_call_never_runs_and_errors_reach_the_caller():
    pool = _executor()
    release = threading.Event()
    ran: list[str] = []
    holder = pool.submit_for("ann", L8, release.wait, 10)
    dropped = pool.submit_for("ben", L8, ran.append, "ben")
    assert dropped.cancel() and pool.scheduler.waiting == 0

    def broken() -> None:
        raise RuntimeError("the search failed")

    failing = pool.submit_for("cat", L1, broken)
    release.set()
    assert holder.result(10) is True
    with pytest.raises(RuntimeError, match="the search failed"):
        failing.result(10)
    assert ran == [] and pool.submit(len, "ok").result(10) == 2  # the slot was given back
    pool.shutdown()


def test_stopping_the_executor_cancels_the_calls_not_started():
    pool = _executor()
    release = threading.Event()
    holder = pool.submit_for("ann", L8, release.wait, 10)
    waiting = pool.submit_for("ben", L8, len, "x")
    pool.shutdown(wait=False)
    release.set()
    assert waiting.cancelled() and holder.result(10) is True
    with pytest.raises(RuntimeError, match="after shutdown"):
        pool.submit(len, "x")
