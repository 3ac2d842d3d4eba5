"""The registry (book 5.3.4-5.3.6): affiliated bodies, registered players, archived games,
their records and the rating changes they caused.

Ratings are a cache of the pure cascade over the chronological list of rated games (R30): the
truth is the ``RegistryGame`` rows (their stored tallies) in ``(played_at, id)`` order. Every
rated game writes one ``RatingChange`` per player with every intermediate figure, so a change
can be explained and the list of them is the rating history. The ledger
(``registry.ledger``) is the only writer of ratings: live games, submitted games, annulments
and corrections all go through it, so a live rating always equals a full recompute.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from registry.scoring import strata, victory

# One source for the stratum system (R26): the pure scoring core.
PLAYER_ID_LENGTH = strata.PLAYER_ID_LENGTH
STRATUM_CHOICES = [(n, s.code) for n, s in strata.STRATA.items()]
MODEL_CHOICES = [("", "SX (each player's own stratum)"), ("S1", "S1"), ("S2", "S2"),
                 ("S3", "S3")]


def sub_stratum(stratum: int, rating: int) -> str:
    return strata.substratum(stratum, rating)


def check_scoring_model(stratum: int, model: str) -> None:
    """Book 6.4: "A higher-stratum affiliated body may not use lower-stratum scoring model".

    "" (SX, each player rated by their own stratum's model, R25) is the site's default and is
    allowed for every body.
    """
    if model and model not in ("S1", "S2", "S3"):
        raise ValidationError({"scoring_model": f"unknown scoring model {model!r}"})
    if model and int(model[1]) < stratum:
        raise ValidationError({"scoring_model": (
            f"a stratum S{stratum} body may not use the lower-stratum model {model} "
            "(book 6.4)")})


class AffiliatedBody(models.Model):
    """A certified affiliated body (book 5.3.5): it signs and submits the records of its games.

    The site itself is one (``settings.TALU_REGISTRAR_ID``); its key lives in the keyring.
    Other bodies are known by their public key, against which their records are verified.
    """

    registrar_id = models.CharField(max_length=64, unique=True)
    name = models.CharField(max_length=200)
    stratum = models.PositiveSmallIntegerField(default=1, choices=STRATUM_CHOICES)
    key_id = models.CharField(max_length=20, blank=True)
    public_key = models.TextField(blank=True)
    scoring_model = models.CharField(max_length=2, blank=True, default="",
                                     choices=MODEL_CHOICES)
    registrars = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="registrar_of",
                                        blank=True)
    # issue 38 (registry.clubs): where the body is, its standing arbiters (offered for its
    # events; ``arbiters`` is taken by the per-game appointments), and a federation suspension
    place = models.CharField(max_length=200, blank=True)
    arbiter_users = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True,
                                           related_name="body_arbiter_of")
    suspended = models.DateTimeField(null=True, blank=True)
    suspended_reason = models.CharField(max_length=500, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "affiliated bodies"

    def __str__(self) -> str:
        return f"{self.registrar_id} ({self.name})"

    def clean(self) -> None:
        if self.stratum not in strata.STRATA:
            raise ValidationError({"stratum": "a body's stratum is 1, 2 or 3"})
        check_scoring_model(self.stratum, self.scoring_model)

    def save(self, *args, **kwargs) -> None:
        self.clean()  # the book 6.4 rule holds whichever way a body is saved
        super().save(*args, **kwargs)


class BodyToken(models.Model):
    """An API token of a body; only its SHA-256 is stored (``registry.tokens``)."""

    body = models.ForeignKey(AffiliatedBody, on_delete=models.CASCADE, related_name="tokens")
    key_hash = models.CharField(max_length=64, unique=True)
    label = models.CharField(max_length=100, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)
    revoked = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"token {self.label or self.pk} of {self.body.registrar_id}"


class BodyKey(models.Model):
    """One signing key a body has had (issue 38, ``registry.clubs.keys``): its public key only.

    ``AffiliatedBody.key_id``/``public_key`` stay the *current* key (what the API shows and what
    the body signs with now); these rows are its history, so a rotation keeps the old key: a
    record names its signer's ``key_id`` (R33), and a record signed before the rotation still
    verifies against the key it names. ``retired`` is set when a newer key replaced this one
    (it still verifies what it signed before then); ``revoked`` when a registrar withdrew it
    (lost or stolen): no record signed with it is accepted any more (``registry.submission``)."""

    GENERATED, UPLOADED, RECORDED = "generated", "uploaded", "recorded"
    ORIGINS = [(GENERATED, "generated on the site"), (UPLOADED, "uploaded"),
               (RECORDED, "on file before keys were kept")]

    body = models.ForeignKey(AffiliatedBody, on_delete=models.CASCADE, related_name="keys")
    fingerprint = models.CharField(max_length=64, unique=True)
    key_id = models.CharField(max_length=20)
    # its subkeys' key ids, space-separated: a record signed by a signing subkey names that
    # subkey's id (R33: the last 8 hex digits of the *signing* key's fingerprint)
    subkey_ids = models.CharField(max_length=400, blank=True)
    public_key = models.TextField()
    uid = models.CharField(max_length=300, blank=True)
    origin = models.CharField(max_length=10, choices=ORIGINS, default=UPLOADED)
    added = models.DateTimeField()
    added_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="+")
    retired = models.DateTimeField(null=True, blank=True)
    revoked = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    revoked_reason = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["-added", "-id"]
        constraints = [models.UniqueConstraint(
            fields=["body"], condition=models.Q(retired__isnull=True, revoked__isnull=True),
            name="one_current_key_per_body")]

    def __str__(self) -> str:
        return f"key {self.key_id} of {self.body.registrar_id}"

    @property
    def state(self) -> str:
        return "revoked" if self.revoked else "retired" if self.retired else "current"

    @property
    def key_ids(self) -> set[str]:
        """Every R33 ``key_id`` a record signed with this key may name."""
        return {self.key_id, *self.subkey_ids.split()}


class PlayerQuerySet(models.QuerySet):
    def ranked(self, number: int) -> PlayerQuerySet:
        """A stratum's leaderboard (R26): players who have played a rated game, best first."""
        return self.filter(stratum=number, games__gt=0).order_by("-rating", "player_id")


class Player(models.Model):
    """A registered player (book 5.3.6, R26): a site account, or an over-the-board player
    registered by a body (no account). The statistics are the cascade's ``PlayerState``."""

    objects = PlayerQuerySet.as_manager()

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="player", null=True, blank=True)
    display_name = models.CharField(max_length=200, blank=True)
    player_id = models.CharField(max_length=PLAYER_ID_LENGTH, unique=True,
                                 default=strata.new_player_id)
    body = models.ForeignKey(AffiliatedBody, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="players")
    stratum = models.PositiveSmallIntegerField(default=1)
    # 64-bit: S2 and S3 multiply ratings (R22, R23), so one can pass 2^31 (test_large_ratings).
    rating = models.BigIntegerField(default=strata.START_RATING)
    # Statistics of the current stratum (reset on promotion, R26); history in StratumRecord.
    stratum_games = models.PositiveIntegerField(default=0)
    stratum_wins = models.PositiveIntegerField(default=0)
    exposure_sum = models.BigIntegerField(default=0)  # R29 EI numerator, current stratum
    # All rated decided games (R29 OR, OCS, Breadth:Depth).
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    elimination_wins = models.PositiveIntegerField(default=0)
    invasion_wins = models.PositiveIntegerField(default=0)
    recent_npc = models.JSONField(default=list, blank=True)  # R27: last 10 S3 NPc, oldest first
    #: The standing the player entered the registry with, before any game here: R26's S1 and
    #: 250, or standings imported from an earlier record (the cascade's ``initial``, R30).
    start_stratum = models.PositiveSmallIntegerField(default=1)
    start_rating = models.BigIntegerField(default=strata.START_RATING)
    anpc = models.FloatField(null=True, blank=True)  # R27: the player's own aNPc setting
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["stratum", "-rating"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.player_id})"

    @property
    def name(self) -> str:
        if self.user_id is not None:
            return self.user.get_username()
        return self.display_name or self.player_id

    @property
    def stratum_code(self) -> str:
        return f"S{self.stratum}"

    @property
    def sub_stratum(self) -> str:
        return sub_stratum(self.stratum, self.rating)


