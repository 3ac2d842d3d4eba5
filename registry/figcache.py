"""Each game's rating-independent figures (``registry.scoring.figures.GameFigures``), stored
as JSON with the game so a recompute (R30) neither replays notation nor recomputes them.

``figures_from_tally`` costs about 50 microseconds a game (exact fractions), most of a
100,000-game recompute; reading them back is a few dataclass constructions. The stored form is
versioned: a game whose figures are missing or of another version is computed from its tally
again (and the ledger stores the fresh figures), so a change to the scoring core is picked up by
bumping :data:`VERSION`.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

from registry.scoring.categories import CategoryCounts, S3Points
from registry.scoring.figures import GameFigures, SideFigures, figures_from_tally
from registry.scoring.tally import Tally, empty_codes

VERSION = 2


def tally_to_json(tally: Tally) -> dict[str, Any]:
    """A tally as stored in ``RegistryGame.tally`` (:func:`tally_from_json` rebuilds the same
    ``Tally``)."""
    return {"codes": {s: dict(tally.codes[s]) for s in ("I", "O")},
            "captures": dict(tally.captures), "rounds": tally.rounds,
            "winner": tally.winner, "reason": tally.reason}


def tally_from_json(data: dict[str, Any]) -> Tally:
    codes = {s: {**empty_codes(), **data.get("codes", {}).get(s, {})} for s in ("I", "O")}
    return Tally(codes=codes, captures=dict(data.get("captures") or {"I": 0, "O": 0}),
                 rounds=int(data.get("rounds", 0)), winner=data.get("winner"),
                 reason=data.get("reason"))


def cats(c: CategoryCounts) -> list[int]:
    return [c.capture, c.invasion, c.intrusion, c.defense, c.threat]


@functools.lru_cache(maxsize=65536)
def _counts(values: tuple[int, ...]) -> CategoryCounts:
    """Immutable, so equal counts are shared (they repeat a lot: small numbers)."""
    return CategoryCounts(*values)


@functools.lru_cache(maxsize=65536)
def _points(values: tuple[int, ...]) -> S3Points:
    return S3Points(*values)


def _fraction(numerator: int, denominator: int) -> Fraction:
    """A Fraction from a stored, already normalised pair (``to_json`` wrote it from a
    Fraction), without the gcd that ``Fraction(n, d)`` would compute again: a recompute
    builds 100,000 of them."""
    f = object.__new__(Fraction)
    f._numerator, f._denominator = numerator, denominator
    return f


# One flat list (fast to decode): version, winner, reason, rounds, k, then per side I, O:
# 5 counts, 5 S3 points, S1 points, Pc numerator, Pc denominator, NPc.
_SIDE = 14


def to_json(f: GameFigures) -> list[Any]:
    out: list[Any] = [VERSION, f.winner, f.reason, f.rounds, f.success_k]
    for side in ("I", "O"):
        sf = f.sides[side]
        pc = (None, None) if sf.pc is None else (sf.pc.numerator, sf.pc.denominator)
        out += [*cats(sf.counts), *cats(sf.points), sf.s1_points, *pc, sf.npc]
    return out


def from_json(d: list[Any]) -> GameFigures:
    sides = {}
    for n, side in enumerate(("I", "O")):
        v = d[5 + n * _SIDE: 5 + (n + 1) * _SIDE]
        pc = None if v[11] is None else _fraction(v[11], v[12])
        sides[side] = SideFigures(counts=_counts(tuple(v[0:5])), points=_points(tuple(v[5:10])),
                                  s1_points=v[10], pc=pc,
                                  pc_float=None if pc is None else v[11] / v[12], npc=v[13])
    return GameFigures(winner=d[1], reason=d[2], rounds=d[3], success_k=d[4], sides=sides)


def is_current(d: Any) -> bool:
    return isinstance(d, list) and len(d) == 5 + 2 * _SIDE and d[0] == VERSION


def figures_json_of_tally(tally_json: dict[str, Any]) -> list[Any]:
    return to_json(figures_from_tally(tally_from_json(tally_json)))
