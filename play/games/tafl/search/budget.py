"""The search's budget: nodes, CPU seconds of the searching thread and real seconds."""

from __future__ import annotations

import time


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