class RegistryGame(models.Model):
    """A game of the registry: a game played on this site (still playing, or finished) or one
    submitted by a body (book 5.3.4). Its ``source`` says where it was played (``site`` or
    ``submitted``) and its ``status`` where it stands (``playing``, ``finished``, ``annulled``):
    the two were once both ``"live"``, and the model ``RegistryGame`` although it also holds games
    still being played (issue 19, migration 0007).

    ``played_at`` (with ``id`` as tie-break) is the chronological key of R30. ``tally`` is the
    game's tally (R16-R19) as JSON, enough to rate it again without replaying notation.
    """

    SITE, SUBMITTED = "site", "submitted"
    SOURCES = [(SITE, SITE), (SUBMITTED, SUBMITTED)]
    PLAYING, FINISHED, ANNULLED = "playing", "finished", "annulled"
    STATUSES = [(PLAYING, PLAYING), (FINISHED, FINISHED), (ANNULLED, ANNULLED)]

    game_id = models.UUIDField(unique=True, default=uuid.uuid4)
    live = models.OneToOneField("play.Game", null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="archive")
    body = models.ForeignKey(AffiliatedBody, on_delete=models.PROTECT, related_name="games")
    variant = models.CharField(max_length=16, default="standard")
    rated = models.BooleanField(default=True)
    #: The event's fixed scoring model (book 6.4, R25); "" = each player's own stratum model.
    scoring_model = models.CharField(max_length=2, blank=True, default="")
    source = models.CharField(max_length=10, choices=SOURCES, default=SITE)
    status = models.CharField(max_length=10, choices=STATUSES, default=PLAYING)
    player_i = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_o = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    winner = models.CharField(max_length=1, blank=True)  # "I", "O", "-" (null game) or ""
    reason = models.CharField(max_length=16, blank=True)
    rounds = models.PositiveIntegerField(default=0)
    tally = models.JSONField(default=dict, blank=True)
    #: The rating-independent figures of ``tally`` (``registry.figcache``), kept in step by
    #: ``save``; empty or stale ones are recomputed by the ledger.
    figures = models.JSONField(default=dict, blank=True)
    stgn = models.TextField(blank=True)
    played_at = models.DateTimeField(db_index=False)
    revision = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    #: The rating phase the game belongs to (Hettlandic phase 1, R45): such a game is not
    #: rated on its own but in its phase's one entry of the R30 list, when the phase closes.
    phase = models.ForeignKey("RatingPhase", null=True, blank=True, on_delete=models.PROTECT,
                              related_name="games")

    class Meta:
        indexes = [
            # The R30 order and the game list's default (newest first): without it every page
            # sorted all the games (BENCHMARKS.md, issue 6).
            models.Index(fields=["played_at", "id"], name="archgame_played_id"),
            models.Index(fields=["status", "played_at"], name="archgame_status_played"),
            models.Index(fields=["player_i", "played_at"], name="archgame_pi_played"),
            models.Index(fields=["player_o", "played_at"], name="archgame_po_played"),
            models.Index(fields=["variant", "status", "played_at"],
                         name="archgame_var_status_played"),
            models.Index(fields=["body", "played_at"], name="archgame_body_played"),
        ]

    def __str__(self) -> str:
        return f"{self.variant} game {self.game_id}"

    def save(self, *args, **kwargs) -> None:
        from registry.figcache import figures_json_of_tally

        fields = kwargs.get("update_fields")
        if fields is None or "tally" in fields:  # a save that leaves the tally keeps its figures
            self.figures = figures_json_of_tally(self.tally) if self.tally else {}
            if fields is not None:
                kwargs["update_fields"] = {*fields, "figures"}
        super().save(*args, **kwargs)

    @property
    def counts_for_rating(self) -> bool:
        """In the R30 list: finished, rated, not annulled, with a winner (R12) (a phase game
        through its phase's entry, R45)."""
        return self.status == self.FINISHED and self.rated and self.winner in ("I", "O")


