"""The tafl board's geometry (T1, T3, T5): squares, their OTN names, the rays a rook move
walks, the opening position computed from the board's side, and Tablut's throne and camps.

A board of side n is a flat array of n * n squares, index ``rank * n + file`` with rank 0 the
bottom rank (OTN's rank 1) and file 0 the left file (``a``). Everything a move needs per
square (its rays, its neighbours, its capture partners) is computed once per geometry and
shared by every position of that size: the hot path only indexes tuples.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

EMPTY, ATTACKER, DEFENDER, KING = 0, 1, 2, 3
#: The sides as the site names them (T2), and their index in a position.
ATTACKERS, DEFENDERS = 0, 1
SIDE_NAMES = ("attackers", "defenders")
#: the side of each piece value (EMPTY has none).
OWNER = (-1, ATTACKERS, DEFENDERS, DEFENDERS)
#: OTN's letters (T12): t an attacker, T a defender, K the king.
LETTERS = {ATTACKER: "t", DEFENDER: "T", KING: "K"}
PIECES = {v: k for k, v in LETTERS.items()}
SIZES = (7, 9, 11, 13, 15, 17, 19)
FILES = "abcdefghijklmnopqrs"
_SQUARE = re.compile(r"^([a-s])([1-9][0-9]?)$")


def side_of(piece: int) -> int:
    """The side a piece plays for (the king is a defender, T2/T6)."""
    return ATTACKERS if piece == ATTACKER else DEFENDERS


@dataclass(frozen=True)
class Geometry:
    """Everything fixed about a board of side ``n`` (odd, 7..19), Tablut's special squares
    when ``tablut`` (T5)."""

    n: int
    tablut: bool = False
    names: tuple[str, ...] = field(init=False)
    #: per square: its four rays (up, down, left, right), each the squares outwards in order.
    rays: tuple[tuple[tuple[int, ...], ...], ...] = field(init=False)
    #: per square: its orthogonal neighbours.
    adjacent: tuple[tuple[int, ...], ...] = field(init=False)
    #: per square: (neighbour, the square beyond it on the same line) pairs, for T6.
    pairs: tuple[tuple[tuple[int, int], ...], ...] = field(init=False)
    #: per square: its two neighbours on the rank, then on the file, where both exist (T6).
    axes: tuple[tuple[tuple[int, int], ...], ...] = field(init=False)
    edge: bytes = field(init=False)
    centre: int = field(init=False)
    #: Tablut's throne (T5), -1 in tafl.
    throne: int = field(init=False)
    #: per square: the camp it belongs to (1-4), 0 for none; all 0 in tafl (T5).
    camp: bytes = field(init=False)

    def __post_init__(self) -> None:
        n = self.n
        if n not in SIZES:
            raise ValueError(f"a tafl board is 7x7 to 19x19 with an odd side, not {n}x{n}")
        s = object.__setattr__
        s(self, "names", tuple(f"{FILES[i % n]}{i // n + 1}" for i in range(n * n)))
        rays, adjacent, pairs = [], [], []
        steps = ((1, 0), (-1, 0), (0, -1), (0, 1))  # (rank, file): up, down, left, right
        for sq in range(n * n):
            r, f = divmod(sq, n)
            mine = []
            for dr, df in steps:
                ray = []
                rr, ff = r + dr, f + df
                while 0 <= rr < n and 0 <= ff < n:
                    ray.append(rr * n + ff)
                    rr, ff = rr + dr, ff + df
                mine.append(tuple(ray))
            rays.append(tuple(mine))
            adjacent.append(tuple(ray[0] for ray in mine if ray))
            pairs.append(tuple((ray[0], ray[1] if len(ray) > 1 else -1) for ray in mine if ray))
        s(self, "rays", tuple(rays))
        s(self, "adjacent", tuple(adjacent))
        s(self, "pairs", tuple(pairs))
        s(self, "axes", tuple(
            tuple((a[0], b[0]) for a, b in ((mine[0], mine[1]), (mine[2], mine[3])) if a and b)
            for mine in rays))
        s(self, "edge", bytes(1 if (i // n) in (0, n - 1) or (i % n) in (0, n - 1) else 0
                              for i in range(n * n)))
        centre = (n * n) // 2
        s(self, "centre", centre)
        s(self, "throne", centre if self.tablut else -1)
        camp = bytearray(n * n)
        if self.tablut:
            for i, group in enumerate(attacker_groups(n), start=1):
                for sq in group:
                    camp[sq] = i
        s(self, "camp", bytes(camp))

    def name(self, sq: int) -> str:
        return self.names[sq]

    def square(self, name: str) -> int:
        """The index of the square named ``name`` ("e4"); ``ValueError`` naming it if there
        is no such square on this board."""
        m = _SQUARE.match(name)
        if m is not None:
            f, r = FILES.index(m.group(1)), int(m.group(2)) - 1
            if f < self.n and 0 <= r < self.n:
                return r * self.n + f
        raise ValueError(f"{name!r} is not a square of the {self.n}x{self.n} board "
                         f"(a1 to {FILES[self.n - 1]}{self.n})")

    def file_rank(self, sq: int) -> tuple[int, int]:
        r, f = divmod(sq, self.n)
        return f, r

    def between(self, a: int, b: int) -> tuple[int, ...] | None:
        """The squares strictly between ``a`` and ``b`` on their rank or file, None when they
        share neither (T4: a rook's move)."""
        if a == b:
            return None
        for ray in self.rays[a]:
            if b in ray:
                return ray[:ray.index(b)]
        return None

    def edge_line(self, a: int, b: int) -> bool:
        """Whether both squares lie on one edge line (T9: tafl's escape is a move along it)."""
        n = self.n
        (fa, ra), (fb, rb) = self.file_rank(a), self.file_rank(b)
        return (ra == rb and ra in (0, n - 1)) or (fa == fb and fa in (0, n - 1))


@cache
def geometry(n: int, tablut: bool = False) -> Geometry:
    """The one shared geometry of a board size."""
    return Geometry(n, tablut)


def attacker_groups(n: int) -> list[list[int]]:
    """The attackers' opening squares by edge (T3): on each edge the 2(k - 2) - 1 edge squares
    centred on its middle and the square one step in; in Tablut these are the camps (T5)."""
    k = (n - 1) // 2
    half = k - 2 - 1  # squares each side of the edge's middle
    mid = k
    groups = []
    for (edge_r, edge_f), (dr, df) in (((0, None), (1, 0)), ((None, 0), (0, 1)),
                                         ((None, n - 1), (0, -1)), ((n - 1, None), (-1, 0))):
        squares = []
        for off in range(-half, half + 1):
            r = edge_r if edge_r is not None else mid + off
            f = edge_f if edge_f is not None else mid + off
            squares.append(r * n + f)
        r = (edge_r if edge_r is not None else mid) + dr
        f = (edge_f if edge_f is not None else mid) + df
        squares.append(r * n + f)
        groups.append(squares)
    return groups


def opening(n: int) -> bytearray:
    """The opening position of a board of side ``n`` (T3): the king on the centre, 4(k - 2)
    defenders on the four lines from him, 8(k - 2) attackers on the edges."""
    geo = geometry(n)
    board = bytearray(n * n)
    c = geo.centre
    board[c] = KING
    k = (n - 1) // 2
    for ray in geo.rays[c]:
        for sq in ray[:k - 2]:
            board[sq] = DEFENDER
    for group in attacker_groups(n):
        for sq in group:
            board[sq] = ATTACKER
    return board


def write_position(board: bytes | bytearray, n: int) -> str:
    """An OTN position record (T3): ranks from the top, runs of empty squares as numbers."""
    rows = []
    for r in range(n - 1, -1, -1):
        row, run = [], 0
        for f in range(n):
            p = board[r * n + f]
            if p == EMPTY:
                run += 1
                continue
            if run:
                row.append(str(run))
                run = 0
            row.append(LETTERS[p])
        if run:
            row.append(str(run))
        rows.append("".join(row))
    return "/" + "/".join(rows) + "/"


def parse_position(text: str) -> tuple[bytearray, int]:
    """The board and its side of an OTN position record such as
    ``/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/`` (for tests and lessons); ``ValueError`` saying
    what is wrong."""
    rows = text.strip().strip("/").split("/")
    n = len(rows)
    if n not in SIZES:
        raise ValueError(f"a position has 7 to 19 ranks (an odd number), not {n}")
    board = bytearray(n * n)
    kings = 0
    for i, row in enumerate(rows):
        r = n - 1 - i
        f = 0
        for token in re.findall(r"\d+|.", row):
            if token.isdigit():
                f += int(token)
                continue
            if token not in PIECES:
                raise ValueError(f"rank {r + 1}: {token!r} is not a piece (t, T or K)")
            if f >= n:
                break
            board[r * n + f] = PIECES[token]
            kings += token == "K"
            f += 1
        if f != n:
            raise ValueError(f"rank {r + 1} has {f} squares, not {n}")
    if kings > 1:
        raise ValueError("a position has at most one king")
    return board, n
