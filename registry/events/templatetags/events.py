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
    from registry.events.models import Pairing

    pairing = (Pairing.objects.filter(Q(white__player__user=user) | Q(black__player__user=user),
                                      result="", game__isnull=False, game__status="live",
                                      round__event__status="running")
               .select_related("round__event", "game").order_by("-round__number").first())
    return {"pairing": pairing}
