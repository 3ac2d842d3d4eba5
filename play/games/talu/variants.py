"""Variants as parameters (R3, book 7.2.1) and the board geometry each one implies.

Squares are bits of a Python int. Each rank is ``files + 1`` bits wide: the spare bit is a guard
column, so shifting a set of squares one file east or west can never wrap onto the next rank once
the result is masked with ``all``. That makes ranges, overlaps and threats a handful of shifts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from .errors import SquareError, UnknownVariantError


@dataclass(frozen=True)
class Variant:
    """The parameter set of a talu variant (R3). New variants of book ch. 7 are new rows."""

    name: str
    files: int
    ranks: int
    pieces: int
    steps: int
    attack_cost: int
    max_chain: int | None = None  # captures per chain; None = limited only by steps (R7)

    @cached_property
    def geometry(self) -> Geometry:
        return Geometry(self.files, self.ranks)


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("standard", 8, 8, 12, 4, 2),
        Variant("grand-master", 12, 12, 18, 6, 3),
        Variant("dynamic", 8, 8, 12, 6, 2, max_chain=3),
    )
}


def get_variant(name: str | Variant) -> Variant:
    if isinstance(name, Variant):
        return name
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise UnknownVariantError(f"unknown variant {name!r} (known: {known})") from None


def popcount(bits: int) -> int:
    return bits.bit_count()


@dataclass(frozen=True)
class Geometry:
    """Square names, masks and neighbour tables of one board size (R1)."""

    files: int
    ranks: int
    stride: int = field(init=False)
    all: int = field(init=False)
    names: tuple[str | None, ...] = field(init=False, repr=False)
    index: dict[str, int] = field(init=False, repr=False)
    neighbours: tuple[int, ...] = field(init=False, repr=False)
    rank_masks: tuple[int, ...] = field(init=False, repr=False)
    light: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        stride = self.files + 1
        names: list[str | None] = [None] * (stride * self.ranks)
        index: dict[str, int] = {}
        every = 0
        light = 0
        rank_masks = []
        for r in range(self.ranks):
            row = 0
            for f in range(self.files):
                i = r * stride + f
                name = f"{chr(65 + f)}{r + 1}"
                names[i] = name
                index[name] = i
                row |= 1 << i
                if (f + r) % 2 == 0:  # R1: light when f + r is even; A1 is light
                    light |= 1 << i
            rank_masks.append(row)
            every |= row
        neighbours = []
        for i in range(len(names)):
            b = 1 << i
            nb = ((b << stride) | (b >> stride) | (b << 1) | (b >> 1)) & every
            neighbours.append(nb if names[i] else 0)
        object.__setattr__(self, "stride", stride)
        object.__setattr__(self, "all", every)
        object.__setattr__(self, "names", tuple(names))
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "neighbours", tuple(neighbours))
        object.__setattr__(self, "rank_masks", tuple(rank_masks))
        object.__setattr__(self, "light", light)

    # --- squares -------------------------------------------------------------------------
    def square(self, name: str) -> int:
        """Index of a square name; accepts lower case (R15). Raises SquareError."""
        key = name.strip().upper() if isinstance(name, str) else name
        try:
            return self.index[key]
        except (KeyError, TypeError):
            last = f"{chr(64 + self.files)}{self.ranks}"
            raise SquareError(f"{name!r} is not a square of this board (A1..{last})") from None

    def name(self, i: int) -> str:
        return self.names[i]  # type: ignore[return-value]

    def squares(self, bits: int) -> list[str]:
        """Names of the squares in a bit set, in index order (rank by rank from A1), read a
        byte of the set at a time (``_by_byte``)."""
        out: list[str] = []
        table = self._by_byte
        k = 0
        while bits:
            if bits & 255:
                out.extend(table[k][bits & 255])
            bits >>= 8
            k += 1
        return out

    @cached_property
    def _by_byte(self) -> tuple[tuple[tuple[str, ...], ...], ...]:
        """For each byte of a bit set, the names of the squares of each of its 256 values.
        Every step's snapshot names about ten sets (the board, the overlaps, the threatened
        and defended pieces): a byte at a time takes a third of the time of a bit at a time,
        and the server builds a snapshot at every step (issue 36's load benchmark). Made at
        the first use, once per board size."""
        names = self.names
        return tuple(
            tuple(tuple(n for j in range(8)
                        if value >> j & 1 and 8 * k + j < len(names)
                        and (n := names[8 * k + j]) is not None)
                  for value in range(256))
            for k in range((len(names) + 7) // 8))

    def bits(self, names: list[str] | tuple[str, ...]) -> int:
        b = 0
        for n in names:
            b |= 1 << self.square(n)
        return b

    def rank_of(self, i: int) -> int:
        """0-based rank index."""
        return i // self.stride

    def file_of(self, i: int) -> int:
        return i % self.stride

    # --- sets ----------------------------------------------------------------------------
    def range_of(self, bits: int) -> int:
        """Union of the ranges (orthogonal neighbours) of a set of pieces (R4)."""
        s = self.stride
        return ((bits << s) | (bits >> s) | (bits << 1) | (bits >> 1)) & self.all

    def overlap(self, bits: int) -> int:
        """Squares in the range of at least two of the pieces in ``bits`` (R4)."""
        s = self.stride
        n, so, e, w = bits << s, bits >> s, bits << 1, bits >> 1
        return ((n & so) | (e & w) | ((n | so) & (e | w))) & self.all

    def home_row(self, side: int) -> int:
        """R1: rank 1 is I's home row, rank N is O's. ``side`` 0 = I, 1 = O."""
        return self.rank_masks[0] if side == 0 else self.rank_masks[-1]

    def goal_row(self, side: int) -> int:
        return self.home_row(1 - side)

    def distance_sum(self, bits: int, side: int) -> int:
        """Total distance of a side's pieces to its goal row (used by R14)."""
        total = 0
        last = self.ranks - 1
        for r, mask in enumerate(self.rank_masks):
            c = (bits & mask).bit_count()
            if c:
                total += c * ((last - r) if side == 0 else r)
        return total

    def opening(self) -> tuple[int, int]:
        """R2: each side fills its second row and puts the rest on its colour of its home row."""
        rm = self.rank_masks
        light_pieces = rm[1] | (rm[0] & self.light)
        dark_pieces = rm[-2] | (rm[-1] & ~self.light & self.all)
        return light_pieces, dark_pieces
