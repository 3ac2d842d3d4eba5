"""Rating-change rows of a phase's close (Hettlandic phase 1, R45): one ``PhaseRatingChange``
per participant, with the figures of each of their phase games, and making the stored rows
equal to the wanted ones.

A phase is rated as one entry of the R30 list at its close, not game by game, so its rows are
of another shape than a game's (``registry.ledger.rows``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from registry import bulk
from registry.ledger.states import snapshot
from registry.models import PhaseRatingChange
from registry.scoring.cascade import PlayerState
from registry.scoring.phase import PhaseChange


def phase_rows_of(change: PhaseChange, phase_pk: int, closed_at: datetime,
                  states: dict[int, PlayerState]) -> list[dict[str, Any]]:
    """The ``PhaseRatingChange`` rows of a phase's close: every phase game's figures."""
    rows = []
    for pid, side in change.sides.items():
        rows.append({
            "player_id": pid, "phase_id": phase_pk, "stratum": side.stratum,
            "start_rating": side.start_rating, "old_rating": side.old,
            "new_rating": side.new, "rating_after": side.rating_after, "games": len(side.games),
            "wins": side.wins, "final_coefficient": side.final_coefficient,
            "victory_score": side.victory_score, "promoted_to": side.promoted_to,
            "played_at": closed_at,
            "figures": {
                "model": "S3",
                "games": [{"game": g.game_id, "side": g.side, "opponent": g.opponent,
                           "own_rating": g.own_rating, "opponent_rating": g.opponent_rating,
                           "won": g.won, "npc": g.npc, "ec": g.ec, "apc": g.apc}
                          for g in side.games],
                "state": snapshot(states[pid]),
            },
        })
    return rows


PHASE_ROW_FIELDS = ("stratum", "start_rating", "old_rating", "new_rating", "rating_after",
                    "games", "wins", "final_coefficient", "victory_score", "promoted_to",
                    "played_at", "figures")


def write_phase_rows(existing_q, new_rows: dict[tuple[int, int], dict[str, Any]]) -> int:
    """Make the stored phase rating changes from the start key on equal ``new_rows`` (a few
    hundred rows per phase: compared here, no temporary table). How many rows were written.
    Inserts are a COPY on PostgreSQL: each row carries its 20 games' figures (a bulk INSERT of
    300 of them spent seconds in the driver's query conversion)."""
    updated, inserted, deleted = bulk.sync_rows_in_python(
        PhaseRatingChange, list(new_rows.values()), ("phase_id", "player_id"),
        PHASE_ROW_FIELDS, existing_q, extra={"created": timezone.now()})
    return updated + inserted + deleted
