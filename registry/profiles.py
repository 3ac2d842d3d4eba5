"""A player's profile figures: book 6.6 / R27 / R29 metrics and progress toward promotion.

Read from the cascade's view of the player (``registry.ledger.state_of``) with the player's own
aNPc setting (R27) and the 20-75-75 rule (R26). Kept out of the model so that the models import
nothing of the ledger, which imports them (``tests/test_import_cycles.py``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from registry.ledger import state_of
from registry.models import PhaseRatingChange, Player
from registry.scoring import strata
from registry.scoring.psf import performance_safety_floor


def profile_of(player: Player) -> dict[str, Any]:
    """Book 6.6 / R27 / R29 metrics plus progress toward promotion (R26 20-75-75)."""
    out = state_of(player).profile()
    if player.anpc is not None and player.stratum == strata.TOP_STRATUM:
        out["anpc"] = player.anpc
        out["anpc_set_by_player"] = True
        out["psf"] = performance_safety_floor(player.rating, player.anpc)
    out["promotion"] = strata.promotion_progress(player.stratum, player.stratum_games,
                                                 player.stratum_wins, player.rating)
    return out


def rating_points(player: Player, phases: list[PhaseRatingChange]) -> list[int]:
    """The player's rating history, for the profile's chart (``rating_history``'s ratings)."""
    return [v for _, v in rating_history(player, phases)]


def rating_history(player: Player, phases: list[PhaseRatingChange]
                   ) -> list[tuple[datetime | None, int]]:
    """The player's rating history with the time of each point, for the profile's chart: the
    rating before their first rating change (dated as that change), then after each in the
    R30 list's order, a closed rating phase one step at its close (R45; ``phases`` are the
    player's phase rating changes, already read). A player with no rating change yet has one
    point, their rating, undated."""
    dated = list(player.rating_changes.order_by("played_at", "game_id")
                 .values_list("played_at", "old_rating", "rating_after"))
    history = [(at, old, after) for at, old, after in dated]
    if phases:
        history = [(at, old, after) for at, _, old, after in sorted(
            [(at, 0, old, after) for at, old, after in dated]
            + [(c.played_at, 1, c.old_rating, c.rating_after) for c in phases])]
    if not history:
        return [(None, player.rating)]
    return [(history[0][0], history[0][1])] + [(at, after) for at, _, after in history]
