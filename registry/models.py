"""The registry: affiliated bodies, registered players, rating changes and game records.

Every site account is a registered player (R26): an 18-character upper-case alphanumeric id,
stratum S1, rating 250. Ratings only change through ``RatingChange`` rows written when a rated
game ends (``registry.services.rate_game``); the row keeps every intermediate figure so the
change can be explained, and the chronological list of them is the rating history (R30).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from registry.scoring import strata

# One source for the stratum system (R26): the pure scoring core.
PLAYER_ID_LENGTH = strata.PLAYER_ID_LENGTH
STRATUM_BASE = {n: s.base for n, s in strata.STRATA.items()}
PROMOTION_LIMIT = {n: s.promotion_limit for n, s in strata.STRATA.items()
                   if s.promotion_limit is not None}


def new_player_id() -> str:
    """R26 player id (the migrations name this function as the field default)."""
    return strata.new_player_id()


def sub_stratum(stratum: int, rating: int) -> str:
    return strata.substratum(stratum, rating)


class AffiliatedBody(models.Model):
    """A certified affiliated body (book 5.3.5): it signs the records of the games it hosts.

    The site itself is one (``settings.TALU_REGISTRAR_ID``); its key lives in the keyring.
    """

    registrar_id = models.CharField(max_length=64, unique=True)
    name = models.CharField(max_length=200)
    stratum = models.PositiveSmallIntegerField(default=1)
    key_id = models.CharField(max_length=20, blank=True)
    public_key = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "affiliated bodies"

    def __str__(self) -> str:
        return f"{self.registrar_id} ({self.name})"


class Player(models.Model):
    """The registered player behind a site account (R26)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player"
    )
    player_id = models.CharField(max_length=PLAYER_ID_LENGTH, unique=True, default=new_player_id)
    stratum = models.PositiveSmallIntegerField(default=1)
    rating = models.IntegerField(default=250)
    body = models.ForeignKey(AffiliatedBody, null=True, blank=True, on_delete=models.SET_NULL)
    # Statistics of the current stratum (reset on promotion, R26); history stays in RatingChange.
    stratum_games = models.PositiveIntegerField(default=0)
    stratum_wins = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["stratum", "-rating"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.player_id})"

    @property
    def name(self) -> str:
        return self.user.get_username()

    @property
    def stratum_code(self) -> str:
        return f"S{self.stratum}"

    @property
    def sub_stratum(self) -> str:
        return sub_stratum(self.stratum, self.rating)


class RatingChange(models.Model):
    """One player's rating change from one rated game, with the figures that explain it."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="rating_changes")
    side = models.CharField(max_length=1)
    model = models.CharField(max_length=2)  # S1 / S2 / S3 (SX: each player's own stratum, R25)
    stratum = models.PositiveSmallIntegerField()
    old_rating = models.IntegerField()
    new_rating = models.IntegerField()  # after the model, before any promotion
    rating_after = models.IntegerField()  # what the player holds after this game (promotion base)
    won = models.BooleanField()
    promoted_to = models.PositiveSmallIntegerField(null=True, blank=True)
    figures = models.JSONField(default=dict)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="one_change_per_game")
        ]
        indexes = [models.Index(fields=["player", "created"])]
        ordering = ["created", "id"]

    @property
    def delta(self) -> int:
        return self.new_rating - self.old_rating


class GameRecord(models.Model):
    """A record file of a game: the STGE, each STSE and the STDGS (book 6.5.2, R31-R35)."""

    STGE, STSE, STDGS, STGN = "STGE", "STSE", "STDGS", "STGN"
    KINDS = [(k, k) for k in (STGE, STSE, STDGS, STGN)]

    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="records")
    kind = models.CharField(max_length=5, choices=KINDS)
    session = models.PositiveIntegerField(default=0)  # 0 for STGE / STDGS / STGN
    content = models.TextField()
    hash = models.CharField(max_length=64, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "kind", "session"], name="one_record_per_kind")
        ]

    @property
    def filename(self) -> str:
        ext = {"STGN": "stgn", "STGE": "stge.yaml", "STSE": "stse.yaml", "STDGS": "stdgs.yaml"}
        stem = str(self.game.uuid)
        if self.kind == self.STSE:
            stem += f"-s{self.session}"
        return f"{stem}.{ext[self.kind]}"
