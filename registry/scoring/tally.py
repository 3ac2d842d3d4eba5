"""The tally of a game (book 6.5.1.9, rulings R16-R19), derived from a replayed game.

Humans never author tallies (book 6.5.1.9): this module is the only place they are made, from the
engine's history of a game, so a tally is always reproducible from notation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from play.games.talu import TaluGame

# R19: every code is present in every tally, zero-filled, in this order.
CODES: tuple[str, ...] = (
    "A.a", "A.b", "A.c", "A.d", "A.e",
    "B.a", "B.b", "B.c",
    "C.a", "C.b", "C.c",
    "D.d", "D.e", "D.f",
    "E.a", "E.b", "E.c",
    "F.a",
    "G.a", "G.b", "G.c", "G.d",
)  # fmt: skip


CAPTURE_CODES = ("A.a", "A.b", "A.c", "A.d")  # R16: during play
THREAT_CODES = ("B.a", "B.b", "B.c", "A.d")  # R18: on the final board; 4 is a quad-lock A.d


def empty_codes() -> dict[str, int]:
    """A zero-filled code map (R19)."""
    return dict.fromkeys(CODES, 0)


@dataclass
class Tally:
    """Both players' tallies plus the facts the scoring models need besides the codes.

    ``winner`` is "I", "O" or None; ``reason`` is the outcome reason of the engine
    (elimination, invasion, forfeit, null, decision) or None while the game is unfinished.
    A game is *rateable* only when it is decided with a winner (R12: a null game changes no
    rating; an unfinished game has no result).
    """

    codes: dict[str, dict[str, int]] = field(
        default_factory=lambda: {"I": empty_codes(), "O": empty_codes()}
    )
    captures: dict[str, int] = field(default_factory=lambda: {"I": 0, "O": 0})
    rounds: int = 0
    winner: str | None = None
    reason: str | None = None

    @property
    def rateable(self) -> bool:
        return self.winner is not None


def _lock_code(stride: int, adjacent: list[int], codes: tuple[str, str, str, str]) -> str | None:
    """The code for n pieces around a square (R16, R18): codes = (2 perpendicular, 2 opposite,
    3, 4); two neighbours are opposite when they differ by two files or two ranks."""
    n = len(adjacent)
    if n == 2:
        a, b = adjacent
        return codes[1] if abs(a - b) in (2, 2 * stride) else codes[0]
    return codes[2] if n == 3 else codes[3] if n >= 4 else None


def tally_game(game: TaluGame) -> Tally:
    """Derive both tallies from a replayed game (R16-R19); unfinished games use the board now."""
    from play.games.talu import Side, Termination  # local: keeps this module importable alone

    g = game.geometry
    stride = g.stride
    nb = g.neighbours
    tally = Tally(rounds=game.rounds_played)
    codes = tally.codes

    def bits_list(bits: int) -> list[int]:
        out = []
        while bits:
            low = bits & -bits
            out.append(low.bit_length() - 1)
            bits ^= low
        return out

    for rec in game.turns:
        s = rec.side.index
        mine = codes[rec.side.value]
        goal = g.goal_row(s)
        for target, attackers in rec.captures:  # R16, during play
            code = _lock_code(stride, bits_list(attackers), CAPTURE_CODES)
            if code:
                mine[code] += 1
            if (goal >> target) & 1:
                mine["A.e"] += 1
        tally.captures[rec.side.value] += len(rec.captures)
        me_after, op_after = rec.after[s], rec.after[1 - s]
        for inv in bits_list(me_after & goal):  # R17, when an invading turn ends
            k = (nb[inv] & op_after).bit_count()
            mine["C.a" if k >= 2 else "C.b" if k == 1 else "C.c"] += 1

    final = game.bits  # the board now: final once decided, current while unfinished (R18)
    for side in (Side.I, Side.O):  # R18, on the final (or current) board
        s = side.index
        mine = codes[side.value]
        me, op = final[s], final[1 - s]
        for piece in bits_list(op):
            code = _lock_code(stride, bits_list(nb[piece] & me), THREAT_CODES)
            if code:
                mine[code] += 1
        last = g.ranks - 1
        for piece in bits_list(me):
            m = (nb[piece] & me).bit_count()
            if m >= 2:
                mine[{2: "E.a", 3: "E.b"}.get(m, "E.c")] += 1
            r = g.rank_of(piece)
            d = (last - r) if s == 0 else r
            on_their_half = (r >= g.ranks / 2) if s == 0 else (r < g.ranks / 2)
            if on_their_half and d in (1, 2, 3):
                mine[{1: "D.f", 2: "D.e", 3: "D.d"}[d]] += 1
        mine["F.a"] = tally.rounds

    o = game.outcome
    if o is not None:
        tally.winner = o.winner.value if o.winner else None
        tally.reason = o.reason.value
        success = None
        if o.reason is Termination.ELIMINATION:
            success = "G.d"
        elif o.reason is Termination.INVASION and o.winner is not None:
            w = o.winner.index
            me, op = final[w], final[1 - w]
            invaders = bits_list(me & g.goal_row(w))
            if invaders:
                fewest = min((nb[p] & op).bit_count() for p in invaders)
                success = "G.a" if fewest >= 3 else "G.c" if fewest == 0 else "G.b"
        if success:
            codes["I"][success] += 1
            codes["O"][success] += 1
    return tally
