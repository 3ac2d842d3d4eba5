"""Correspondence notices (R36): "your turn" when a turn begins, "one day left" a day before
its deadline; at most one of each per turn, with several workers too.

Each turn of a timed game has its own deadline on the game's row, so the deadline names the
turn: a notice is claimed by a conditional update that records the deadline it was sent for
(``Game.noticed``, ``Game.reminded``), and only the worker whose update changed the row sends
it. Mail goes through Django's email framework (``EMAIL_URL``: the console by default, SMTP
in production); a player without an address is skipped, a failed send logged and not retried
(a missed notice is better than a second one).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from play.models import Game

log = logging.getLogger(__name__)

REMIND_BEFORE = timedelta(days=1)


def _correspondence():
    return Game.objects.filter(status=Game.LIVE, time_control__startswith="correspondence",
                               deadline__isnull=False)


def _mover(game: Game):
    """The player of the seat to move (any game, any number of seats)."""
    return next((user for seat, user in game.holders() if seat == game.to_move), None)


def _send(game: Game, subject: str, body: str) -> bool:
    return mail_player(_mover(game), game, subject, body)


def mail_player(user, game: Game, subject: str, body: str) -> bool:
    """Mail ``user`` a notice about ``game``, with the game's address: whether it was sent.
    The caller has claimed the notice (a conditional update), so a failure is logged and not
    retried. Also the events' "your game has started" (``registry.events.schedule``)."""
    if user is None or not user.email:
        return False
    url = settings.TALU_SITE_URL.rstrip("/") + reverse("game", args=[game.uuid])
    try:
        send_mail(subject, f"{body}\n\n{url}\n", None, [user.email])
    except Exception as err:  # the mail server away: this notice is lost, not repeated
        log.warning("notice for game %s not sent: %s", game.uuid, err)
        return False
    return True


def send_due(now: datetime | None = None, limit: int = 200) -> int:
    """Send the due notices; how many were sent."""
    now = now or timezone.now()
    sent = 0
    turns = (_correspondence().exclude(noticed=F("deadline")).select_related(
        "player_i", "player_o").order_by("deadline")[:limit])
    for game in turns:
        claimed = Game.objects.filter(pk=game.pk, deadline=game.deadline).exclude(
            noticed=game.deadline).update(noticed=game.deadline)
        if claimed and _send(game, "talu: your turn",
                             f"It is your turn in your correspondence game "
                             f"({game.time_label}). You have until "
                             f"{game.deadline:%Y-%m-%d %H:%M} UTC."):
            sent += 1
    soon = (_correspondence().filter(deadline__lte=now + REMIND_BEFORE, deadline__gt=now)
            .exclude(time_control="correspondence 1d")  # its turn notice said as much
            .exclude(reminded=F("deadline")).select_related("player_i", "player_o")
            .order_by("deadline")[:limit])
    for game in soon:
        claimed = Game.objects.filter(pk=game.pk, deadline=game.deadline).exclude(
            reminded=game.deadline).update(reminded=game.deadline)
        if claimed and _send(game, "talu: one day left for your turn",
                             f"Your turn in your correspondence game ends on "
                             f"{game.deadline:%Y-%m-%d %H:%M} UTC; after that you lose on "
                             f"time."):
            sent += 1
    return sent
