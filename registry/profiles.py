"""A player's profile figures: book 6.6 / R27 / R29 metrics and progress toward promotion.

Read from the cascade's view of the player (``registry.ledger.state_of``) with the player's own
aNPc setting (R27) and the 20-75-75 rule (R26). Kept out of the model so that the models import
nothing of the ledger, which imports them (``tests/test_import_cycles.py``).
"""

from __future__ import annotations

from typing import Any

from registry.ledger import state_of
from registry.models import Player
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
