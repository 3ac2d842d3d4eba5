"""Tables of more than two seats (issue 37): a person opens one, others take its seats, the
creator may give open seats to the computer; and the quick-pairing pool for three.

A two-seat game is offered by a ``Challenge`` (``play.models.lobby``); a game whose variant
seats more players (Talat's three) is offered by a ``Table``, its seats ``TableSeat`` rows in
the variant's playing order. The game starts when every seat is held
(``play.lobby.tables``). ``ThreeEntry`` is a player waiting in the pool for three
(``play.lobby.pool_three``), apart from the two-player pools' ``PoolEntry``: its players are
grouped by three, and may ask for computer seats after a wait of their choosing.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from play.games.clock import time_label


class Table(models.Model):
    OPEN, STARTED, CLOSED = "open", "started", "closed"

    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="+")
    #: The game and variant (``play.games.registry``; checked against the catalogue).
    game_key = models.CharField(max_length=16)
    variant = models.CharField(max_length=16)
    #: The variant's options as ``checked_options`` keeps them (only those set).
    options = models.JSONField(default=dict, blank=True)
    #: Asked for rated; the game is casual all the same once a computer sits (A9).
    rated = models.BooleanField(default=True)
    time_control = models.CharField(max_length=40, default="untimed")
    status = models.CharField(max_length=8, default=OPEN)
    game = models.OneToOneField("play.Game", null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["status", "-created"], name="play_table_open")]
        ordering = ["-created"]

    @property
    def variant_key(self) -> str:
        return f"{self.game_key}/{self.variant}"

    @property
    def time_label(self) -> str:
        return time_label(self.time_control)


class TableSeat(models.Model):
    """One seat of a table: open (nobody, no level), a person's, or the computer's at
    ``level``."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    #: The variant's id of the seat ("1") and its place in the playing order (0 first).
    seat = models.CharField(max_length=16)
    order = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.CASCADE, related_name="+")
    level = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="one_row_per_table_seat"),
            # one person, one seat of a table (the database says so too, whatever the race)
            models.UniqueConstraint(fields=["table", "user"], name="one_table_seat_per_person",
                                    condition=models.Q(user__isnull=False)),
        ]
        ordering = ["table", "order"]

    @property
    def is_open(self) -> bool:
        return self.user_id is None and self.level is None


class ThreeEntry(models.Model):
    """A player in the pool for three (one entry a player): waiting, or paired (the game)."""

    WAITING, PAIRED = "waiting", "paired"

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="three_entry")
    variant = models.CharField(max_length=40)  # the variant's key ("talat/three")
    time_control = models.CharField(max_length=40)
    rated = models.BooleanField(default=True)
    #: The rating the player brought when they joined (R47's range).
    rating = models.IntegerField(default=0)
    #: Minutes after which the empty seats are given to the computer (0: never).
    fill_after = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=8, default=WAITING)
    game = models.ForeignKey("play.Game", null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["status", "variant"], name="play_three_wait")]

    @property
    def time_label(self) -> str:
        return time_label(self.time_control)
