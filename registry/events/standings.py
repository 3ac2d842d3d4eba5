"""An event's standings and crosstable, read side: the pure tie-breaks (R42/R43) over the
event's rows, plus the victory score of S3 events (R28) from the ledger's rating changes."""

from __future__ import annotations

from dataclasses import dataclass

from registry.events import state
from registry.events.models import Event, Pairing
from registry.events.pairing import tiebreaks
from registry.events.pairing.model import Tournament
from registry.scoring.victory import victory_score


@dataclass
class Row:
    key: str
    name: str
    rank: int
    points: float
    values: dict[str, float]
    number: int
    withdrawn: bool


def victory_scores(event: Event) -> dict[str, float]:
    if event.scoring_model != "S3":
        return {}
    from registry.models import RatingChange

    apcs: dict[str, list[float]] = {}
    games = Pairing.objects.filter(round__event=event, game__isnull=False).values_list(
        "game_id", flat=True)
    for key, figures in RatingChange.objects.filter(
            game__live_id__in=list(games), model="S3").values_list("player__player_id",
                                                                   "figures"):
        apc = (figures or {}).get("apc")
        if apc:
            apcs.setdefault(key, []).append(float(apc))
    return {k: float(victory_score(v)) for k, v in apcs.items() if v}


def ranked(event: Event, t: Tournament | None = None) -> list[Row]:
    t = t or state.tournament(event)
    numbers = t.numbers()
    entrants = {e.key: e for e in t.entrants}
    rows = []
    for s in tiebreaks.standings(t, victory_scores(event)):
        e = entrants[s.key]
        rows.append(Row(s.key, e.name, s.rank, s.points, s.values, numbers[s.key],
                        e.withdrawn_after is not None))
    return rows


def crosstable(event: Event, t: Tournament | None = None) -> list[dict]:
    """Per player in pairing-number order: each round's opponent number, colour and result."""
    t = t or state.tournament(event)
    numbers = t.numbers()
    cells = t.cells()
    scores = t.scores()
    out = []
    for e in sorted(t.entrants, key=lambda e: numbers[e.key]):
        rounds = []
        for rnd in t.rounds:
            c = cells[e.key].get(rnd.number)
            rounds.append(None if c is None else {
                "opponent": numbers[c.opponent] if c.opponent else None,
                "colour": c.colour, "result": c.code or ""})
        out.append({"number": numbers[e.key], "key": e.key, "name": e.name,
                    "rating": e.rating, "points": scores[e.key], "rounds": rounds})
    return out


def cached(event: Event) -> tuple[list[Row], list[dict]]:
    """The standings and crosstable at the event's revision: computed once per change, so a
    500-player event's page costs a cache read (BENCHMARKS.md)."""
    from django.core.cache import cache

    key = f"talu:event:{event.pk}:{event.revision}:standings"
    found = cache.get(key)
    if found is None:
        t = state.tournament(event)
        found = (ranked(event, t), crosstable(event, t))
        cache.set(key, found, 24 * 3600)
    return found
