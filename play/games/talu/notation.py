"""STGN turn bodies (R15): writing a turn's steps, and reading a body back into steps.

Writing is canonical: consecutive moves of one piece form one path, an exit and the moves after
it join their capture, a chain link and an honor capture without exit stand alone.
"""

from __future__ import annotations

import re

from .steps import CAPTURE, END, EXIT, MOVE, PASS, STAY, Step


def turn_body(steps: list[Step]) -> str:
    """The canonical body of a turn: '.' for a pass, else its actions separated by spaces."""
    actions: list[str] = []
    cur: list[str] = []  # the action being written
    head: str | None = None  # square of the piece the current action can still extend
    for s in steps:
        k = s.kind
        if k == MOVE:
            if head is not None and s.frm == head:
                cur.append(f"-{s.to}")
            else:
                if cur:
                    actions.append("".join(cur))
                cur = [f"{s.frm}-{s.to}"]
            head = s.to
        elif k == CAPTURE:
            if cur:
                actions.append("".join(cur))
            cur = [f"{s.frm}x{s.to}"]
            head = None  # only an exit may follow a capture in the same action
        elif k == EXIT:
            cur.append(f"-{s.to}")
            head = s.to
        elif k == STAY:
            head = None
        elif k == PASS:
            return "."
        elif k == END:
            pass
    if cur:
        actions.append("".join(cur))
    return " ".join(actions) if actions else "."


SQ = r"[A-Za-z][0-9]{1,2}"
_ACTION = re.compile(rf"^({SQ})(?:(x)({SQ}))?((?:-{SQ})*)$")
_SQ = re.compile(SQ)


class BodySyntaxError(ValueError):
    """A body that does not follow the grammar; the message names the offending text."""


def parse_body(body: str) -> list[tuple[str, ...]] | None:
    """Split a body into actions: ('move', path...) or ('capture', frm, target, path...).

    Returns None for a pass. Squares are upper-cased but not checked against the board here.
    """
    text = body.strip()
    if text == ".":
        return None
    if not text:
        raise BodySyntaxError("the turn is empty: write '.' for a pass")
    out: list[tuple[str, ...]] = []
    for token in text.split():
        m = _ACTION.match(token)
        if not m:
            if token == ".":
                raise BodySyntaxError("'.' (a pass) must be the whole turn")
            raise BodySyntaxError(f"{token!r} is not a move (A1-B1) or a capture (A1xB1-B2)")
        first, x, target, rest = m.groups()
        path = [p.upper() for p in _SQ.findall(rest)]
        if x:
            out.append((CAPTURE, first.upper(), target.upper(), *path))
        else:
            if not path:
                raise BodySyntaxError(f"{token!r} names a square but no move: write A1-B1")
            out.append((MOVE, first.upper(), *path))
    return out
