"""The computer's search shared fairly between the people who play it (issue 41, finding 6).

A worker's pool has a few processes (``TALU_COMPUTER_PROCESSES``), and every computer turn the
worker holds waits for one. Started in the order they came (the executor's own queue), two
accounts with three level-8 games each kept a third player's level-1 replies (0.04 s of search)
waiting 11.5 s on median behind their queued searches. So the pool's free slots are handed out
here instead:

- by account (the person the computer plays against), the account with the fewest searches
  running first: one account's many games never take more than its share while another
  account waits;
- among accounts as busy, one with a cheap search waiting (cost, the level's CPU seconds, at
  most ``cheap``: levels 1-3, a second at most) first, then round robin (the account that has
  waited longest since it was last served, or since it came). Only two classes of cost, not
  the cost itself: ordered by cost, a steady stream of other people's level-4 searches would
  starve a level-8 player, while cheap searches are short by their cap;
- within an account, its cheapest search first, then in the order they came;
- and ``quick_slots`` slots more that only a cheap search may take, so that a level-1 reply
  does not wait for a level-8 search to end either.

``FairScheduler`` is that policy alone: pure, deterministic (no clock, no thread), so its tests
need neither. ``FairExecutor`` puts it in front of an executor whose workers are as many as the
scheduler's slots (that executor then never queues: the order is decided here). Neither imports
Django.
"""

from __future__ import annotations

import heapq
import itertools
import threading
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, Future, InvalidStateError
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Generic, TypeVar

J = TypeVar("J")


@dataclass
class _Account(Generic[J]):
    """One account's searches: those waiting, as a heap of (cost, arrival, job), and how many
    run; ``turn`` orders the round robin (the tick it was last served, or came)."""

    turn: int
    pending: list[tuple[float, int, J]] = field(default_factory=list)
    running: int = 0


class FairScheduler(Generic[J]):
    """Which waiting search to start when a slot of the pool is free.

    ``submit(account, cost, job)`` queues a job; ``next()`` returns the job to start now (and
    counts it as running) or None when no slot is free or nothing may take one; ``done(job)``
    frees a started job's slot; ``withdraw(job)`` drops a job not yet started. Jobs are told
    apart by identity. Not thread-safe: ``FairExecutor`` holds a lock around it."""

    def __init__(self, slots: int, quick_slots: int = 0, cheap: float = 0.0) -> None:
        if slots < 1 or quick_slots < 0:
            raise ValueError("a scheduler needs a slot at least, and no negative quick slots")
        self.slots = slots
        self.quick_slots = quick_slots
        self.cheap = cheap
        self._accounts: dict[Hashable, _Account[J]] = {}
        self._waiting: dict[int, Hashable] = {}  # id(job) -> its account, while it waits
        self._started: dict[int, tuple[Hashable, bool, J]] = {}  # id(job) -> account, quick?
        self._arrivals = itertools.count()
        self._tick = 0
        self._busy = 0
        self._quick_busy = 0

    @property
    def waiting(self) -> int:
        """Jobs submitted and not yet started."""
        return len(self._waiting)

    @property
    def running(self) -> int:
        """Jobs started and not yet done."""
        return len(self._started)

    def submit(self, account: Hashable, cost: float, job: J) -> None:
        """Queue ``job`` of ``account`` (who the computer plays against; None: nobody's), which
        costs ``cost`` (a level's CPU seconds)."""
        key = id(job)
        if key in self._waiting or key in self._started:
            raise ValueError("this job is queued or running already")
        state = self._accounts.get(account)
        if state is None:
            self._tick += 1
            state = self._accounts[account] = _Account(turn=self._tick)
        heapq.heappush(state.pending, (cost, next(self._arrivals), job))
        self._waiting[key] = account

    def next(self) -> J | None:
        """The job to start now, counted as running until ``done``; None if none may start."""
        general = self._busy < self.slots
        quick = self._quick_busy < self.quick_slots
        if not (general or quick):
            return None
        best: tuple[tuple[int, bool, int], Hashable] | None = None
        for account, state in self._accounts.items():
            if not state.pending:
                continue
            dear = state.pending[0][0] > self.cheap  # its cheapest job is not cheap
            if dear and not general:
                continue  # only the quick slots are free, and this account has no cheap job
            rank = (state.running, dear, state.turn)
            if best is None or rank < best[0]:
                best = (rank, account)
        if best is None:
            return None
        account = best[1]
        state = self._accounts[account]
        cost, _, job = heapq.heappop(state.pending)
        in_quick = quick and cost <= self.cheap  # a cheap job keeps the other slots free
        if in_quick:
            self._quick_busy += 1
        else:
            self._busy += 1
        self._tick += 1
        state.turn = self._tick
        state.running += 1
        del self._waiting[id(job)]
        self._started[id(job)] = (account, in_quick, job)
        return job

    def done(self, job: J) -> None:
        """``job``, started by ``next``, has ended: its slot is free."""
        account, in_quick, _ = self._started.pop(id(job))
        if in_quick:
            self._quick_busy -= 1
        else:
            self._busy -= 1
        state = self._accounts[account]
        state.running -= 1
        self._forget_if_idle(account, state)

    def withdraw(self, job: J) -> bool:
        """Drop ``job`` if it is still waiting (its caller gave up); whether it was."""
        account = self._waiting.pop(id(job), None)
        if account is None:
            return False
        state = self._accounts[account]
        state.pending = [entry for entry in state.pending if entry[2] is not job]
        heapq.heapify(state.pending)
        self._forget_if_idle(account, state)
        return True

    def clear(self) -> list[J]:
        """Drop every waiting job (the pool stops); the jobs dropped."""
        dropped = [entry[2] for state in self._accounts.values() for entry in state.pending]
        for account, state in list(self._accounts.items()):
            state.pending.clear()
            self._forget_if_idle(account, state)
        self._waiting.clear()
        return dropped

    def _forget_if_idle(self, account: Hashable, state: _Account[J]) -> None:
        """An account with nothing waiting or running is forgotten: when it comes again it
        joins the round robin's end."""
        if not state.pending and not state.running:
            del self._accounts[account]