class StratumRecord(models.Model):
    """One stratum of a player's career, kept when they are promoted (R26, book 6.2.3)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="strata")
    stratum = models.PositiveSmallIntegerField()
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    rating_start = models.BigIntegerField()
    rating_end = models.BigIntegerField()
    started = models.DateTimeField()
    ended = models.DateTimeField(null=True, blank=True)
    promoted_by = models.ForeignKey(RegistryGame, null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["player", "stratum"]
        constraints = [models.UniqueConstraint(fields=["player", "stratum"],
                                               name="one_record_per_stratum")]


class RatingChange(models.Model):
    """One player's rating change from one rated game, with the figures that explain it."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.ForeignKey(RegistryGame, on_delete=models.CASCADE,
                             related_name="rating_changes")
    side = models.CharField(max_length=1)
    model = models.CharField(max_length=2)  # S1 / S2 / S3
    stratum = models.PositiveSmallIntegerField()  # at game start
    old_rating = models.BigIntegerField()
    new_rating = models.BigIntegerField()  # after the model, before any promotion
    rating_after = models.BigIntegerField()  # held after this game (the base when promoted)
    won = models.BooleanField()
    promoted_to = models.PositiveSmallIntegerField(null=True, blank=True)
    figures = models.JSONField(default=dict)
    played_at = models.DateTimeField()  # the game's, copied: history in order without a join
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="one_change_per_game")
        ]
        indexes = [models.Index(fields=["player", "played_at"], name="ratingchange_player_at")]
        ordering = ["played_at", "game_id"]

    @property
    def delta(self) -> int:
        return self.new_rating - self.old_rating


