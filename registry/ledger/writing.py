"""What every writer of ratings shares: the lock that serialises them and the summary they
return.

The ledger has several writers (a game rated at its end, a recompute, an annulment or a
correction, a phase's close); R30 makes ratings a function of one list, so two of them must
never interleave. Each holds :func:`hold_lock` inside its transaction and answers with a
:class:`Summary` the API, the commands and the audit trail show.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import connection

LOCK_KEY = 0x7A1_0006  # pg_advisory_xact_lock key of rating writers
BATCH = 2000
#: Progress callback: called with the number of games just handled (a tqdm's ``update``).
Progress = Callable[[int], Any] | None


@dataclass
class Summary:
    """What a ledger operation did (for the API, the commands and the audit trail)."""

    games_rerated: int = 0
    players_changed: int = 0
    rows_written: int = 0
    changed: dict[str, tuple[int, int]] = field(default_factory=dict)  # player_id: (old, new)

    def as_dict(self) -> dict[str, Any]:
        return {"games_rerated": self.games_rerated, "players_changed": self.players_changed,
                "rows_written": self.rows_written,
                "ratings": {k: list(v) for k, v in sorted(self.changed.items())}}


def hold_lock() -> None:
    """Serialise rating writers (inside the caller's transaction)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_KEY])
