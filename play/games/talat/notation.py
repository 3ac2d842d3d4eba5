"""A10's actions as text: ``@23:c5 M6`` (a placement), ``12:b2-c3`` (a move), ``31:d4xd5``
(a capture), ``pass``; read and checked against a position, naming the rule an illegal one
breaks, and written from a position's action ints."""

from __future__ import annotations

import re

from .board import (
    BEATS,
    CAPTURE,
    FILES,
    FORWARD,
    KINDS,
    ZIHIN,
    board_names,
    kind_of,
    parse_square,
    square_name,
    tower_name,
)
from .errors import GameFinished, IllegalAction, MalformedAction
from .position import PASS, PLACE, PLACEMENT, PLAY, START_OF, Position

_PLACE = re.compile(r"^@(\S+)\s+(\S+)$")
_MOVE = re.compile(r"^(\w\w):([a-e][1-5])([-x])([a-e][1-5])$")
HEIGHT_WORDS = {0: "small", 1: "medium", 2: "large"}


def write_action(pos: Position, action: int) -> str:
    """The A10 text of ``action`` in ``pos`` (before it is made)."""
    boards = board_names(pos.variant)
    if action == PASS:
        return "pass"
    if action >= PLACE:
        sq, kind = divmod(action - PLACE, 9)
        return f"@{square_name(sq, boards)} {KINDS[kind]}"
    frm, to = divmod(action, 75)
    cell = square_name(to, boards).split(":")[1]
    return f"{square_name(frm, boards)}{'x' if pos.board[to] >= 0 else '-'}{cell}"


