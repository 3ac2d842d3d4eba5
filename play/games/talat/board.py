"""Talat's geometry (A1, A2, A5): seats, boards, squares, towers, the *beats* relation and the
tables every rule reads, computed once at import so that the rules themselves only index.

A square is an int ``b * 25 + row * 5 + file`` (``b`` the board's index, ``row`` 0-4 for the
rows 1-5, ``file`` 0-4 for a-e): 75 squares in all. Board ``b`` lies between seat ``b`` (its
row 1, forward is up) and seat ``b + 1`` (its row 5, forward is down), seats counted modulo 3,
so every seat plays on boards ``b`` and ``b - 1`` (A1). A tower is an int ``seat * 9 + kind``,
``kind = height * 3 + shape`` (S M L; 3 4 6): a higher kind is a better tower (A8's order).
"""

from __future__ import annotations

FILES = "abcde"
HEIGHTS = "SML"
SHAPES = "346"
KINDS = tuple(h + s for h in HEIGHTS for s in SHAPES)  # S3 S4 S6 M3 ... L6, index = kind
EMPTY = -1
#: The seats of each variant in playing order (A1, A11: ``Z`` is Zihin, nobody's seat).
SEATS = {"three": ("1", "2", "3"), "two": ("1", "2", "Z")}
ZIHIN = 2  # Zihin's seat index in the two-seat game


def board_names(variant: str) -> tuple[str, str, str]:
    """The boards by index: ``12 23 31`` (three seats), ``12 2Z Z1`` (two)."""
    s = SEATS[variant]
    return (s[0] + s[1], s[1] + s[2], s[2] + s[0])


def kind_of(name: str) -> int:
    """``"M6"`` -> its kind; ``ValueError`` in words for anything else (A2)."""
    try:
        return KINDS.index(name)
    except ValueError:
        raise ValueError(f"{name!r} is not a tower: a tower is S, M or L and 3, 4 or 6 "
                         "(S3 ... L6, A2)") from None


def _beats(a: int, b: int) -> bool:
    """A5: one height above, or the same height and more sides, or David (S3) and Goliath
    (L6); nothing else."""
    ha, sa, hb, sb = a // 3, a % 3, b // 3, b % 3
    return ha == hb + 1 or (ha == hb and sa > sb) or (a == 0 and b == 8)


#: BEATS[a * 9 + b]: whether a tower of kind a beats one of kind b (A5).
BEATS = tuple(_beats(a, b) for a in range(9) for b in range(9))


def _cell(row: int, file: int) -> int | None:
    return row * 5 + file if 0 <= row < 5 and 0 <= file < 5 else None


def _ahead(local: int, up: bool) -> tuple[int, ...]:
    """The squares one row forward, straight first, then the diagonals (A4)."""
    row, file = divmod(local, 5)
    r = row + (1 if up else -1)
    return tuple(c for f in (file, file - 1, file + 1) if (c := _cell(r, f)) is not None)


def _beside(local: int) -> tuple[int, ...]:
    row, file = divmod(local, 5)
    return tuple(c for f in (file - 1, file + 1) if (c := _cell(row, f)) is not None)


def _reach(local: int, up: bool) -> set[int]:
    """Every square a tower reaches by forward moves alone, its own included."""
    seen, todo = {local}, [local]
    while todo:
        for nxt in _ahead(todo.pop(), up):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _meet(up: bool) -> tuple[bool, ...]:
    """MEET[a * 25 + v]: whether a capturer on local square ``a`` moving ``up`` (else down)
    and its victim on ``v`` moving the other way can, by forward moves of the two alone,
    reach squares where the capture is allowed (A7). The two never block each other before
    that: a step onto the other's square means it already stands ahead, in reach."""
    out = []
    for a in range(25):
        ra = _reach(a, up)
        for v in range(25):
            rv = _reach(v, not up)
            out.append(any(pv != pa and pv in (*_ahead(pa, up), *_beside(pa))
                           for pa in ra for pv in rv))
    return tuple(out)


MEET_UP, MEET_DOWN = _meet(True), _meet(False)


def _tables() -> tuple[list[list[tuple[int, ...]]], list[list[tuple[int, ...]]],
                       list[list[int]], list[list[int]]]:
    """Per seat and square: the forward squares (A4), the squares it may capture on (A5),
    the seat's far row on that square's board (an opponent's start line, A6; -1 off its
    boards) and the seat's start squares (A3)."""
    fwd: list[list[tuple[int, ...]]] = [[() for _ in range(75)] for _ in range(3)]
    cap: list[list[tuple[int, ...]]] = [[() for _ in range(75)] for _ in range(3)]
    far: list[list[int]] = [[-1] * 75 for _ in range(3)]
    start: list[list[int]] = [[] for _ in range(3)]
    for seat in range(3):
        for b, up in ((seat, True), ((seat - 1) % 3, False)):
            base = b * 25
            for local in range(25):
                sq = base + local
                ahead = tuple(base + c for c in _ahead(local, up))
                fwd[seat][sq] = ahead
                cap[seat][sq] = ahead + tuple(base + c for c in _beside(local))
                far[seat][sq] = 4 if up else 0
            start[seat].extend(base + (0 if up else 20) + f for f in range(5))
    return fwd, cap, far, start


FORWARD, CAPTURE, FAR_ROW, START = _tables()


def board_of(sq: int) -> int:
    return sq // 25


def row_of(sq: int) -> int:
    return sq % 25 // 5


def square_name(sq: int, boards: tuple[str, str, str]) -> str:
    """``23:c4`` (A1)."""
    local = sq % 25
    return f"{boards[sq // 25]}:{FILES[local % 5]}{local // 5 + 1}"


def parse_square(text: str, boards: tuple[str, str, str]) -> int:
    """``"23:c4"`` -> its square; ``ValueError`` in words (A1)."""
    board, _, cell = text.partition(":")
    if board not in boards:
        raise ValueError(f"{text!r}: there is no board {board!r} (the boards are "
                         f"{', '.join(boards)}, A1)")
    if len(cell) != 2 or cell[0] not in FILES or cell[1] not in "12345":
        raise ValueError(f"{text!r}: a square is a file a-e and a row 1-5, like {board}:c4 "
                         "(A1)")
    return boards.index(board) * 25 + (int(cell[1]) - 1) * 5 + FILES.index(cell[0])


def tower_name(tower: int, seats: tuple[str, str, str]) -> str:
    """``2:M6`` (A2)."""
    return f"{seats[tower // 9]}:{KINDS[tower % 9]}"
