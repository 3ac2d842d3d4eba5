"""OTN move records (T12, T15): writing a move with its captures and info suffixes, and
reading one back.

``e4-e7`` a soldier's move, ``Ke5-e8`` the king's, then ``x`` and the squares of every piece
the move removed (``xe8/f7``; ``xK`` before the king's square), custodian captures, tafl's
self-removal (at the moved piece's own square) and T8's removals alike. Info suffixes: ``-``
raichi (Tablut: T11 after the move; tafl: the king on an edge with a free square beside him
along it), ``--`` the king escapes, ``+`` some attacker move would capture the king next,
``++`` the king is captured; ``-``/``+`` never after a move that ends the game (T15). ``---``
is a resignation, not a move.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .board import ATTACKER, ATTACKERS, KING, Geometry
from .errors import MalformedMove
from .position import ESCAPE, KING_CAPTURED, Position

RESIGN = "---"
_MOVE = re.compile(
    r"^(K?)([a-s]\d{1,2})-([a-s]\d{1,2})"
    r"(?:x(K?[a-s]\d{1,2}(?:/K?[a-s]\d{1,2})*))?"
    r"(\+\+|--|\+-|-\+|\+|-)?$")
SUFFIXES = ("", "-", "--", "+", "++", "+-", "-+")


@dataclass(frozen=True)
class MoveRecord:
    """A move record as written: the ``K`` prefix, the squares, the captures (square, with
    ``xK``) and the info suffix."""

    king: bool
    frm: int
    to: int
    captures: tuple[tuple[int, bool], ...]
    suffix: str
    text: str


def parse_move(text: str, geo: Geometry) -> MoveRecord:
    """A move record's parts; ``MalformedMove`` in words for text that is not one."""
    t = text.strip()
    m = _MOVE.match(t)
    if m is None:
        raise MalformedMove(f"{t!r} is not a move record: write it as e4-e7 (Ke5-e8 for the "
                            "king), with its captures as xe8/f7 (T12)")
    try:
        frm, to = geo.square(m.group(2)), geo.square(m.group(3))
        caps = tuple((geo.square(c.lstrip("K")), c.startswith("K"))
                     for c in (m.group(4) or "").split("/") if c)
    except ValueError as err:
        raise MalformedMove(f"{t}: {err}") from None
    if len({sq for sq, _ in caps}) != len(caps):
        raise MalformedMove(f"{t}: the capture record names a square twice (T12)")
    return MoveRecord(bool(m.group(1)), frm, to, caps, m.group(5) or "", t)


def write_move(geo: Geometry, frm: int, to: int, piece: int,
               captured: tuple[tuple[int, int], ...] = (), suffix: str = "") -> str:
    """The OTN record of a move (T12): the captures in the order they were removed."""
    name = geo.name
    text = f"{'K' if piece == KING else ''}{name(frm)}-{name(to)}"
    if captured:
        text += "x" + "/".join(("K" if p == KING else "") + name(sq) for sq, p in captured)
    return text + suffix


def king_threatened(pos: Position) -> bool:
    """T12 ``+``: whether some attacker move, on this board, would capture the king. Only a
    move onto a square next to him can (T6, T7; a T8 enclosure of the king alone is closed
    by a piece next to him too): the first attacker along each line from such a square."""
    k = pos.king
    if k < 0 or pos.result is not None or pos.pending:
        return False
    board, geo = pos.board, pos.geo
    candidates = []
    for t in geo.adjacent[k]:
        if board[t]:
            continue
        for ray in geo.rays[t]:
            for s in ray:
                if board[s]:
                    if board[s] == ATTACKER:
                        candidates.append((s, t))
                    break
    if not candidates:
        return False
    saved = pos.to_move
    pos.to_move = ATTACKERS  # asked of the board as it stands; restored below
    try:
        for frm, to in candidates:
            if pos.why_illegal(frm, to) is not None:
                continue
            pos.push(frm << 9 | to)
            captured = pos.win is not None and pos.win[1] == KING_CAPTURED
            pos.pop()
            if captured:
                return True
        return False
    finally:
        pos.to_move = saved


def in_raichi(pos: Position) -> bool:
    """T12 ``-``: Tablut's raichi (T11); in tafl the king on an edge with an empty square
    beside him along that edge (his next move may escape, T9)."""
    k = pos.king
    if k < 0:
        return False
    if pos.tablut:
        return bool(pos.raichi())
    geo = pos.geo
    if not geo.edge[k]:
        return False
    return any(not pos.board[a] and geo.edge_line(k, a) for a in geo.adjacent[k])


def suffix_after(pos: Position) -> str:
    """The info suffix true of the move just completed (T12, T15): ``++``/``--`` for the
    move that captures or frees the king; ``+`` before ``-``, never after a game's end."""
    if pos.result is not None:
        reason = pos.result[1]
        return "++" if reason == KING_CAPTURED else "--" if reason == ESCAPE else ""
    if king_threatened(pos):
        return "+"
    return "-" if in_raichi(pos) else ""


def check_suffix(pos: Position, suffix: str) -> str | None:
    """Why an info suffix written after the move just completed is false, or None."""
    if not suffix:
        return None
    reason = pos.result[1] if pos.result is not None else None
    if suffix == "++":
        return None if reason == KING_CAPTURED else "'++' says the king is captured, and he " \
            "is not"
    if suffix == "--":
        return None if reason == ESCAPE else "'--' says the king escapes, and he does not"
    if pos.result is not None:
        return f"'{suffix}' is not written after a move that ends the game"
    if "+" in suffix and not king_threatened(pos):
        return "'+' says the king may be captured next move, and no attacker move captures him"
    if "-" in suffix and not in_raichi(pos):
        return ("'-' says the king is in raichi, and he has no free line to an edge"
                if pos.tablut else
                "'-' says the king may escape along the edge, and he cannot")
    return None
