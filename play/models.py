"""Live games: challenges, games and the numbered event log that is each game's truth.

A game's state is never stored as a board: it is the replay of its ``GameEvent`` rows, in
version order, on a fresh rules-core ``Game``. Version 0 is the opening position; each accepted
step (or decision, or arbiter warning) is one row with the next version, unique per game, written
in the same transaction that accepted it. That log answers resyncs and survives restarts.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.conf import settings
from django.db import models
from django.utils import timezone

VARIANTS = [("standard", "standard"), ("grand-master", "grand-master"), ("dynamic", "dynamic")]


class Challenge(models.Model):
    OPEN, ACCEPTED, CANCELLED = "open", "accepted", "cancelled"
    SIDES = [("random", "random"), ("I", "I (light, moves first)"), ("O", "O (dark)")]

    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    variant = models.CharField(max_length=16, choices=VARIANTS, default="standard")
    rated = models.BooleanField(default=True)
    side = models.CharField(max_length=6, choices=SIDES, default="random")
    status = models.CharField(max_length=10, default=OPEN)
    game = models.OneToOneField("Game", null=True, blank=True, on_delete=models.SET_NULL)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["status", "-created"])]
        ordering = ["-created"]


class Game(models.Model):
    LIVE, FINISHED = "live", "finished"

    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    variant = models.CharField(max_length=16, choices=VARIANTS, default="standard")
    rated = models.BooleanField(default=True)
    player_i = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    player_o = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    # Ratings at game start (S3 expectations use them, R23) and the players' strata then.
    rating_i = models.BigIntegerField(default=250)
    rating_o = models.BigIntegerField(default=250)
    status = models.CharField(max_length=10, default=LIVE)
    version = models.PositiveIntegerField(default=0)
    winner = models.CharField(max_length=1, blank=True)  # "I", "O", "-" (null game) or ""
    reason = models.CharField(max_length=16, blank=True)
    detail = models.CharField(max_length=200, blank=True)
    stgn = models.TextField(blank=True)  # canonical notation, refreshed at every turn end
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "-created"])]
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.variant} game {self.uuid}"

    def side_of(self, user) -> str | None:
        if user is None or not getattr(user, "is_authenticated", False):
            return None
        if user.pk == self.player_i_id:
            return "I"
        if user.pk == self.player_o_id:
            return "O"
        return None

    @property
    def is_live(self) -> bool:
        return self.status == self.LIVE


class GameEvent(models.Model):
    """One numbered event of a game: a step, a decision (resignation) or an arbiter warning."""

    STEP, DECIDE, WARN = "step", "decide", "warn"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    version = models.PositiveIntegerField()
    kind = models.CharField(max_length=8)
    side = models.CharField(max_length=1, blank=True)  # who sent it ("" for the arbiter)
    data = models.JSONField(default=dict)  # step dict, or {winner, detail}, or {side, reason}
    text = models.CharField(max_length=40, blank=True)  # "A2-A3", "end", "resigns", ...
    seq = models.CharField(max_length=64, null=True, blank=True)  # the client's id for the message
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="one_event_per_version"),
            models.UniqueConstraint(
                fields=["game", "side", "seq"],
                name="one_event_per_client_seq",
                condition=models.Q(seq__isnull=False),
            ),
        ]
        ordering = ["game", "version"]

    def as_message(self) -> dict:
        return event_message(self)


def event_message(ev: GameEvent | NewEvent) -> dict:
    """An event as clients get it (the client's ``seq`` stays on the server)."""
    return {
        "version": ev.version,
        "kind": ev.kind,
        "side": ev.side or None,
        "data": ev.data,
        "text": ev.text,
    }


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event the rules core has just produced, not yet stored: what a step writes to the
    log. Plain data, so the one-statement write path (``play.steplog``) builds no model
    instance per event; the locked path turns it into a ``GameEvent`` row (``row_of``)."""

    version: int
    kind: str
    side: str
    data: dict
    text: str
    seq: str | None

    def as_message(self) -> dict:
        return event_message(self)

    def row_of(self, game: Game) -> GameEvent:
        return GameEvent(game=game, version=self.version, kind=self.kind, side=self.side,
                         data=self.data, text=self.text, seq=self.seq)


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
    server = models.CharField(max_length=64, blank=True)  # the process instance holding it
    seen = models.DateTimeField(default=timezone.now)  # last heartbeat of the socket
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["game", "role", "seen"], name="play_watcher_presence")]
