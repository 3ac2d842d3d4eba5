"""Rating-change rows of games: what the cascade's change of one game becomes as two
``RatingChange`` rows (every figure a player needs to check it, R20-R25), and making the stored
rows equal to the wanted ones.

The rows are a cache of the R30 cascade; a recompute writes only the rows that differ, so a
correction far back in the list touches few rows.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import connection
from django.utils import timezone

from registry import bulk, figcache
from registry.ledger.states import snapshot
from registry.ledger.writing import Summary
from registry.models import RatingChange
from registry.scoring import s3
from registry.scoring.cascade import GameChange, PlayerState
from registry.scoring.figures import GameFigures


def _figures_json(figures: GameFigures, change: GameChange, side: str, opponent_start: int,
                  state: PlayerState) -> dict[str, Any]:
    sc = change.sides[side]
    sf = figures.sides[side]
    opp = "O" if side == "I" else "I"
    out: dict[str, Any] = {
        "model": sc.model, "opponent_rating": opponent_start, "rounds": figures.rounds,
        "reason": figures.reason, "coefficient": sc.coefficient, "points": sc.points,
        "s1_points": sf.s1_points, "pc": sf.pc_float, "npc": sf.npc,
        # R20 category counts (capture, invasion, intrusion, defense, threat) of both sides,
        # and R23 S3 category points: the inputs of every model's ratios
        "counts": figcache.cats(sf.counts),
        "opponent_counts": figcache.cats(figures.sides[opp].counts),
    }
    if sc.model == "S3":
        out["s3_points"] = figcache.cats(sf.points)
        out["opponent_s3_points"] = figcache.cats(figures.sides[opp].points)
        # R23, ratings at game start (1 when both are 0: the core's guard, not a division by 0)
        out["ec"] = float(s3.expectation_coefficient(sc.old, opponent_start))
        out["apc"] = sc.coefficient
        out["success_k"] = figures.success_k
    out["state"] = snapshot(state)
    return out


def rows_of(change: GameChange, figures: GameFigures, game_pk: int, played_at: datetime,
            states: dict[int, PlayerState]) -> list[dict[str, Any]]:
    rows = []
    for side, opp in (("I", "O"), ("O", "I")):
        sc = change.sides[side]
        rows.append({
            "player_id": sc.player, "game_id": game_pk, "side": side, "model": sc.model,
            "stratum": sc.stratum, "old_rating": sc.old, "new_rating": sc.new,
            "rating_after": sc.rating_after, "won": figures.winner == side,
            "promoted_to": sc.promoted_to, "played_at": played_at,
            "figures": _figures_json(figures, change, side, change.sides[opp].old,
                                     states[sc.player]),
        })
    return rows


ROW_FIELDS = ("side", "model", "stratum", "old_rating", "new_rating", "rating_after", "won",
              "promoted_to", "played_at", "figures")


def write_rows(existing_q, new_rows: dict[tuple[int, int], dict[str, Any]]) -> Summary:
    """Make the stored rating changes from the start key on equal ``new_rows``: update the
    rows that differ, create the missing ones, delete the ones of games no longer rated.
    PostgreSQL compares them in the database (no row read back)."""
    sync = bulk.sync_rows if connection.vendor == "postgresql" else bulk.sync_rows_in_python
    updated, inserted, deleted = sync(
        RatingChange, list(new_rows.values()), ("game_id", "player_id"), ROW_FIELDS,
        existing_q, extra={"created": timezone.now()})
    return Summary(rows_written=updated + inserted + deleted)
