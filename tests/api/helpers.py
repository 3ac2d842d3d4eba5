"""Helpers of the API tests: seeded games and records for the read endpoints.

Signed records and rated games come from the registry tests' helpers
(``tests.registry.helpers.records`` / ``add_game``), made with the records core exactly as a
body would make them; this module only adds bulk rows for lists and query counts.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.registry.conftest import PECS, SZEGED
from tests.registry.helpers import add_game, records
from tests.registry.helpers import make_player as _make_player

__all__ = ["BODY_A", "BODY_B", "add_game", "make_player", "records", "seed_games"]

BODY_A = SZEGED
BODY_B = PECS
STGN_TEXT = "[Variant standard]\n1. I: a1-a2 O: h8-h7\n"
YAML_TEXT = "meta:\n  format: STGE\n"


def make_player(name: str, body=None, **fields):
    """A registered player (``body`` positional, as the API tests read best)."""
    return _make_player(name, body=body, **fields)


def seed_games(body, players, n: int, *, start: datetime | None = None,
               records: bool = False) -> list:
    """``n`` finished games between ``players`` (alternating sides), one minute apart, written
    straight to the database (no scoring): data for read endpoints, not for ratings."""
    from registry.models import GameRecord, RegistryGame

    start = start or datetime(2025, 1, 1, tzinfo=UTC)
    games = RegistryGame.objects.bulk_create([
        RegistryGame(
            body=body, variant="standard", rated=True, source="submitted", status="finished",
            player_i=players[k % 2], player_o=players[(k + 1) % 2], winner="I",
            reason="invasion", rounds=26, tally={"I": {"points": 3}}, stgn=STGN_TEXT,
            played_at=start + timedelta(minutes=k))
        for k in range(n)])
    if records:
        GameRecord.objects.bulk_create([
            GameRecord(game=g, kind=kind, session=session, content=text, hash="ab" * 32)
            for g in games
            for kind, session, text in (("STGE", 0, YAML_TEXT), ("STSE", 1, YAML_TEXT),
                                        ("STDGS", 0, YAML_TEXT), ("STGN", 0, STGN_TEXT))])
    return games


def registry_state() -> tuple:
    """Everything a write could change: rows of games, records, rating changes, audit, and
    every player's rating and counts (compare before and after a refused request)."""
    from registry.models import AuditEntry, GameRecord, Player, RatingChange, RegistryGame

    return (RegistryGame.objects.count(), GameRecord.objects.count(),
            RatingChange.objects.count(), AuditEntry.objects.count(),
            sorted(Player.objects.values_list("pk", "rating", "games", "stratum")))
