"""An address verified by a link (issue 39): asked for at sign-up or on the settings page, it
waits in ``AccountSettings.pending_email``; following the mailed link (signed, expiring:
``tokens``) makes it the account's address. Until then the old address, if any, stays the one
mails go to, so a mistyped address never takes an account's mail away."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from registry.accounts import links, mailqueue, tokens
from registry.accounts.models import AccountSettings, QueuedMail

VERIFIED, USED, SUPERSEDED, EXPIRED, INVALID = "verified", "used", "superseded", "expired", \
    "invalid"


SUBJECT = "talu: confirm your email address"
#: Links one account may ask for in an hour: the settings page must not become a way to fill
#: someone else's mailbox.
LINKS_PER_HOUR = 5


def refusal(user) -> str | None:
    """Why ``user`` may not ask for another link now, or None."""
    recent = QueuedMail.objects.filter(user=user, kind="account", subject=SUBJECT,
                                       created_at__gte=timezone.now() - timedelta(hours=1))
    if recent.count() >= LINKS_PER_HOUR:
        return (f"You asked for {LINKS_PER_HOUR} links in the last hour: nothing was sent. "
                f"Open one of them, or ask again in an hour.")
    return None


def ask(user, address: str) -> None:
    """Make ``address`` the one waiting for ``user``'s verification and mail its link."""
    settings = AccountSettings.of(user)
    settings.pending_email = address
    settings.save(update_fields=["pending_email"])
    link = links.absolute("accounts_verify", tokens.verification(user.pk, address))
    days = tokens.VERIFY_MAX_AGE // 86400
    mailqueue.enqueue(
        address, SUBJECT,
        f"Hello {user.username},\n\nTo use this address for your talu account, open this "
        f"link within {days} days:\n\n{link}\n\nIt is used only for the notices you choose "
        f"on your settings page and to reset a forgotten password.\nIf you did not ask for "
        f"this, ignore this mail: nothing changes.\n", kind="account", user=user)


def confirm(token: str) -> tuple[str, object | None]:
    """Follow a verification link: what happened (``VERIFIED``; ``USED``, the address is
    already the account's; ``SUPERSEDED``, another address was asked for since, or the
    account closed; ``EXPIRED``; ``INVALID``) and the account, when the link named one."""
    try:
        claim = tokens.read_verification(token)
    except tokens.Expired:
        return EXPIRED, None
    except tokens.Invalid:
        return INVALID, None
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().filter(pk=claim.user_id).first()
        if user is None:
            return INVALID, None
        settings = AccountSettings.of(user)
        if settings.pending_email.lower() == claim.email.lower() and \
                settings.closed_at is None and user.is_active:
            user.email = settings.pending_email
            user.save(update_fields=["email"])
            settings.pending_email = ""
            settings.save(update_fields=["pending_email"])
            return VERIFIED, user
        if user.email and user.email.lower() == claim.email.lower():
            return USED, user
        return SUPERSEDED, user
