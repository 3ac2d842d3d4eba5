"""Quick pairing (R47): the pools (variant x time control x rated) and the players waiting in
them. A player waits in at most one pool; their row stays after a pairing, naming the game, so
an app reading its pairing state learns where to go."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from play.games.clock import time_label


class Pool(models.Model):
    """One pool. ``wave`` counts its waves; a worker claims the next wave by a conditional update
    of ``wave`` (``play.worker.pool``), so two workers never run the same wave."""

    variant = models.CharField(max_length=16)
    time_control = models.CharField(max_length=40)
    rated = models.BooleanField(default=True)
    wave = models.IntegerField(default=0)
    wave_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["variant", "time_control", "rated"],
                                               name="play_pool_unique")]

    @property
    def time_label(self) -> str:
        return time_label(self.time_control)

    def __str__(self) -> str:
        kind = "rated" if self.rated else "freeplay"
        return f"{self.variant} {self.time_label} {kind}"


class PoolEntry(models.Model):
    """A player in a pool: waiting, or paired (with the game)."""

    WAITING, PAIRED = "waiting", "paired"

    pool = models.ForeignKey(Pool, on_delete=models.CASCADE, related_name="entries")
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="pool_entry")
    #: the rating when they joined (R47's cost) and, for an S3 player who opted in, their PSF
    #: (R27), below which they are never paired
    rating = models.IntegerField(default=0)
    floor = models.FloatField(null=True, blank=True)
    #: the player of their last game: never paired with them straight again (R47)
    last_opponent = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                      on_delete=models.SET_NULL, related_name="+")
    waves = models.IntegerField(default=0)
    status = models.CharField(max_length=8, default=WAITING)
    game = models.ForeignKey("play.Game", null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["pool", "status"], name="play_poolentry_wait_idx")]
