"""The Hettlandic part of an event's page (R44-R46): the phase-1 table, the co-champions and
their answers, phase 2 and the awards; the arbiter's "close phase 1" and "start phase 2", and
each co-champion's accept or decline. Forms post to ``hettlandic_act``, which calls one action
of ``registry.events.hettlandic``; a refusal comes back as a message in its words."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_http_methods

from registry.events import hettlandic, hettlandic_medals, services
from registry.events.models import Event
from registry.events.pairing import tiebreaks


def context(request, event: Event) -> dict | None:
    """What the event page shows of a Hettlandic event (or of a phase-2 event: a link back)."""
    if event.system != hettlandic.SYSTEM:
        parent = hettlandic.medal_parent(event)
        return {"parent": parent.event} if parent else None
    s = hettlandic.summary(event)
    mine = next((c for c in s["champions"] if request.user.is_authenticated
                 and c.entry.player and c.entry.player.user_id == request.user.pk), None)
    def rows() -> list[dict]:  # called by the template only when its cached copy is stale
        return [{"row": r, "name": s["names"].get(r.player, r.player),
                 "lines": [{"t": t, "opponent": s["names"].get(t.opponent, t.opponent)}
                           for t in r.lines]} for r in s["rows"]]

    ranking = [{"p": p, "name": s["names"].get(p.key, p.key),
                "values": [p.values.get(c, 0) for c in tiebreaks.SWISS_ORDER]}
               for p in s["ranking"]]
    return {**s, "rows": rows, "mine": mine, "ranking": ranking,
            "labels": [tiebreaks.LABELS[c] for c in tiebreaks.SWISS_ORDER]}


@login_required
@require_http_methods(["POST"])
def act(request, event_id: int):
    event = get_object_or_404(Event, pk=event_id)
    action = request.POST.get("action", "")
    try:
        if action == "close_phase1":
            hettlandic.close_phase_one(request.user, event)
            text = "Phase 1 is closed: ratings moved by the final coefficients (R45)."
        elif action in ("accept", "decline"):
            hettlandic_medals.answer(request.user, event, action == "accept")
            text = ("You accepted phase 2." if action == "accept"
                    else "You declined phase 2; you keep the title.")
        elif action == "phase2":
            medals = hettlandic_medals.start_phase_two(request.user, event,
                                                request.POST.get("force") == "on")
            if medals is not None:
                messages.success(request, "Phase 2 has begun: pair its round 1.")
                return redirect("event", medals.pk)
            text = "Phase 2 is settled."
        else:
            raise services.EventError(f"unknown action {action!r}")
        messages.success(request, text)
    except services.EventError as exc:
        messages.error(request, str(exc))
    return redirect("event", event.pk)
