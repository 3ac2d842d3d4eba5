"""A deactivated account leaves the quick-pairing pool at once (issue 41, finding 8: an account
deactivated while waiting was still paired, and its opponent given a game nobody would play).

Deactivating an account saves it (the admin's form, ``user.save()``): the save's signal takes
it out of its pool and, after the commit, tells every lobby page (the pool's count changed).
A deactivation that sends no signal (a bulk ``update``) is caught by the waves, which take out
whoever may no longer wait before they pair (``pool.take_out_unpairable``) and check again at
each pair's flip, so a deactivated account is never paired either way.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from play.live import lobby as lobby_live
from play.lobby import pool, tables

log = logging.getLogger(__name__)


def _tell_lobby() -> None:
    try:
        async_to_sync(lobby_live.notify)()
    except Exception as err:  # a lost message costs the pages' safety refresh, no more
        log.warning("a deactivated account left its pool; the lobby was not told (%s)", err)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="talu-pool-deactivated")
def leave_pool_when_deactivated(sender, instance, created, raw=False, **kwargs) -> None:
    if raw or created or instance.is_active:
        return
    left = pool.take_out(instance)
    left = tables.take_out(instance) or left  # issue 37: its tables and the pool for three
    if left:
        transaction.on_commit(_tell_lobby)
