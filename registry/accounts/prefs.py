"""The notices a player may get and where, and the one question every sender asks:
``wants(user, kind, channel)``.

A notice has a kind (below) and goes by a channel: ``"email"`` (the mail queue,
``registry.accounts.mailqueue``) or ``"site"`` (the notifications page and the bell, to be
built: they ask the same function). A player's choices live on their settings
(``AccountSettings.notices``, ``{kind: {channel: bool}}``); a kind or channel they never
chose has the default below, so a kind added later needs no migration.
"""

from __future__ import annotations

from typing import Any

EMAIL, SITE = "email", "site"
CHANNELS = (EMAIL, SITE)

#: kind -> (words on the settings page, default by email, default on the site). The mails
#: the site sent before settings existed (your turn, a round started) stay on by default.
KINDS: dict[str, tuple[str, bool, bool]] = {
    "turn": ("Your turn in a correspondence game (and a day before its deadline)", True, True),
    "challenge": ("A challenge to you", False, True),
    "round": ("A round of your event has started", True, True),
    "decision": ("An arbiter's decision on your game", True, True),
    "club": ("A reply to your club application", True, True),
}


def default(kind: str, channel: str) -> bool:
    _, by_email, on_site = KINDS[kind]
    return by_email if channel == EMAIL else on_site


def chosen(notices: dict[str, Any], kind: str, channel: str) -> bool:
    """The choice stored in ``notices`` for ``kind`` by ``channel``, else the default."""
    value = (notices.get(kind) or {}).get(channel)
    return default(kind, channel) if value is None else bool(value)


def wants(user: Any, kind: str, channel: str) -> bool:
    """Whether ``user`` gets a notice of ``kind`` by ``channel``.

    Never for a closed or deactivated account, nor by email without a verified address (the
    account's ``email`` holds only a verified one; a new address waits in
    ``AccountSettings.pending_email`` until its link is followed). An unknown kind or channel
    is a programming error (``KeyError``), not a silent no."""
    from registry.accounts.models import AccountSettings

    if channel not in CHANNELS:
        raise KeyError(channel)
    if kind not in KINDS:
        raise KeyError(kind)
    if user is None or not getattr(user, "pk", None) or not user.is_active:
        return False
    if channel == EMAIL and not user.email:
        return False
    settings = AccountSettings.peek(user)
    if settings.closed_at is not None:
        return False
    return chosen(settings.notices, kind, channel)
