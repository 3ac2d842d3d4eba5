"""What the computer searches of the tafl games and Talat share: the budget (nodes, CPU
seconds of the searching thread and real seconds) and the root's result under iterative
deepening. Talu's search counts whole turns against its budget (``talu/search/turns.py``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field


class BudgetExhausted(Exception):
    """The search has spent its nodes or its time."""


class Budget:
    """Nodes spent against a limit, and two time caps checked every 256 nodes: CPU seconds
    of this thread (a level thinks as much on a busy machine, only slower) and real seconds
    (a clock's hard limit, R36)."""

    __slots__ = ("cpu_deadline", "deadline", "limit", "nodes")

    def __init__(self, limit: int, seconds: float | None = None,
                 wall: float | None = None) -> None:
        self.limit = limit
        self.nodes = 0
        self.cpu_deadline = time.thread_time() + seconds if seconds else None
        self.deadline = time.monotonic() + wall if wall else None

    def _late(self) -> bool:
        return ((self.cpu_deadline is not None and time.thread_time() > self.cpu_deadline)
                or (self.deadline is not None and time.monotonic() > self.deadline))

    def spend(self) -> None:
        """Count a node, or raise ``BudgetExhausted`` (counting none) when the budget is
        spent: the count never exceeds the limit."""
        if self.nodes >= self.limit or (not self.nodes & 255 and self._late()):
            raise BudgetExhausted
        self.nodes += 1


@dataclass
class RootResult:
    """The root's answer: its ``choice`` (a move or action of the game's position), its
    score for the searching seat, the deepest iteration completed and every root choice's
    score in it."""

    choice: int
    score: int
    depth: int  # the deepest completed iteration
    scores: dict[int, int] = field(default_factory=dict)


def interrupted(done: RootResult | None, scores: dict[int, int],
                judged: Callable[[int], tuple[int, int]], depth: int) -> RootResult:
    """The budget ran out inside the iteration at ``depth``: the best of its root choices (by
    ``judged``, the root's key: its score, then the searches' own tie-break)
    searched so far when it beats the last complete iteration's choice (a deeper look found
    better than the shallower one), else that complete iteration's; ``BudgetExhausted`` again
    when nothing was searched at all."""
    if done is None and not scores:
        raise BudgetExhausted
    if scores:
        best = max(scores, key=judged)
        if done is None or (scores[best] > done.score and best != done.choice):
            return RootResult(best, scores[best], depth - 1, scores)
    assert done is not None
    return done

