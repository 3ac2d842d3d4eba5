"""``{% hettlandic_honours player %}``: on a profile, the player's Hettlandic titles (Talu
Co-Champion, R44) and phase-2 awards (R46), newest first; a decliner keeps the title."""

from __future__ import annotations

from django import template

register = template.Library()


@register.inclusion_tag("events/_honours.html")
def hettlandic_honours(player):
    from registry.events.hettlandic_medals import honours

    return {"honours": honours(player)}
