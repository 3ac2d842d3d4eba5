"""Presence: one row per open game socket, shared by every server process (spectator counts).
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from play.models.game import Game


class Watcher(models.Model):
    """An open websocket on a game (for the spectator count shared by every server process).

    A process that dies (SIGKILL, a lost machine) never deletes its rows, so each row carries
    the process that holds the socket and when that socket last said it was alive (``seen``,
    refreshed by the consumer's heartbeat). Counts ignore rows not seen for a while, and joins
    delete them: a crashed process inflates no count for longer than the staleness window.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="watchers")
    channel_name = models.CharField(max_length=200, unique=True)
    role = models.CharField(max_length=10)  # "player" or "spectator"
    #: The seat a player's socket holds ("" for a spectator): R37's absence is per seat.
    side = models.CharField(max_length=16, blank=True, default="", db_default="")
    server = models.CharField(max_length=64, blank=True)  # the process instance holding it
    seen = models.DateTimeField(default=timezone.now)  # last heartbeat of the socket
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["game", "role", "seen"], name="play_watcher_presence")]
