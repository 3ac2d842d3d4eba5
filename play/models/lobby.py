"""Challenges: a player's offer of a game, open to anyone or to one named opponent."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from play.games.clock import time_label
from play.games.registry import DEFAULT_GAME, DEFAULT_VARIANT


class Challenge(models.Model):
    OPEN, ACCEPTED, CANCELLED = "open", "accepted", "cancelled"
    SIDES = [("random", "random"), ("I", "I (light, moves first)"), ("O", "O (dark)")]

    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    #: The game and variant of the game it starts (``play.games.registry``; no choices list:
    #: the form checks them against the catalogue).
    game_key = models.CharField(max_length=16, default=DEFAULT_GAME)
    variant = models.CharField(max_length=16, default=DEFAULT_VARIANT)
    #: The variant's options the game starts with (tafl's ``immunity``, T1), as checked by
    #: ``play.games.registry.checked_options``: only those set, by name.
    options = models.JSONField(default=dict, blank=True)
    rated = models.BooleanField(default=True)
    side = models.CharField(max_length=6, choices=SIDES, default="random")
    #: R36's time control of the game it starts (``play.games.clock``, canonical text).
    time_control = models.CharField(max_length=40, default="untimed")
    status = models.CharField(max_length=10, default=OPEN)
    game = models.OneToOneField("play.Game", null=True, blank=True, on_delete=models.SET_NULL)
    created = models.DateTimeField(auto_now_add=True)

    @property
    def time_label(self) -> str:
        """The time control's short form for lists ("3+2", "3 days per turn")."""
        return time_label(self.time_control)

    class Meta:
        indexes = [models.Index(fields=["status", "-created"])]
        ordering = ["-created"]