class GameRecord(models.Model):
    """A record file of a game: the STGE, each STSE, the STDGS and the STGN (book 6.5.2).

    A correction keeps the old files (``superseded``) and adds the new ones at ``revision``+1.
    """

    STGE, STSE, STDGS, STGN = "STGE", "STSE", "STDGS", "STGN"
    KINDS = [(k, k) for k in (STGE, STSE, STDGS, STGN)]

    game = models.ForeignKey(RegistryGame, on_delete=models.CASCADE, related_name="records")
    kind = models.CharField(max_length=5, choices=KINDS)
    session = models.PositiveIntegerField(default=0)  # 0 for STGE / STDGS / STGN
    revision = models.PositiveIntegerField(default=0)
    content = models.TextField()
    hash = models.CharField(max_length=64, blank=True)
    superseded = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "kind", "session", "revision"],
                                    name="one_record_per_kind_revision")
        ]

    @property
    def filename(self) -> str:
        ext = {"STGN": "stgn", "STGE": "stge.yaml", "STSE": "stse.yaml", "STDGS": "stdgs.yaml"}
        stem = str(self.game.game_id)
        if self.kind == self.STSE:
            stem += f"-s{self.session}"
        if self.revision:
            stem += f"-r{self.revision}"
        return f"{stem}.{ext[self.kind]}"


class AuditEntry(models.Model):
    """Who changed what in the registry, and when (append-only: never updated or deleted)."""

    SUBMIT, ANNUL, CORRECT, RECOMPUTE = "submit", "annul", "correct", "recompute"
    PHASE = "phase"  # a rating phase closed (R45)
    APPOINT, DISMISS, ARBITRATE = "appoint", "dismiss", "arbitrate"  # R39 (issue 26)
    # bodies online (issue 38, registry.clubs): applications, the federation's decisions, a
    # body's people (registrars, arbiters), its players registered, claimed and imported
    APPLY, APPROVE, REFUSE, SUSPEND, REINSTATE = "apply", "approve", "refuse", "suspend", \
        "reinstate"
    ADD_PERSON, DROP_PERSON, REGISTER, CLAIM, IMPORT = "add_person", "rm_person", "register", \
        "claim", "import"
    MODERATE = "moderate"  # chat beside games (issue 39, registry.moderation)
    KEY, TOKEN = "key", "token"  # a body's signing keys and API tokens (issue 38)
    ACTIONS = [(a, a) for a in (SUBMIT, ANNUL, CORRECT, RECOMPUTE, PHASE, APPOINT, DISMISS,
                                ARBITRATE, APPLY, APPROVE, REFUSE, SUSPEND, REINSTATE,
                                ADD_PERSON, DROP_PERSON, REGISTER, CLAIM, IMPORT, MODERATE,
                                KEY, TOKEN)]

    created = models.DateTimeField(auto_now_add=True)
    actor_user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    actor_body = models.ForeignKey(AffiliatedBody, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    action = models.CharField(max_length=10, choices=ACTIONS)
    game = models.ForeignKey(RegistryGame, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="audit")
    reason = models.TextField(blank=True)
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["created", "id"]
        verbose_name_plural = "audit entries"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None:
            raise ValueError("audit entries are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("audit entries are append-only")


class RatingPhase(models.Model):
    """A rating event: games rated together as one entry of the R30 list (Hettlandic phase 1,
    R45). While it is open nothing moves; closing it updates every participant once, by their
    final coefficient. An event (R41) that runs a Hettlandic phase points at one of these.

    In the chronological list the phase stands twice: at ``opened_at`` (where its Ec ratings
    are read) and at ``closed_at`` (its one rating entry). ``registry.phases`` opens and
    closes it; ``registry.ledger`` rates it.
    """

    OPEN, CLOSED = "open", "closed"
    STATUSES = [(OPEN, OPEN), (CLOSED, CLOSED)]

    name = models.CharField(max_length=200)
    body = models.ForeignKey(AffiliatedBody, null=True, blank=True, on_delete=models.PROTECT,
                             related_name="rating_phases")
    status = models.CharField(max_length=10, choices=STATUSES, default=OPEN)
    opened_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["status", "closed_at"], name="ratingphase_status_closed")]

    def __str__(self) -> str:
        return f"rating phase {self.name} ({self.status})"


