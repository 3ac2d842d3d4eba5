"""An event's revision: bumped by every change the standings show, the key of their cache."""

from __future__ import annotations

from django.db.models import F

from registry.events.models import Event


def touch(event_id: int) -> None:
    Event.objects.filter(pk=event_id).update(revision=F("revision") + 1)
