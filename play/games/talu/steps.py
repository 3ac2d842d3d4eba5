"""The step: the unit a player sends, one at a time, and the engine validates (R5-R9).

A ``NamedTuple`` rather than a dataclass: the engine creates dozens per position when it lists
legal steps, and tuples are the cheapest immutable, hashable value Python has.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .errors import StepFormatError

MOVE = "move"  # one piece to an adjacent empty square, 1 step (R5)
CAPTURE = "capture"  # onto an opponent piece in the overlap, attack cost - 1 steps (R6, R7)
EXIT = "exit"  # the last capturer leaves the target, 1 step; closes the chain (R6, R7)
STAY = "stay"  # honor capture closes its chain without exit, 1 step (R8)
END = "end"  # end the turn early (R9)
PASS = "pass"  # spend no step at all (R9, R12)

KINDS = (MOVE, CAPTURE, EXIT, STAY, END, PASS)
_NEEDS = {MOVE: (True, True), CAPTURE: (True, True), EXIT: (False, True)}


class Step(NamedTuple):
    """One step. ``frm``/``to`` are square names ("E3"); for an exit ``frm`` is the capturer."""

    kind: str
    frm: str | None = None
    to: str | None = None

    def __str__(self) -> str:
        if self.kind == MOVE:
            return f"{self.frm}-{self.to}"
        if self.kind == CAPTURE:
            return f"{self.frm}x{self.to}"
        if self.kind == EXIT:
            return f"-{self.to}"
        return self.kind

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "from": self.frm, "to": self.to}

    @classmethod
    def from_dict(cls, data: Any) -> Step:
        """Build a step from client JSON, rejecting anything malformed with a clear message."""
        if not isinstance(data, dict):
            raise StepFormatError("a step must be an object with a 'kind'")
        kind = data.get("kind")
        if kind not in KINDS:
            raise StepFormatError(
                f"unknown step kind {kind!r} (expected one of {', '.join(KINDS)})")
        frm, to = data.get("from"), data.get("to")
        need_from, need_to = _NEEDS.get(kind, (False, False))
        for label, value, needed in (("from", frm, need_from), ("to", to, need_to)):
            if value is not None and not isinstance(value, str):
                raise StepFormatError(f"'{label}' of a {kind} step must be a square name")
            if needed and not value:
                raise StepFormatError(f"a {kind} step needs '{label}'")
        norm = lambda s: s.strip().upper() if s else None  # noqa: E731
        if kind in (STAY, END, PASS):
            return cls(kind)
        return cls(kind, norm(frm), norm(to))

    @classmethod
    def move(cls, frm: str, to: str) -> Step:
        return cls(MOVE, frm, to)

    @classmethod
    def capture(cls, frm: str, target: str) -> Step:
        return cls(CAPTURE, frm, target)

    @classmethod
    def exit(cls, to: str, frm: str | None = None) -> Step:
        return cls(EXIT, frm, to)

    @classmethod
    def stay(cls) -> Step:
        return cls(STAY)

    @classmethod
    def end(cls) -> Step:
        return cls(END)

    @classmethod
    def pass_(cls) -> Step:
        return cls(PASS)