@dataclass(eq=False)
class _Call:
    """A job of ``FairExecutor``: the call to make and the future its caller holds."""

    fn: Callable[[], Any]
    future: Future


class FairExecutor(Executor):
    """An executor that starts its calls in ``scheduler``'s order on ``inner``, never more
    at once than the scheduler has slots (``inner`` has as many workers, so it never queues).

    ``submit_for(account, cost, fn, ...)`` is ``submit`` with the account and the cost the
    scheduler orders by; plain ``submit`` is nobody's call of no cost. The future returned
    stays pending until the call has ended, so it may be cancelled at any time: a waiting call
    is then dropped, a started one runs on (a process cannot be stopped mid-search) and holds
    its slot until it ends, its result dropped. Thread-safe: calls end on the inner executor's
    threads, which start the next ones."""

    def __init__(self, inner: Executor, scheduler: FairScheduler[_Call]) -> None:
        self.inner = inner
        self.scheduler = scheduler
        self._lock = threading.Lock()
        self._stopped = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        return self.submit_for(None, 0.0, fn, *args, **kwargs)

    def submit_for(self, account: Hashable, cost: float, fn: Callable[..., Any], /,
                   *args: Any, **kwargs: Any) -> Future:
        call = _Call(partial(fn, *args, **kwargs), Future())
        with self._lock:
            if self._stopped:
                raise RuntimeError("cannot schedule new futures after shutdown")
            self.scheduler.submit(account, cost, call)
        call.future.add_done_callback(partial(self._given_up, call))
        self._start_what_may()
        return call.future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop: calls not yet started are cancelled (a stopped pool cannot start them)."""
        with self._lock:
            self._stopped = True
            dropped = self.scheduler.clear()
        for call in dropped:
            call.future.cancel()
        self.inner.shutdown(wait=wait, cancel_futures=cancel_futures)

    def _given_up(self, call: _Call, future: Future) -> None:
        if future.cancelled():
            with self._lock:
                self.scheduler.withdraw(call)

    def _start_what_may(self) -> None:
        while True:
            with self._lock:
                call = None if self._stopped else self.scheduler.next()
            if call is None:
                return
            if call.future.cancelled():  # given up as it was chosen
                with self._lock:
                    self.scheduler.done(call)
                continue
            try:
                running = self.inner.submit(call.fn)
            except Exception as err:  # a broken or stopped pool: the caller is told
                _settle(call.future, err=err)
                with self._lock:
                    self.scheduler.done(call)
                continue
            running.add_done_callback(partial(self._ended, call))

    def _ended(self, call: _Call, running: Future) -> None:
        with self._lock:
            self.scheduler.done(call)
        _settle(call.future, running)
        self._start_what_may()


def _settle(future: Future, running: Future | None = None,
            err: BaseException | None = None) -> None:
    """Give ``future`` the outcome of ``running`` (or ``err``), unless its caller gave up."""
    try:
        if running is not None and running.cancelled():
            future.cancel()
        elif running is not None and running.exception() is None:
            future.set_result(running.result())
        else:
            future.set_exception(err if running is None else running.exception())
    except InvalidStateError:  # cancelled meanwhile: nobody waits for the outcome
        pass
