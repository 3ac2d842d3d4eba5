"""Phase games with chosen coefficients: a side's NPc is set directly, so that with equal
start ratings (Ec = 1) its APc is 2 NPc / (NPc + 1) exactly as the test wants."""

from __future__ import annotations

from registry.scoring.cascade import RatedGame
from registry.scoring.categories import CategoryCounts, S3Points
from registry.scoring.figures import GameFigures, SideFigures


def npc_for_apc(apc: float, ec: float = 1.0) -> float:
    """The NPc that gives ``apc`` against ``ec`` (APc = 2N/(N+E)  <=>  N = E a / (2 - a))."""
    return ec * apc / (2 - apc)


def figures(winner: str | None, npc_i: float | None, npc_o: float | None,
            reason: str = "invasion") -> GameFigures:
    def side(npc: float | None) -> SideFigures:
        return SideFigures(CategoryCounts(), S3Points(), 0, None, None, npc)

    return GameFigures(winner, reason if winner else "null", 30, 1,
                       {"I": side(npc_i), "O": side(npc_o)})


def game(gid: str, i: str, o: str, winner: str | None = "I", apc_i: float = 1.2,
         apc_o: float = 0.9, ec_i: float = 1.0, ec_o: float = 1.0,
         reason: str = "invasion") -> RatedGame:
    """A decided game whose sides reach ``apc_i`` / ``apc_o`` against Ec ``ec_i`` / ``ec_o``."""
    if winner is None:
        return RatedGame(gid, i, o, figures(None, None, None))
    return RatedGame(gid, i, o, figures(winner, npc_for_apc(apc_i, ec_i),
                                        npc_for_apc(apc_o, ec_o), reason), "S3")
