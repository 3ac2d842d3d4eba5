"""The bell in the header of every page (issue 39): the unread count of the signed-in
player's notices (one indexed count), live through ``static/notices/bell.js``."""

from __future__ import annotations

from django import template

from registry.notices import services

register = template.Library()


@register.inclusion_tag("notices/_bell.html", takes_context=True)
def notices_bell(context) -> dict:
    user = getattr(context.get("request"), "user", None) or context.get("user")
    if user is None or not user.is_authenticated:
        return {"show": False}
    return {"show": True, "unread": services.unread(user)}
