"""The R30 list as the database holds it: which entries are in it, in which order, and the
cascade's view of each.

Ratings are a function of the chronological list of rated games and closed rating phases
(R30, R45). This module is the one place that knows the list's order (keys ``(at, kind, pk)``,
kind :data:`OPENING` < :data:`GAME` < :data:`CLOSING` at the same instant), turns a key into
the queries of what lies before or after it, and reads a stretch of the list as the pure
cascade's entries (``registry.scoring.cascade`` / ``registry.scoring.phase``), so the writers
never repeat the ordering rules.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Q

from registry import figcache
from registry.ledger.writing import BATCH
from registry.models import RatingPhase, RegistryGame
from registry.scoring.cascade import RatedGame
from registry.scoring.figures import GameFigures, figures_from_tally
from registry.scoring.phase import PhaseStart, RatedPhase

DECIDED_Q = Q(status=RegistryGame.FINISHED, rated=True, winner__in=("I", "O"))
#: The games rated one by one in the R30 list: decided, rated, in no rating phase (R45).
RATED_Q = DECIDED_Q & Q(phase__isnull=True)

#: Kinds of entries of the R30 list, in their order at one instant (R45).
OPENING, GAME, CLOSING = -1, 0, 1
Key = tuple[datetime, int, int]  # (at, kind, pk)


def after_q(played_at: datetime, pk: int) -> Q:
    """Strictly after (played_at, pk) in the chronological order (R30)."""
    return Q(played_at__gt=played_at) | Q(played_at=played_at, pk__gt=pk)


def game_key(game: RegistryGame) -> Key:
    return (game.played_at, GAME, game.pk)


def as_key(key: tuple) -> Key:
    """A key as ``(at, kind, pk)``; a ``(played_at, pk)`` pair is a game's."""
    return (key[0], GAME, key[1]) if len(key) == 2 else key  # type: ignore[return-value]


def _games_from_q(key: Key) -> Q:
    """Games at or after ``key``."""
    at, kind, pk = key
    if kind == GAME:
        return Q(played_at__gt=at) | Q(played_at=at, pk__gte=pk)
    return Q(played_at__gte=at) if kind == OPENING else Q(played_at__gt=at)


def _closings_from_q(key: Key) -> Q:
    at, kind, pk = key
    same = Q(closed_at=at, pk__gte=pk) if kind == CLOSING else Q(closed_at=at)
    return Q(status=RatingPhase.CLOSED) & (Q(closed_at__gt=at) | same)


def _openings_from_q(key: Key) -> Q:
    at, kind, pk = key
    same = Q(opened_at=at, pk__gte=pk) if kind == OPENING else Q(pk__in=[])
    return Q(status=RatingPhase.CLOSED) & (Q(opened_at__gt=at) | same)


def rc_before_q(key: Key) -> Q:
    """Rating changes of games before ``key``."""
    at, kind, pk = key
    if kind == GAME:
        return Q(played_at__lt=at) | Q(played_at=at, game_id__lt=pk)
    return Q(played_at__lte=at) if kind == CLOSING else Q(played_at__lt=at)


def prc_before_q(key: Key) -> Q:
    """Phase rating changes of closings before ``key``."""
    at, kind, pk = key
    if kind == CLOSING:
        return Q(played_at__lt=at) | Q(played_at=at, phase_id__lt=pk)
    return Q(played_at__lt=at)


def expand_start(key: Key) -> Key:
    """The earliest key from which a recompute starting at ``key`` must run: a closed phase
    whose close is at or after ``key`` but whose opening is before it is replayed from its
    opening (its Ec ratings are read there, R45)."""
    while True:
        straddling = (RatingPhase.objects.filter(_closings_from_q(key))
                      .exclude(_openings_from_q(key)).order_by("opened_at", "pk")
                      .values_list("opened_at", "pk").first())
        if straddling is None:
            return key
        key = (straddling[0], OPENING, straddling[1])


GAME_COLUMNS = ("pk", "player_i_id", "player_o_id", "scoring_model", "figures", "played_at")