class PhaseRatingChange(models.Model):
    """One participant's rating change from a closed phase (R45), with the figures of every
    phase game (NPc, Ec, APc) and the state snapshot the ledger starts from after it."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE,
                               related_name="phase_rating_changes")
    phase = models.ForeignKey(RatingPhase, on_delete=models.CASCADE,
                              related_name="rating_changes")
    stratum = models.PositiveSmallIntegerField()  # at the close, before any promotion
    start_rating = models.BigIntegerField()  # at the opening: the phase's Ec rating
    old_rating = models.BigIntegerField()  # at the close
    new_rating = models.BigIntegerField()  # old x final coefficient (R45)
    rating_after = models.BigIntegerField()  # the new base when promoted (R26)
    games = models.PositiveIntegerField()  # decided phase games, counted for R26
    wins = models.PositiveIntegerField()
    final_coefficient = models.FloatField()
    victory_score = models.IntegerField()  # R28
    promoted_to = models.PositiveSmallIntegerField(null=True, blank=True)
    figures = models.JSONField(default=dict)
    played_at = models.DateTimeField()  # the phase's close: its place in the R30 list
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "phase"],
                                               name="one_change_per_phase")]
        indexes = [models.Index(fields=["player", "played_at"], name="phasechange_player_at")]
        ordering = ["played_at", "phase_id"]

    @property
    def delta(self) -> int:
        return self.new_rating - self.old_rating

    @property
    def co_champion(self) -> bool:
        """R28, R44: a victory score of 115 or more makes the player a co-champion."""
        return victory.is_champion(self.victory_score)


class ArbiterAppointment(models.Model):
    """R39: a person (a site account) appointed by an affiliated body to arbitrate.

    The scope is one game outside any event (``game``, the registry's entry of a live or
    archived game, whose ``body`` must be the appointing body); an event's games are its
    arbiters' (``Event.arbiters``) alone, and who may arbitrate a game stays one question
    (``registry.arbiters.may_arbitrate``, issue 41). An appointment is never deleted: removal
    sets ``removed``, so who could act when stays known; both are in the audit trail.
    """

    body = models.ForeignKey(AffiliatedBody, on_delete=models.PROTECT, related_name="arbiters")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="arbiter_appointments")
    game = models.ForeignKey(RegistryGame, on_delete=models.CASCADE, related_name="arbiters")
    appointed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                     on_delete=models.SET_NULL, related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    removed = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], condition=models.Q(removed=None),
                                    name="one_live_appointment_per_game_and_user"),
        ]
        ordering = ["created", "id"]

    def __str__(self) -> str:
        return f"{self.user} arbiter of {self.game_id} for {self.body}"


class SignedGameRecord(models.Model):
    """The kept record of a finished game of a game other than talu (issue 36): its own text
    notation, and the signed record (``registry.records.game_record``: canonical JSON of the
    game, variant, options, seats, result and public events, hashed and signed by the site's
    key as R33's entries are). Talu's games keep the book's files (``GameRecord``) instead.

    One per game (``game`` is unique): ``registry.game_records.keep_record`` writes it once and
    returns it on every later call, two workers at once included. ``canonical`` is the RFC 8785
    text the ``hash`` covers; the downloadable file is rebuilt from it and the signature block
    (``registrar_id``, the signing key's ``fingerprint``, the base64 ``signature``)."""

    game = models.OneToOneField("play.Game", on_delete=models.PROTECT,
                                related_name="signed_record")
    notation = models.TextField()
    canonical = models.TextField()
    hash = models.CharField(max_length=64)
    signature = models.TextField()
    registrar_id = models.CharField(max_length=64)
    fingerprint = models.CharField(max_length=64)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"signed record of game {self.game_id}"


# The clubs' own rows (issue 38): applications and claim codes, in their package.
from registry.clubs.models import BodyApplication, PlayerClaim  # noqa: E402, F401
