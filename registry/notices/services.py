"""``notify``: the one way a notice reaches a player, on the site and by mail, each as they
chose (``registry.accounts.prefs.wants``); and the reads of the bell and the page.

On the site the notice is stored, then (after the caller's transaction commits: a rolled-back
action tells nobody) pushed to the player's lobby sockets (``play.live.lobby.
announce_notification``, every process) with their unread count; the bell's slow poll is the
fallback of a lost push. By mail it goes through the accounts' queue (``notify.mail_notice``:
the unsubscribe link, the retries), the same words and link unless the caller gives a mail of
its own (the correspondence and round notices keep theirs).
"""

from __future__ import annotations

import logging
from typing import Any, NamedTuple

from asgiref.sync import async_to_sync
from django.conf import settings
from django.db import transaction

from registry.accounts import prefs
from registry.accounts.notify import mail_notice
from registry.notices.models import Notification

log = logging.getLogger(__name__)

TEXT_MAX = Notification._meta.get_field("text").max_length


class Delivered(NamedTuple):
    notice: Notification | None  # stored on the site, if the player gets this kind there
    mailed: bool  # queued as mail, if they get it by email (and have a verified address)


def notify(user: Any, kind: str, text: str, url: str, *, subject: str = "",
           body: str = "") -> Delivered:
    """Tell ``user`` ``text`` (a notice of ``kind``, ``prefs.KINDS``) leading to ``url`` (a
    path of this site): stored and pushed when they get ``kind`` on the site, queued as mail
    (``subject`` and ``body``, else the text and the link) when they get it by email. An
    unknown kind or a url that is not a path of this site is a programming error."""
    if not url.startswith("/") or url.startswith("//"):
        raise ValueError(f"a notice leads to a path of this site, not {url!r}")
    text = " ".join(text.split())
    if len(text) > TEXT_MAX:
        text = text[:TEXT_MAX - 3] + "..."
    notice = None
    if prefs.wants(user, kind, prefs.SITE):
        notice = Notification.objects.create(user=user, kind=kind, text=text, url=url)
        user_id = user.pk
        transaction.on_commit(lambda: push(user_id))
    link = settings.TALU_SITE_URL.rstrip("/") + url
    mailed = mail_notice(user, kind, subject or f"talu: {text}",
                         body or f"{text}\n\n{link}\n")
    return Delivered(notice, mailed)


def unread(user: Any) -> int:
    return Notification.objects.filter(user=user, read=False).count()


def push(user_id: int) -> None:
    """Send ``user_id``'s lobby and game sockets their unread count and newest unread notice
    (the bell's, on the page that holds them). Never
    raises: the channel layer away (or a caller on an event loop's own thread) costs the bell
    a minute, until its poll."""
    from play.live import delivery, lobby

    newest = Notification.objects.filter(user_id=user_id, read=False).first()
    count = Notification.objects.filter(user_id=user_id, read=False).count()
    try:
        text, url = (newest.text, newest.url) if newest else ("", "")
        async_to_sync(lobby.announce_notification)(user_id, count, text, url)
        async_to_sync(delivery.announce_notice)(user_id, count, text, url)
    except Exception as exc:
        log.warning("notice for account %s not pushed (%s)", user_id, exc)


def mark_read(user: Any, ids: list[int] | None = None) -> int:
    """Mark ``user``'s notices ``ids`` (all when None) read; how many changed."""
    rows = Notification.objects.filter(user=user, read=False)
    if ids is not None:
        rows = rows.filter(pk__in=ids)
    return rows.update(read=True)
