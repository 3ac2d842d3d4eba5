"""A player's event game that is waiting for them now (R41: a round has started): the one
question behind the banner every page shows (``templatetags/events.py`` ``event_banner``) and
the bell's poll that brings it to a page already open (``registry/notices/views.py``), with a
sound where the player asked for one (issue 38, finding 3)."""

from __future__ import annotations

from django.db.models import Q

from registry.events.models import Entry, Event, Pairing


def entries_open(user) -> list[int]:
    """The player's entries in events announced or running (none for most signed-in pages):
    a round of those may start while a page is open."""
    if user is None or not user.is_authenticated:
        return []
    return list(Entry.objects.filter(player__user=user,
                                     event__status__in=(Event.ANNOUNCED, Event.RUNNING))
                .values_list("pk", flat=True))


def live_pairing(entries: list[int]) -> Pairing | None:
    """The newest of these entries' boards whose game is live and has no result yet."""
    if not entries:
        return None
    # Two plain queries, not one: most signed-in pages are seen by players with no entry in a
    # running event, and the entries' query (no OR over two joins) answers them in about a
    # quarter of the one query's CPU, most of which was Django building its SQL (issue 21's
    # signed-in event page, BENCHMARKS.md).
    return (Pairing.objects.filter(Q(white_id__in=entries) | Q(black_id__in=entries),
                                   result="", game__isnull=False, game__status="live")
            .select_related("round__event", "game").order_by("-round__number").first())


def words(pairing: Pairing) -> str:
    """The banner's words (the page adds its link "Play it now")."""
    return f"{pairing.round.event.name}, round {pairing.round.number}: your game has started."
