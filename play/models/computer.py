"""The computer opponent on the site: its account's mark, and the games it plays.

The computer is a site account like any player (its games have the same records), marked by a
``ComputerAccount`` row so that every page and client can say it is the computer. A
``ComputerGame`` says which seat of a game it plays and at which level, and carries the lease of
the worker thinking for it (``claimed_by``/``claimed_until``: the outbox's pattern, so of
several workers exactly one plays a given turn, and a killed worker's claim runs out). One row
per computer seat (issue 37): at a table of three one person may play two computer seats, each
with its own level, and the worker plays whichever of them is to act.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ComputerAccount(models.Model):
    """Marks a site account as the computer opponent (never a person)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="computer_account")
    created = models.DateTimeField(auto_now_add=True)


class ComputerGame(models.Model):
    """A seat ``side`` of a game the computer plays at ``level`` (the game's levels: talu's
    1-8, play.games.talu.search); a game has one row per computer seat."""

    game = models.ForeignKey("play.Game", on_delete=models.CASCADE,
                             related_name="computer_seats")
    side = models.CharField(max_length=16)  # the computer's seat ("I" or "O" in talu)
    level = models.PositiveSmallIntegerField()
    claimed_by = models.CharField(max_length=64, blank=True)
    claimed_until = models.DateTimeField(null=True, blank=True)
    turns = models.PositiveIntegerField(default=0)  # turns the computer has played
    nodes = models.BigIntegerField(default=0)  # nodes its searches visited, in all

    class Meta:
        indexes = [models.Index(fields=["claimed_until"], name="computer_claim")]
        constraints = [models.UniqueConstraint(fields=["game", "side"],
                                               name="one_computer_per_seat")]
