"""Rating phases (Hettlandic phase 1, R45): opening one, and closing it into the R30 list.

An event running the Hettlandic system opens a phase when its first round is paired and marks
its phase-1 games with it (``RegistryGame.phase``); while the phase is open the ledger rates
none of them. When the arbiter closes phase 1, :func:`close_phase` puts the phase's one entry
into the list at that moment, the ledger (the one writer of ratings) rates it and everything
after it, and the close is audited. Annulling a phase game afterwards
(``registry.corrections.annul_game``) recomputes the phase and everything after it.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from registry.ledger import (
    OPENING,
    Summary,
    hold_lock,
    recompute_from,
    seeds_of,
    states_before,
)
from registry.models import AffiliatedBody, AuditEntry, Player, RatingPhase, RegistryGame


class PhaseStateConflict(ValueError):
    """The phase's present state forbids the change (already closed, games still playing)."""


def open_phase(name: str, *, body: AffiliatedBody | None = None,
               opened_at: datetime | None = None) -> RatingPhase:
    """A new open phase; its Ec ratings are the ratings at ``opened_at`` (now by default)."""
    if not name or not name.strip():
        raise ValueError("a rating phase needs a name")
    return RatingPhase.objects.create(name=name.strip(), body=body,
                                      opened_at=opened_at or timezone.now())


def start_ratings(phase: RatingPhase, players: list[Player]) -> dict[int, int]:
    """The players' ratings at the phase's opening (R44 pairing costs, R45 Ec), by player
    pk: what the ledger's cascade reads at the phase's opening, so the pairing, the table and
    the close all use the same numbers."""
    pks = {p.pk for p in players}
    states = states_before((phase.opened_at, OPENING, phase.pk), pks)
    states = {**seeds_of(pks - set(states)), **states}
    return {pk: s.rating for pk, s in states.items()}


def close_phase(phase: RatingPhase, *, reason: str = "", actor_user=None, actor_body=None,
                closed_at: datetime | None = None) -> Summary:
    """R45: close ``phase``; every participant's rating moves once, by their final
    coefficient, in one entry of the R30 list dated ``closed_at`` (now by default)."""
    with transaction.atomic():
        hold_lock()
        phase = RatingPhase.objects.select_for_update().get(pk=phase.pk)
        if phase.status != RatingPhase.OPEN:
            raise PhaseStateConflict("this phase is already closed")
        if phase.games.filter(status=RegistryGame.PLAYING).exists():
            raise PhaseStateConflict("games of this phase are still being played")
        closed_at = closed_at or timezone.now()
        if closed_at < phase.opened_at:
            raise ValueError("a phase cannot close before it opened")
        phase.status = RatingPhase.CLOSED
        phase.closed_at = closed_at
        phase.save(update_fields=["status", "closed_at"])
        summary = recompute_from(None, start_key=(phase.opened_at, OPENING, phase.pk))
        AuditEntry.objects.create(
            action=AuditEntry.PHASE, reason=reason or f"phase {phase.name} closed",
            before={"phase": phase.pk, "status": RatingPhase.OPEN},
            after={"phase": phase.pk, "status": RatingPhase.CLOSED,
                   "closed_at": closed_at.isoformat(), **summary.as_dict()},
            actor_user=actor_user, actor_body=actor_body)
    return summary