def stale_tallies(rows: list[tuple]) -> dict[int, dict[str, Any]]:
    """The tallies of the games in ``rows`` whose stored figures are missing or stale."""
    pks = [r[0] for r in rows if not figcache.is_current(r[4])]
    out: dict[int, dict[str, Any]] = {}
    for i in range(0, len(pks), BATCH):
        out.update(RegistryGame.objects.filter(pk__in=pks[i:i + BATCH])
                   .values_list("pk", "tally"))
    return out


def cascade_game(row: tuple, tallies: dict[int, dict[str, Any]] | None = None,
                 stale: list[dict[str, Any]] | None = None) -> tuple[RatedGame, GameFigures]:
    """A row of :data:`GAME_COLUMNS` as the cascade's game. Figures that are missing or stale
    are computed from the tally in ``tallies`` and added to ``stale`` (to be stored)."""
    pk, pi, po, model, stored = row[:5]
    if figcache.is_current(stored):
        figures = figcache.from_json(stored)
    else:
        figures = figures_from_tally(figcache.tally_from_json((tallies or {})[pk]))
        if stale is not None:
            stale.append({"pk": pk, "figures": figcache.to_json(figures)})
    return RatedGame(pk, pi, po, figures, model or None), figures


def list_entries(start: Key | None, end: Key | None = None
             ) -> tuple[list[tuple[Key, int, Any]], list[tuple], dict[int, list[tuple]]]:
    """The R30 list from ``start`` (inclusive) to ``end`` (exclusive; None: both open):
    ``(key, kind, row-or-phase)`` in order, the game rows, and the rows of each closing
    phase's games."""
    games = RegistryGame.objects.filter(RATED_Q)
    closings = RatingPhase.objects.filter(status=RatingPhase.CLOSED)
    openings = RatingPhase.objects.filter(status=RatingPhase.CLOSED)
    if start is not None:
        games = games.filter(_games_from_q(start))
        closings = closings.filter(_closings_from_q(start))
        openings = openings.filter(_openings_from_q(start))
    if end is not None:
        games = games.exclude(_games_from_q(end))
        closings = closings.exclude(_closings_from_q(end))
        openings = openings.exclude(_openings_from_q(end))
    rows = list(games.order_by("played_at", "id").values_list(*GAME_COLUMNS))
    closing = list(closings)
    opening = list(openings)
    phase_rows: dict[int, list[tuple]] = {}
    phases = {p.pk for p in closing} | {p.pk for p in opening}
    if phases:
        for row in (RegistryGame.objects.filter(DECIDED_Q, phase__in=phases)
                    .order_by("played_at", "id").values_list(*GAME_COLUMNS, "phase_id")):
            phase_rows.setdefault(row[-1], []).append(row[:-1])
    entries: list[tuple[Key, int, Any]] = [((r[5], GAME, r[0]), GAME, r) for r in rows]
    entries += [((p.opened_at, OPENING, p.pk), OPENING, p) for p in opening]
    entries += [((p.closed_at, CLOSING, p.pk), CLOSING, p) for p in closing]
    entries.sort(key=lambda e: e[0])
    return entries, rows, phase_rows


def participants(rows: list[tuple], phase_rows: dict[int, list[tuple]]) -> set[int]:
    out: set[int] = set()
    for r in rows:
        out.add(r[1])
        out.add(r[2])
    for rs in phase_rows.values():
        for r in rs:
            out.add(r[1])
            out.add(r[2])
    return out


def as_cascade_entry(kind: int, obj: Any, phase_rows: dict[int, list[tuple]],
                     tallies: dict[int, dict[str, Any]],
                     stale: list[dict[str, Any]] | None = None) -> tuple[Any, Any]:
    """One entry of :func:`list_entries` as the pure cascade's (and a game's figures)."""
    if kind == GAME:
        return cascade_game(obj, tallies, stale)
    games = tuple(cascade_game(r, tallies, stale)[0] for r in phase_rows.get(obj.pk, []))
    if kind == OPENING:
        return PhaseStart(obj.pk, RatedPhase(obj.pk, games).players), None
    return RatedPhase(obj.pk, games), None
