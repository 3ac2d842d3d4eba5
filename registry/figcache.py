"""Each game's rating-independent figures (``registry.scoring.figures.GameFigures``), stored
as JSON with the game so a recompute (R30) neither replays notation nor recomputes them.

``figures_from_tally`` costs about 50 microseconds a game (exact fractions), most of a
100,000-game recompute; reading them back is a few dataclass constructions. The stored form is
versioned: a game whose figures are missing or of another version is computed from its tally
again (and the ledger stores the fresh figures), so a change to the scoring core is picked up by
bumping :data:`VERSION`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from registry.scoring.categories import CategoryCounts, S3Points
from registry.scoring.figures import GameFigures, SideFigures, figures_from_tally
from registry.scoring.tally import Tally, empty_codes

VERSION = 1


def tally_from_json(data: dict[str, Any]) -> Tally:
    codes = {s: {**empty_codes(), **data.get("codes", {}).get(s, {})} for s in ("I", "O")}
    return Tally(codes=codes, captures=dict(data.get("captures") or {"I": 0, "O": 0}),
                 rounds=int(data.get("rounds", 0)), winner=data.get("winner"),
                 reason=data.get("reason"))


def _cats(c: CategoryCounts) -> list[int]:
    return [c.capture, c.invasion, c.intrusion, c.defense, c.threat]


def to_json(f: GameFigures) -> dict[str, Any]:
    sides = {}
    for side, sf in f.sides.items():
        sides[side] = {"counts": _cats(sf.counts), "points": _cats(sf.points),
                       "s1": sf.s1_points,
                       "pc": None if sf.pc is None else [sf.pc.numerator, sf.pc.denominator],
                       "npc": sf.npc}
    return {"v": VERSION, "winner": f.winner, "reason": f.reason, "rounds": f.rounds,
            "k": f.success_k, "sides": sides}


def from_json(d: dict[str, Any]) -> GameFigures:
    sides = {}
    for side, sf in d["sides"].items():
        pc = None if sf["pc"] is None else Fraction(*sf["pc"])
        sides[side] = SideFigures(counts=CategoryCounts(*sf["counts"]),
                                  points=S3Points(*sf["points"]), s1_points=sf["s1"], pc=pc,
                                  pc_float=None if pc is None else float(pc), npc=sf["npc"])
    return GameFigures(winner=d["winner"], reason=d["reason"], rounds=d["rounds"],
                       success_k=d["k"], sides=sides)


def is_current(d: Any) -> bool:
    return isinstance(d, dict) and d.get("v") == VERSION


def figures_json_of_tally(tally_json: dict[str, Any]) -> dict[str, Any]:
    return to_json(figures_from_tally(tally_from_json(tally_json)))
