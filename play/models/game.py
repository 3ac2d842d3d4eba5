"""A game and its numbered event log, the game's truth (R40).

A game's state is never stored as a board: it is the fold of its ``GameEvent`` rows, in version
order, by its rules (``play.games``). Version 0 is the opening position; every command's events
get the next versions, unique per game, written by the one append (``play.store.log``) in the
transaction that bumps the game's version. The log answers resyncs and survives restarts.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models

from play.games.clock import time_label
from play.games.registry import DEFAULT_GAME, DEFAULT_VARIANT


class Game(models.Model):
    """A game on the site, in play or finished (``status``): its game and variant (``game``,
    ``variant``: ``variant_key`` is the catalogue's ``talu/standard``), its options, its seats
    (``Seat`` rows: who holds each, the rating brought to it), its version and, once over,
    its result (``ranks`` by seat; ``winner``, the seat ranked first alone, as talu's pages
    and records have always read it).

    A talu game's two seats are also its ``player_i``/``player_o`` and ``rating_i``/
    ``rating_o`` (S3 expectations use them, R23): the columns every talu page, the registry
    and the API read; its ``Seat`` rows say the same (written together at the start)."""

    LIVE, FINISHED = "live", "finished"

    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    #: The game's key in the catalogue (``play.games.registry``): "talu", "tafl", ...
    game = models.CharField(max_length=16, default=DEFAULT_GAME)
    #: The variant's name within its game ("standard", "11x11"): no choices list, so a new
    #: game or variant needs no migration.
    variant = models.CharField(max_length=16, default=DEFAULT_VARIANT)
    #: The game's own options (``Variant.options``: tafl's king's immunity, ...).
    options = models.JSONField(default=dict, blank=True)
    rated = models.BooleanField(default=True)
    #: The automatic arbiter policy (R39): ``warn`` both players once the game is flagged (R14).
    auto_warn = models.BooleanField(default=True)
    #: A two-seat game's players, first seat and second (talu's I and O), as every list and
    #: page of two-player games reads them; None in a game of more seats (``Seat`` rows).
    player_i = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True,
        blank=True
    )
    player_o = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True,
        blank=True
    )
    rating_i = models.BigIntegerField(default=250)
    rating_o = models.BigIntegerField(default=250)
    status = models.CharField(max_length=10, default=LIVE)
    version = models.PositiveIntegerField(default=0)
    #: The seat ranked first alone ("I", "O"), "-" (no winner: null, or a tie) or "" (live,
    #: aborted); ``ranks`` has the whole result.
    winner = models.CharField(max_length=16, blank=True)
    #: The result as ranks by seat (``play.games.protocol.Result``; None while live and for
    #: a game without a result), written by the append with the result.
    ranks = models.JSONField(null=True, blank=True)
    reason = models.CharField(max_length=16, blank=True)
    #: Why a decision was made (R37): time, resignation, abandonment; "aborted"; "" else.
    cause = models.CharField(max_length=16, blank=True)
    #: R36's time control, canonical text (``play.games.clock``): "fischer 180+2", ...
    time_control = models.CharField(max_length=40, default="untimed")
    #: When the running clock runs out, kept by the append with every batch (None: no clock
    #: runs); the worker flags live games whose deadline has passed (``play.worker.clocks``).
    deadline = models.DateTimeField(null=True, blank=True)
    #: The seat to move ("" once over), kept by the append: a player's list of games says
    #: whose turn it is without replaying any (``play.lobby.mygames``).
    to_move = models.CharField(max_length=16, blank=True, default="I")
    #: The deadlines (one per turn) a "your turn" notice and a "one day left" reminder were
    #: sent for (correspondence, ``play.worker.notices``): at most one of each per turn.
    noticed = models.DateTimeField(null=True, blank=True)
    reminded = models.DateTimeField(null=True, blank=True)
    #: An event's game (R41): an opening turn not completed in time is an unplayed loss of
    #: that side, not an abort (R36, R37); set by the event's round (``registry.events``).
    in_event = models.BooleanField(default=False)
    #: When the adjourned game resumes at the time its arbiter set (R38), kept by the append
    #: (None: no time set); the worker resumes it then (``play.worker.clocks.resume_due``),
    #: claiming it by moving this a lease ahead.
    resume_at = models.DateTimeField(null=True, blank=True)
    detail = models.CharField(max_length=200, blank=True)
    stgn = models.TextField(blank=True)  # the game's notation, refreshed at every turn end
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "-created"]),
                   models.Index(fields=["deadline"], name="game_deadline",
                                condition=models.Q(deadline__isnull=False)),
                   # the adjourned games (nobody to move, R38), for the worker's sessions job
                   models.Index(fields=["id"], name="game_adjourned",
                                condition=models.Q(status="live", to_move="")),
                   # the resumptions an arbiter set (R38), for the worker's clock job
                   models.Index(fields=["resume_at"], name="game_resume_at",
                                condition=models.Q(resume_at__isnull=False))]
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.variant} game {self.uuid}"

    @property
    def variant_key(self) -> str:
        """The variant as the catalogue keys it ("talu/standard")."""
        return f"{self.game}/{self.variant}"

    def side_of(self, user) -> str | None:
        """The seat ``user`` holds in this game, or None (a spectator). A two-seat game reads
        its two columns; a game of more seats its ``Seat`` rows (the first the user holds)."""
        if user is None or not getattr(user, "is_authenticated", False):
            return None
        if self.player_i_id is not None or self.player_o_id is not None:
            order = self.played_seats()
            if user.pk == self.player_i_id:
                return order[0]
            if user.pk == self.player_o_id:
                return order[1]
            return None
        return self.seats.filter(user_id=user.pk).order_by("order").values_list(
            "seat", flat=True).first()

    def holders(self) -> list[tuple[str, object]]:
        """(seat, its player) of each played seat, in order: a two-seat game's columns (no
        query when they were selected with the row), another's ``Seat`` rows."""
        if self.player_i_id is not None or self.player_o_id is not None:
            return list(zip(self.played_seats(), (self.player_i, self.player_o), strict=True))
        return [(s.seat, s.user) for s in self.seats.filter(user__isnull=False)
                .select_related("user").order_by("order")]

    def played_seats(self) -> tuple[str, ...]:
        """The ids of the seats someone holds, in playing order (neutral seats left out; no
        query: the catalogue's)."""
        from play.games.registry import variant_of
        return variant_of(self.variant_key).played

    @property
    def is_live(self) -> bool:
        return self.status == self.LIVE

    @property
    def time_label(self) -> str:
        """The time control's short form for lists ("3+2", "3 days per turn")."""
        return time_label(self.time_control)


class GameEvent(models.Model):
    """One numbered event of a game (``play.games.protocol.Event`` as stored).

    ``seq`` is the client's id of the message that caused it (players' commands only), unique
    per game and side: a resent message is recognised, never applied twice. ``caused_by`` is
    the version of the command's own event for the events that followed from it (the automatic
    arbiter's warnings after a step), so the answer to a command names its last event whether
    it is sent the first time or found again.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    version = models.PositiveIntegerField()
    kind = models.CharField(max_length=8)
    side = models.CharField(max_length=16, blank=True)  # the acting seat ("" when none)
    data = models.JSONField(default=dict)
    text = models.CharField(max_length=40, blank=True)  # "A2-A3", "end", "resigns", ...
    actor = models.CharField(max_length=8, default="player")  # play.games.protocol.ACTOR_KINDS
    #: protocol.VISIBILITIES, or the one seat that may see it (a sealed turn, R38)
    visibility = models.CharField(max_length=16, default="all")
    caused_by = models.PositiveIntegerField(null=True, blank=True)
    seq = models.CharField(max_length=64, null=True, blank=True)
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
