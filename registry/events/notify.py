"""Telling the players of a round that has started that their game is waiting (R41).

Three ways: the lobby's socket at once (``{"type": "started"}``, after the commit of the start,
``announce_started``), the event banner on every page (``{% event_banner %}``), and one mail
each (``mail_due``, run by the worker): the worker claims a round's notices with a conditional
update on ``Round.notified`` and sends them with the correspondence notices' helper
(``play.worker.notices.mail_player``), so no game's players are mailed twice; the mail queue
(``registry.accounts``) sends them, to players who chose them and have a verified address;
the same helper stores them as notices on the site (issue 39, ``registry.notices``).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from asgiref.sync import async_to_sync
from django.utils import timezone

from registry.events.models import Pairing, Round

log = logging.getLogger(__name__)


def announce_started(games: list[tuple[Any, int, int]], event: str, number: int) -> None:
    """After the commit of a round's start: its players' lobby sockets (R41), every lobby's
    list of live games, and the workers woken to mail the players (``mail_due``)."""
    from play.live import lobby
    from play.live.delivery import wake_worker

    try:
        async_to_sync(lobby.announce_started)(games, event, number)
        async_to_sync(lobby.notify)()
        async_to_sync(wake_worker)()
    except Exception as exc:  # the channel layer away: the banner and the mail still tell
        log.warning("round %s of %s: start not announced (%s)", number, event, exc)


def _notice(p: Pairing, side: str) -> tuple[str, str]:
    """The subject and words of the mail to the player of side ``side`` (I: light, R43)."""
    event, number = p.round.event, p.round.number
    opponent = p.black if side == "I" else p.white
    colour = "light" if side == "I" else "dark"
    subject = f"talu: {event.name}, round {number}: your game has started"
    body = (f"Round {number} of {event.name} has started. Your game against {opponent.name} "
            f"is waiting for you: you play {colour}"
            f"{' and move first' if side == 'I' else ''}. A player absent from the start "
            f"loses by the clock, or as the arbiter decides (R37, R41).")
    return subject, body


def mail_due(now: datetime | None = None, limit: int = 4) -> int:
    """Mail both players of every game of each started round not yet noticed; how many mails
    went. The round is claimed first (``notified``, a conditional update), so a second worker
    sends nothing."""
    from play.worker.notices import mail_player

    now = now or timezone.now()
    sent = 0
    for pk in list(Round.objects.filter(state=Round.STARTED, notified__isnull=True)
                   .values_list("pk", flat=True)[:limit]):
        if not Round.objects.filter(pk=pk, notified__isnull=True).update(notified=now):
            continue  # another worker has it
        boards = (Pairing.objects.filter(round_id=pk, game__isnull=False, game__status="live")
                  .select_related("round__event", "white", "black", "game__player_i",
                                  "game__player_o"))
        for p in boards:
            for side, user in (("I", p.game.player_i), ("O", p.game.player_o)):
                subject, body = _notice(p, side)
                opponent = p.black if side == "I" else p.white
                text = (f"{p.round.event.name}, round {p.round.number}: your game against "
                        f"{opponent.name} has started.")
                sent += mail_player(user, p.game, subject, body, kind="round", text=text)
    return sent
