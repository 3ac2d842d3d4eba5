"""Closing an account (issue 39): the login goes, the player stays.

The account row stays (so its username is never taken again by someone else: a name is
unique) but can no longer sign in (inactive, no usable password: every session it had ends,
as a changed password ends them); its address goes, so nothing is mailed to it; queued mail
to it is dropped; its open challenges, and those naming it, are cancelled (nobody could play
them). The registered player, their games and their signed records stay, as the
registry must keep them (R31-R35); the profile says the account is closed."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from play.models import Challenge
from registry.accounts.models import AccountSettings, QueuedMail


def close(user) -> None:
    with transaction.atomic():
        settings = AccountSettings.of(user)
        settings.closed_at = timezone.now()
        settings.pending_email = ""
        settings.save(update_fields=["closed_at", "pending_email"])
        user.is_active = False
        user.email = ""
        user.set_unusable_password()
        # the save's signal takes the account out of its quick-pairing pool
        # (play.lobby.deactivation)
        user.save()
        QueuedMail.objects.filter(user=user, status=QueuedMail.QUEUED).update(
            status=QueuedMail.FAILED, last_error="account closed")
        Challenge.objects.filter(Q(creator=user) | Q(opponent=user),
                                 status=Challenge.OPEN).update(status=Challenge.CANCELLED)


def is_closed(user) -> bool:
    return AccountSettings.objects.filter(user=user, closed_at__isnull=False).exists()
