"""Correspondence notices (R36): "your turn" when a turn begins, "one day left" a day before
its deadline; at most one of each per turn, with several workers too.

Each turn of a timed game has its own deadline on the game's row, so the deadline names the
turn: a notice is claimed by a conditional update that records the deadline it was sent for
(``Game.noticed``, ``Game.reminded``), and only the worker whose update changed the row sends
it. The notice goes to the registry's notices (``ports.directory().notify``: on the site and
by mail, as the player chose, issue 39); without them, mail goes through the mailer the
accounts app sets (``use_mailer``: its queue, which the worker sends with retries, asking the
player's settings first); without it (play alone) through Django's ``send_mail`` at once, a
player without an address skipped and a failed send logged and not retried (a missed notice
is better than a second one).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from play import ports
from play.models import Game

log = logging.getLogger(__name__)

REMIND_BEFORE = timedelta(days=1)

#: ``mailer(user, kind, subject, body)``: whether a notice of ``kind`` was sent or queued.
Mailer = Callable[[Any, str, str, str], bool]
_mailer: Mailer | None = None


def use_mailer(mailer: Mailer | None) -> None:
    """How notices reach players from now on (``registry.accounts``: its mail queue and the
    players' settings; play imports nothing of the registry, so the registry sets it)."""
    global _mailer
    _mailer = mailer


def _correspondence():
    return Game.objects.filter(status=Game.LIVE, time_control__startswith="correspondence",
                               deadline__isnull=False)


def _mover(game: Game):
    """The player of the seat to move (any game, any number of seats)."""
    return next((user for seat, user in game.holders() if seat == game.to_move), None)


def _send(game: Game, subject: str, body: str, text: str) -> bool:
    return mail_player(_mover(game), game, subject, body, text=text)


def mail_player(user, game: Game, subject: str, body: str, kind: str = "turn",
                text: str = "") -> bool:
    """Tell ``user`` a notice of ``kind`` (``registry.accounts.prefs.KINDS``) about ``game``:
    on the site (``text``, leading to the game) and by mail with the game's address, as they
    chose (the registry's notices, through ``ports.directory().notify``, issue 39); whether a
    mail was sent (queued). The caller has claimed the notice (a conditional update), so it is
    never sent twice. Also the events' "your game has started" (``registry.events.notify``,
    kind ``round``)."""
    if user is None:
        return False
    path = reverse("game", args=[game.uuid])
    url = settings.TALU_SITE_URL.rstrip("/") + path
    mailed = ports.directory().notify(user, kind, text or subject.removeprefix("talu: "),
                                      path, subject=subject, body=f"{body}\n\n{url}\n")
    if mailed is not None:
        return mailed
    if _mailer is not None:
        return _mailer(user, kind, subject, f"{body}\n\n{url}\n")
    if not user.email:
        return False
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
        until = f"{game.deadline:%Y-%m-%d %H:%M} UTC"
        if claimed and _send(game, "talu: your turn",
                             f"It is your turn in your correspondence game "
                             f"({game.time_label}). You have until {until}.",
                             f"Your turn in a correspondence game ({game.time_label}), "
                             f"until {until}."):
            sent += 1
    soon = (_correspondence().filter(deadline__lte=now + REMIND_BEFORE, deadline__gt=now)
            .exclude(time_control="correspondence 1d")  # its turn notice said as much
            .exclude(reminded=F("deadline")).select_related("player_i", "player_o")
            .order_by("deadline")[:limit])
    for game in soon:
        claimed = Game.objects.filter(pk=game.pk, deadline=game.deadline).exclude(
            reminded=game.deadline).update(reminded=game.deadline)
        until = f"{game.deadline:%Y-%m-%d %H:%M} UTC"
        if claimed and _send(game, "talu: one day left for your turn",
                             f"Your turn in your correspondence game ends on {until}; "
                             f"after that you lose on time.",
                             f"One day left for your turn in a correspondence game: it "
                             f"ends on {until}."):
            sent += 1
    return sent
