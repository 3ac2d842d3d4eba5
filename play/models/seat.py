"""The seats of a game: who sits where, for any number of seats (issue 36).

A game's variant names its seats (``play.games.protocol.Variant``: talu's ``I`` and ``O``,
tafl's ``attackers`` and ``defenders``, Talat's ``1``-``3``); a ``Seat`` row says who holds
one: a person, the computer opponent, or nobody (a neutral seat), the rating they brought to
the game (R23 for talu's S3; the game's own rating otherwise), and, once the game is over,
the seat's rank (1 best; ties share a rank; None: no result, a null or aborted game) and
score where the game keeps one.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from play.models.game import Game


class Seat(models.Model):
    PERSON, COMPUTER, NEUTRAL = "person", "computer", "neutral"
    KINDS = [(PERSON, "person"), (COMPUTER, "computer"), (NEUTRAL, "neutral")]

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    #: The game's id of the seat ("I", "attackers", "1").
    seat = models.CharField(max_length=16)
    #: Its place in the variant's playing order (0 first).
    order = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=KINDS, default=PERSON)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True,
                             blank=True, related_name="+")
    #: The rating the seat's player brought to the game (None: unrated, neutral).
    rating = models.BigIntegerField(null=True, blank=True)
    #: The seat's rank once the game is over (1 best, ties share one; None: no result).
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.FloatField(null=True, blank=True)
    #: Since when every connection of the seat's player has been gone (R37's absence), kept
    #: by the sockets (``play.live.presence``); None while connected.
    away = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="one_row_per_seat"),
            models.UniqueConstraint(fields=["game", "order"], name="one_seat_per_place"),
        ]
        indexes = [models.Index(fields=["user", "game"], name="seat_user_game")]
        ordering = ["game", "order"]

    def __str__(self) -> str:
        return f"{self.seat} of game {self.game_id}"
