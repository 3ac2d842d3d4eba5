"""Faults and the one exception of the records package.

A *fault* is one thing wrong with one record: which file, which field (a path such as
``sessions[1].turns[4]``, indices counted from 0) and what is wrong, in words. Every function
that checks records collects faults rather than stopping at the first, so a user sees every
problem at once; functions that must produce something (a slip, a written file) raise
:class:`RecordError` carrying all the faults instead of writing anything.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Fault:
    """One problem: ``file`` (or None for an in-memory document), field ``path`` (or ""), text."""

    message: str
    path: str = ""
    file: str | None = None

    def located(self, file: str | None) -> Fault:
        """The same fault attributed to ``file`` (kept when already attributed)."""
        return self if self.file is not None else Fault(self.message, self.path, file)

    def __str__(self) -> str:
        where = f"{self.path}: " if self.path else ""
        return f"{self.file}: {where}{self.message}" if self.file else f"{where}{self.message}"


class RecordError(ValueError):
    """Raised when a record cannot be read, built, written or merged; carries every fault."""

    def __init__(self, faults: Iterable[Fault] | Fault | str) -> None:
        if isinstance(faults, str):
            faults = [Fault(faults)]
        elif isinstance(faults, Fault):
            faults = [faults]
        self.faults: list[Fault] = list(faults)
        super().__init__("\n".join(str(f) for f in self.faults) or "invalid record")


def join_path(prefix: str, key: str | int) -> str:
    """``join_path("session", "turns") == "session.turns"``; integers become ``[i]``."""
    if isinstance(key, int):
        return f"{prefix}[{key}]"
    return f"{prefix}.{key}" if prefix else str(key)
