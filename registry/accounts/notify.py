"""A notice by email: asked of the player's settings (``prefs.wants``), then queued with its
unsubscribe link (one click, no sign-in: ``views.unsubscribe``) in the body and in the
List-Unsubscribe headers (RFC 2369, RFC 8058's one-click POST).

Play's notices (``play.worker.notices``: your turn; the events' round started) reach this
through ``notices.use_mailer`` (set in ``apps.py``): play imports nothing of the registry.
"""

from __future__ import annotations

from registry.accounts import links, mailqueue, prefs, tokens


def unsubscribe_url(user, kind: str) -> str:
    return links.absolute("accounts_unsubscribe", tokens.unsubscribe(user.pk, kind))


def mail_notice(user, kind: str, subject: str, body: str) -> bool:
    """Queue a notice of ``kind`` (``prefs.KINDS``) for ``user``: whether one was queued
    (not when they chose not to get it by email, have no verified address, or closed
    their account)."""
    if not prefs.wants(user, kind, prefs.EMAIL):
        return False
    stop = unsubscribe_url(user, kind)
    words = prefs.KINDS[kind][0]
    footer = (f"\n\n-- \nYou get this mail because you chose it on talu: \"{words}\".\n"
              f"Stop these mails (one click): {stop}\n"
              f"All your notices: {links.absolute('accounts_settings')}\n")
    mailqueue.enqueue(user.email, subject, body.rstrip("\n") + footer, kind=kind, user=user,
                      headers={"List-Unsubscribe": f"<{stop}>",
                               "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"})
    return True
