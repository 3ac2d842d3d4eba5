"""Standings with tie-breaks (FIDE C.07, 2026 rules): R42 for round robins (direct encounter,
wins, Sonneborn-Berger, then the victory score in S3 events), R43 for Swiss (Buchholz cut-1,
Buchholz, direct encounter, wins, then the victory score).

The values come from ``tiebreak-core`` (its ``fide-2026`` ruleset: the Article 16 treatment of
byes, forfeits and withdrawals in Buchholz and Sonneborn-Berger, which is where home-made
tie-breaks go wrong); the order, the direct encounter among a tied group (C.07 6.x) and the
victory score (R28, ours) are here. R42's withdrawal rule (a player who withdrew before half of
their games leaves the standings with all of them) is applied before anything is counted.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from tiebreak_core import GameRecord, PlayerTiebreakData
from tiebreak_core.models import FORFEIT_LOSS, FORFEIT_WIN, PAIRING_BYE, PLAYED, REQUESTED_BYE
from tiebreak_core.strict import rank_standings_strict

from registry.events.pairing.model import DOUBLE_ROUND_ROBIN, ROUND_ROBIN, Cell, Round, Tournament

SWISS_ORDER = ("buchholz_cut1", "buchholz", "direct_encounter", "wins", "victory_score")
ROUND_ROBIN_ORDER = ("direct_encounter", "wins", "sonneborn_berger", "victory_score")
LABELS = {"buchholz_cut1": "BH-C1", "buchholz": "BH", "direct_encounter": "DE",
          "wins": "WIN", "sonneborn_berger": "SB", "victory_score": "VS"}


@dataclass
class Standing:
    key: str
    points: float
    rank: int = 0
    values: dict[str, float] = field(default_factory=dict)


def order(system: str) -> tuple[str, ...]:
    return ROUND_ROBIN_ORDER if system in (ROUND_ROBIN, DOUBLE_ROUND_ROBIN) else SWISS_ORDER


def _kind(cell: Cell) -> str:
    if cell.opponent is None:
        return PAIRING_BYE if cell.code in ("U", "F") else REQUESTED_BYE
    if cell.played:
        return PLAYED
    return FORFEIT_WIN if cell.code == "+" else FORFEIT_LOSS


def without_early_withdrawals(t: Tournament) -> Tournament:
    """R42: in a round robin, a player who withdrew before playing half of their games has all
    their games removed (their opponents' games against them become no game at all)."""
    if t.system not in (ROUND_ROBIN, DOUBLE_ROUND_ROBIN):
        return t
    cells = t.cells()
    per_player = len(t.entrants) - 1
    cycles = 2 if t.system == DOUBLE_ROUND_ROBIN else 1
    gone = {e.key for e in t.entrants if e.withdrawn_after is not None and
            sum(c.played for c in cells[e.key].values()) * 2 < per_player * cycles}
    if not gone:
        return t
    rounds = [Round(r.number, [g for g in r.games if not {g.white, g.black} & gone],
                    [b for b in r.byes if b.player not in gone]) for r in t.rounds]
    return replace(t, entrants=[e for e in t.entrants if e.key not in gone], rounds=rounds)


def _direct_encounter(group: list[str], cells: dict[str, dict[int, Cell]]) -> dict[str, float]:
    """C.07 direct encounter: points scored in the games among the tied players, counted only
    when every pair of them has met (otherwise everyone 0: the criterion does not separate)."""
    points = dict.fromkeys(group, 0.0)
    met = set()
    for key in group:
        for cell in cells[key].values():
            if cell.opponent in points and cell.code is not None:
                points[key] += cell.points
                met.add(frozenset((key, cell.opponent)))
    pairs = len(group) * (len(group) - 1) // 2
    return points if len(met) == pairs else dict.fromkeys(group, 0.0)


def standings(t: Tournament, victory_scores: dict[str, float] | None = None,
              upto: int | None = None) -> list[Standing]:
    """The ranked standings after round ``upto`` (all rounds by default)."""
    t = without_early_withdrawals(t)
    last = len(t.rounds) if upto is None else upto
    t = replace(t, rounds=[r for r in t.rounds if r.number <= last])
    cells = {k: {r: c for r, c in v.items() if c.code is not None}
             for k, v in t.cells().items()}
    ratings = {e.key: e.rating for e in t.entrants}
    index = {e.key: i for i, e in enumerate(sorted(t.entrants, key=lambda e: e.key), 1)}
    data = {}
    for key, rounds in cells.items():
        games = [GameRecord(opponent_id=index[c.opponent] if c.opponent else -1,
                            opponent_rating=max(ratings.get(c.opponent or "", 0), 0),
                            score=c.points, color="black" if c.colour == "b" else "white",
                            round_number=r, kind=_kind(c)) for r, c in sorted(rounds.items())]
        data[index[key]] = PlayerTiebreakData(index[key], max(ratings[key], 0),
                                              sum(c.points for c in rounds.values()), games)
    criteria = order(t.system)
    scalar = [c for c in criteria if c not in ("direct_encounter", "victory_score")]
    mode = "swiss" if criteria is SWISS_ORDER else "round_robin"
    # one call for everyone: the library classifies the rounds once (its ranking path)
    result = rank_standings_strict(data, scalar, total_rounds=max(last, 1),
                                   ruleset="fide-2026", mode=mode)
    computed = {p.player_id: p.values for p in result.players}
    rows = []
    for key in cells:
        values = {c: float(computed.get(index[key], {}).get(c, 0.0)) for c in scalar}
        values["victory_score"] = float((victory_scores or {}).get(key, 0.0))
        rows.append(Standing(key, data[index[key]].points, values=values))
    return _rank(rows, criteria, cells, t.numbers())


def _rank(rows: list[Standing], criteria: tuple[str, ...], cells, numbers) -> list[Standing]:
    """Order by points, then each criterion in turn; direct encounter is computed within the
    group still tied when it comes. Players tied on everything share a rank."""
    def split(group: list[Standing], depth: int) -> list[list[Standing]]:
        if len(group) == 1 or depth == len(criteria):
            return [sorted(group, key=lambda s: numbers[s.key])]
        c = criteria[depth]
        if c == "direct_encounter":
            de = _direct_encounter([s.key for s in group], cells)
            for s in group:
                s.values[c] = de[s.key]
        out: list[list[Standing]] = []
        for value in sorted({s.values[c] for s in group}, reverse=True):
            out += split([s for s in group if s.values[c] == value], depth + 1)
        return out

    ranked: list[Standing] = []
    for points in sorted({s.points for s in rows}, reverse=True):
        for tied in split([s for s in rows if s.points == points], 0):
            rank = len(ranked) + 1
            for s in tied:
                s.rank = rank
                ranked.append(s)
    for s in ranked:
        s.values.setdefault("direct_encounter", 0.0)
    return ranked
