"""The demo players' standings (issue 39, finding 8), a hook of ``manage.py demo_data``
(``play.demo_hooks``): one player in every stratum, carried over as a registered player's
starting standing (R26: ``start_stratum``/``start_rating``, what ``register_player --stratum``
gives an over-the-board player), so the ledger recomputes them as it would any carried-over
player, and a newcomer logged in as carol sees what an S3 player sees (PSF hints, R27/R47).
Alice and bob, who play the sample game, stay new S1 players (R26's start)."""

from __future__ import annotations

from typing import Any

from registry import services
from registry.models import Player

#: demo name -> (stratum, starting rating): carol S3 (gamma), dave S2
STANDINGS = {"carol": (3, 1400), "dave": (2, 700)}


def standings(users: dict[str, Any]) -> None:
    """Each demo player's starting standing, once: a player who has played keeps theirs."""
    for name, (stratum, rating) in STANDINGS.items():
        user = users.get(name)
        if user is None:
            continue
        player = services.player_of(user)
        if player.games or player.start_stratum != 1:
            continue  # played already, or set before: idempotent
        Player.objects.filter(pk=player.pk).update(stratum=stratum, rating=rating,
                                                   start_stratum=stratum, start_rating=rating)
