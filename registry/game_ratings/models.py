"""A player's rating in a game other than talu, and its history one finished game at a time.

A rating is kept per (player, game, variant); ``variant`` is "" when the game rates across its
variants. The maths is ``registry.game_ratings.rating`` (pure); the one writer is
``registry.game_ratings.services.rate_finished``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from registry.game_ratings import rating


class GameRating(models.Model):
    """One player's current rating in one game (and variant): openskill's mu and sigma."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="game_ratings")
    game = models.CharField(max_length=40)
    variant = models.CharField(max_length=40, blank=True, default="")
    mu = models.FloatField(default=rating.MU)
    sigma = models.FloatField(default=rating.SIGMA)
    games = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game", "variant"],
                                               name="game_rating_once_per_game")]
        # the leaderboard: one game's (and variant's) players by skill
        indexes = [models.Index(fields=["game", "variant", "-mu"], name="game_rating_board")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.game}/{self.variant or '*'} {self.shown}"

    @property
    def value(self) -> rating.Rating:
        return rating.Rating(self.mu, self.sigma)

    @property
    def display(self) -> int:
        return rating.display(self.value)

    @property
    def provisional(self) -> bool:
        return rating.provisional(self.value)

    @property
    def shown(self) -> str:
        return rating.shown(self.value)


class GameRatingChange(models.Model):
    """What one finished game did to one player's rating. ``game_id`` is the played game's id
    (play's ``Game``, an int); once per player and game, which makes rating a game twice
    impossible, whoever calls."""

    game_id = models.BigIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="game_rating_changes")
    game = models.CharField(max_length=40)
    variant = models.CharField(max_length=40, blank=True, default="")
    rank = models.PositiveSmallIntegerField()  # the player's place in the game (1 best)
    seats = models.PositiveSmallIntegerField()  # how many rated players the game had
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    display_before = models.IntegerField()
    display_after = models.IntegerField()
    at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game_id", "user"],
                                               name="game_rating_change_once")]
        # a player's history in one game, for the profile's chart
        indexes = [models.Index(fields=["user", "game", "variant", "at"],
                                name="game_rating_history")]

    def __str__(self) -> str:
        return (f"game {self.game_id} {self.user_id} {self.game}: "
                f"{self.display_before} -> {self.display_after}")

    @property
    def delta(self) -> int:
        return self.display_after - self.display_before

    @property
    def provisional_after(self) -> bool:
        return self.sigma_after > rating.PROVISIONAL_SIGMA
