"""``{% event_banner %}``: on every page, the signed-in player's event game that is waiting
for them (an online round has started and their game has no result yet)."""

from __future__ import annotations

from django import template
from django.db.models import Q

register = template.Library()


@register.inclusion_tag("events/_banner.html", takes_context=True)
def event_banner(context):
    request = context.get("request")
    user = getattr(request, "user", None)
    match = getattr(request, "resolver_match", None)
    if user is None or not user.is_authenticated or (match and match.url_name == "game"):
        return {"pairing": None}
    from registry.events.models import Entry, Pairing

    # Two plain queries, not one: most signed-in pages are seen by players with no entry in a
    # running event, and this first query (no OR over two joins) answers them in about a
    # quarter of the one query's CPU, most of which was Django building its SQL (issue 21's
    # signed-in event page, BENCHMARKS.md).
    entries = list(Entry.objects.filter(player__user=user, event__status="running")
                   .values_list("pk", flat=True))
    if not entries:
        return {"pairing": None}
    pairing = (Pairing.objects.filter(Q(white_id__in=entries) | Q(black_id__in=entries),
                                      result="", game__isnull=False, game__status="live")
               .select_related("round__event", "game").order_by("-round__number").first())
    return {"pairing": pairing}


@register.inclusion_tag("events/_game_event.html")
def game_event(game):
    """On a game's page: the event, round and board the game belongs to and its result in the
    event, and whether the game was annulled (R30/R39: it then counts for no rating, and in
    its event as unplayed unless the arbiter sets a result)."""
    from registry.events.models import Pairing
    from registry.events.results import ANNULLED
    from registry.events.views import RESULT_WORDS
    from registry.models import RegistryGame

    # an aborted game (R37) is annulled in the registry as a matter of course: it never
    # started, and its page says "aborted", not "annulled by the arbiter"
    annulled = game.reason != "aborted" and RegistryGame.objects.filter(
        live_id=game.pk, status=RegistryGame.ANNULLED).exists()
    pairing = (Pairing.objects.filter(game_id=game.pk).select_related("round__event")
               .first())
    words = RESULT_WORDS.get(pairing.result, "") if pairing else ""
    return {"annulled": annulled, "pairing": pairing, "words": words,
            "by_annulment": bool(pairing and pairing.decided_by == ANNULLED)}
