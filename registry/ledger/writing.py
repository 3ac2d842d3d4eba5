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
    #: what the listeners of re-rated phases changed beside ratings (e.g. an event's
    #: co-champions, R44), by name: goes into the audit entry of the change that caused it
    followed: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        out = {"games_rerated": self.games_rerated, "players_changed": self.players_changed,
               "rows_written": self.rows_written,
               "ratings": {k: list(v) for k, v in sorted(self.changed.items())}}
        if self.followed:
            out["followed"] = self.followed
        return out


#: Called inside a recompute's transaction with the pks of the closed rating phases it
#: re-rated (R45), in list order; each returns what it changed (for the audit) or nothing.
#: Registered by the apps that derive something from a phase's result (the events app: a
#: Hettlandic event's co-champions, R44), so the ledger imports none of them.
PhaseListener = Callable[[list[int]], dict[str, Any] | None]
_PHASE_LISTENERS: dict[str, PhaseListener] = {}


def on_phases_rerated(name: str, listener: PhaseListener) -> None:
    """Register ``listener`` under ``name`` (registering a name again replaces it)."""
    _PHASE_LISTENERS[name] = listener


def phases_rerated(phases: list[int], summary: Summary) -> None:
    """Tell the listeners which closed phases a recompute re-rated (after its rows are
    written); what they changed goes into ``summary.followed``."""
    if not phases:
        return
    for name, listener in _PHASE_LISTENERS.items():
        got = listener(phases)
        if got:
            summary.followed[name] = got


def hold_lock() -> None:
    """Serialise rating writers (inside the caller's transaction)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_KEY])
