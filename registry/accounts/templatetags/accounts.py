"""The account's board preferences on every page (issue 39), as data attributes of <html>:
``data-theme`` (light or dark: static/accounts/theme.css), ``data-sound``,
``data-confirm-moves`` and ``data-overlaps`` ("on"/"off"), which the game page's scripts read
from ``document.documentElement.dataset``. A visitor gets the defaults, with no query."""

from __future__ import annotations

from django import template
from django.utils.html import format_html

from registry.accounts.models import AccountSettings

register = template.Library()

_DEFAULTS = AccountSettings()


def _on(value: bool) -> str:
    return "on" if value else "off"


@register.simple_tag(takes_context=True)
def board_prefs(context) -> str:
    user = getattr(context.get("request"), "user", None) or context.get("user")
    settings = (AccountSettings.peek(user) if user is not None and user.is_authenticated
                else _DEFAULTS)
    return format_html('data-theme="{}" data-sound="{}" data-confirm-moves="{}" '
                       'data-overlaps="{}"', settings.theme, _on(settings.sound),
                       _on(settings.confirm_moves), _on(settings.show_overlaps))


@register.filter
def account_closed(user) -> bool:
    """Whether ``user`` closed their account (the profile says so)."""
    from registry.accounts.closing import is_closed

    return user is not None and not user.is_active and is_closed(user)
