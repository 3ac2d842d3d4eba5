"""Whether an account may chat or play rated games now (issue 39): a moderator's restriction
(``play.models.Restriction``, set by ``registry.moderation``), in words the account can read.

One check for every way into a rated game (a challenge opened or accepted, a rated pool, an
event's entry), so none of them can forget it.
"""

from __future__ import annotations

from datetime import datetime

from play.models import Restriction


class Restricted(ValueError):
    """The account is restricted from what it asked, with the words to show it."""


def in_force(user, kind: str, now: datetime | None = None) -> Restriction | None:
    """The restriction of ``kind`` in force on ``user`` (the one lasting longest), or None."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    found = list(Restriction.objects.filter(Restriction.in_force(now), user_id=user.pk,
                                            kind=kind))
    if not found:
        return None
    return max(found, key=lambda r: (r.until is None, r.until))


def words(restriction: Restriction, what: str, who: str = "you") -> str:
    """"You may not chat until 2026-12-01 10:00 UTC (a moderator's restriction: ...)"."""
    until = ("until a moderator lifts it" if restriction.until is None
             else f"until {restriction.until:%Y-%m-%d %H:%M} UTC")
    return f"{who} may not {what} {until} (a moderator's restriction: {restriction.reason})"


def check_chat(user) -> None:
    """:class:`Restricted` when ``user`` may not chat now."""
    found = in_force(user, Restriction.CHAT)
    if found is not None:
        raise Restricted(words(found, "chat").capitalize())


def rated_refusal(user, who: str = "you") -> str | None:
    """The words refusing ``user`` a rated game now, or None when they may play one
    (``who``: how the words name them, "you" or their name)."""
    found = in_force(user, Restriction.RATED)
    if found is None:
        return None
    text = words(found, "play rated games", who)
    return text[0].upper() + text[1:] + "; casual (unrated) games are open."