def acts_for_zihin(pos: Position, action: int) -> bool:
    """Whether ``action`` places or moves one of Zihin's towers (written ``1>Z``, A10)."""
    if not pos.two or action == PASS:
        return False
    if action >= PLACE:
        return pos.placing == ZIHIN
    return pos.board[action // 75] // 9 == ZIHIN


def seat_token(pos: Position, action: int) -> str:
    """The seat as A10 writes it before an action: ``2``, or ``2>Z`` acting for Zihin."""
    seat = pos.seats[pos.to_move]
    return f"{seat}>Z" if acts_for_zihin(pos, action) else seat


def why_not_beats(a: int, b: int) -> str:
    """Why a tower of kind ``a`` does not beat one of kind ``b`` (A5), in words."""
    ka, kb = KINDS[a], KINDS[b]
    if a == b:
        return f"equal towers never capture each other ({ka} and {kb})"
    if a // 3 == b // 3:
        return f"{ka} has fewer sides than {kb}"
    if a // 3 == b // 3 + 2:
        return (f"a {HEIGHT_WORDS[a // 3]} tower beats one height below it only, not "
                f"{HEIGHT_WORDS[b // 3]} ones")
    return f"{ka} is lower than {kb} (only S3 beats L6, David and Goliath)"


def parse_action(pos: Position, text: str, zihin: bool | None = None) -> int:
    """The action of the seat to act written ``text``, checked (A3-A5, A7, A11);
    ``zihin``: whether the record wrote the seat as ``N>Z`` (None: not said, the wire).
    ``MalformedAction`` or ``IllegalAction`` naming the rule; ``pos`` unchanged."""
    text = " ".join(text.split())
    if pos.finished:
        raise GameFinished(f"{text}: the game is over")
    boards = board_names(pos.variant)
    seat = pos.to_move
    me = pos.seats[seat]
    if text == "pass":
        if pos.phase == PLACEMENT:
            raise IllegalAction(text, f"seat {me} places a tower: nobody passes during "
                                "placement", "A3")
        if pos.can_act(seat):
            raise IllegalAction(text, f"seat {me} has a move or a capture: a seat passes "
                                "only when it has neither", "A4")
        return PASS
    m = _PLACE.match(text)
    if m:
        return _placement(pos, text, m.group(1), m.group(2), zihin, boards)
    m = _MOVE.match(text)
    if m is None:
        raise MalformedAction(text, "not an action: write a placement like @23:c5 M6, a "
                              "move like 12:b2-c3, a capture like 31:d4xd5, or pass", "A10")
    try:
        frm = parse_square(f"{m.group(1)}:{m.group(2)}", boards)
        to = parse_square(f"{m.group(1)}:{m.group(4)}", boards)
    except ValueError as err:
        raise MalformedAction(text, str(err)) from None
    if pos.phase != PLAY:
        raise IllegalAction(text, "placement is not over: place a tower", "A3")
    b, name = frm // 25, boards[frm // 25]
    tower = pos.board[frm]
    if tower < 0:
        raise IllegalAction(text, f"there is no tower on {square_name(frm, boards)}", "A4")
    owner = tower // 9
    if owner != seat and not (pos.two and owner == ZIHIN):
        raise IllegalAction(text, f"{square_name(frm, boards)} holds "
                            f"{tower_name(tower, pos.seats)}, a tower of seat "
                            f"{pos.seats[owner]}", "A4")
    if owner == ZIHIN and pos.two and b != seat + 1:
        raise IllegalAction(text, f"Zihin's towers move only on {boards[seat + 1]}, the "
                            "board between Zihin and your opponent", "A11")
    if zihin is not None and zihin != (owner != seat):
        raise IllegalAction(text, f"{square_name(frm, boards)} holds "
                            f"{tower_name(tower, pos.seats)}: write the seat as "
                            f"{me + '>Z' if owner != seat else me}", "A10")
    if pos.frozen[b]:
        raise IllegalAction(text, f"{name} is frozen: nobody moves on it", "A7")
    a, c = m.group(2), m.group(4)
    victim = pos.board[to]
    if m.group(3) == "-":
        if to not in FORWARD[owner][frm]:
            raise IllegalAction(text, f"{c} is not one square forward of {a}, straight or "
                                "diagonally", "A4")
        if victim >= 0:
            raise IllegalAction(text, f"{name}:{c} is taken: a move goes to an empty square "
                                f"(a capture is written {name}:{a}x{c})", "A4")
        return frm * 75 + to
    if victim < 0:
        raise IllegalAction(text, f"there is no tower on {name}:{c} to capture", "A5")
    if victim // 9 in (owner, seat):
        raise IllegalAction(text, f"{name}:{c} holds {tower_name(victim, pos.seats)}: "
                            "nobody captures their own towers", "A5" if owner == seat else "A11")
    if to not in CAPTURE[owner][frm]:
        raise IllegalAction(text, f"{c} is not ahead of {a} (straight or diagonally) nor "
                            "beside it", "A5")
    if not BEATS[(tower % 9) * 9 + victim % 9]:
        raise IllegalAction(text, f"{tower_name(tower, pos.seats)} does not beat "
                            f"{tower_name(victim, pos.seats)}: "
                            f"{why_not_beats(tower % 9, victim % 9)}", "A5")
    return frm * 75 + to


def _placement(pos: Position, text: str, where: str, what: str, zihin: bool | None,
               boards: tuple[str, str, str]) -> int:
    try:
        sq = parse_square(where, boards)
        kind = kind_of(what)
    except ValueError as err:
        raise MalformedAction(text, str(err)) from None
    if pos.phase != PLACEMENT:
        raise IllegalAction(text, "placement is over: move or capture", "A3")
    owner, me = pos.placing, pos.seats[pos.to_move]
    if zihin is not None and pos.two and zihin != (owner == ZIHIN):
        if owner == ZIHIN:
            raise IllegalAction(text, f"the first eight placements are Zihin's towers: "
                                f"write {me}>Z", "A11")
        raise IllegalAction(text, "Zihin's eight towers are placed: place your own", "A11")
    whose = pos.seats[owner]
    if sq not in START_OF[owner]:
        lines = sorted({square_name(s, boards).split(":")[0] for s in START_OF[owner]})
        rows = ", ".join(f"{b} row {'1' if b[0] == whose else '5'}" for b in lines)
        raise IllegalAction(text, f"{where} is not on {'Zihin' if whose == 'Z' else whose}'s "
                            f"start lines ({rows})", "A3")
    if pos.board[sq] >= 0:
        raise IllegalAction(text, f"{where} is taken by "
                            f"{tower_name(pos.board[sq], pos.seats)}", "A3")
    if not pos.hand[owner][kind]:
        gone = owner * 9 + kind in pos.off
        raise IllegalAction(text, f"{whose}:{KINDS[kind]} is "
                            f"{'out of the game' if gone else 'already placed'}",
                            "A11" if gone else "A3")
    return PLACE + sq * 9 + kind


__all__ = ["FILES", "acts_for_zihin", "parse_action", "seat_token", "write_action"]
