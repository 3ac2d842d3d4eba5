"""Events of affiliated bodies (R41): the announced settings, the entries, the rounds and their
pairings and results.

The rows are the truth; the pure pairing core (``registry.events.pairing``) is handed a
``Tournament`` built from them (``registry.events.state``) and its answer is written back by
the services (``registry.events.services``), each in one transaction.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from registry.models import AffiliatedBody, Player, RatingPhase

SYSTEMS = [("swiss", "Swiss (FIDE Dutch)"), ("round_robin", "Round robin"),
           ("double_round_robin", "Double round robin"), ("hettlandic", "Hettlandic")]
MODELS = [("S1", "S1"), ("S2", "S2"), ("S3", "S3")]
POLICIES = [("off", "off: only the arbiter acts"), ("warn", "warn: automatic warnings")]
VENUES = [("online", "online (played on the site)"), ("board", "over the board")]


class Event(models.Model):
    """An event and its settings, announced and fixed before round 1 (R41)."""

    ANNOUNCED, RUNNING, CLOSED = "announced", "running", "closed"
    STATUSES = [(ANNOUNCED, "announced"), (RUNNING, "running"), (CLOSED, "closed")]
    # the settings an arbiter may change only before round 1 is paired
    SETTINGS = ("name", "variant", "time_control", "rated", "scoring_model", "system",
                "rounds", "auto_arbiter", "venue", "min_rating", "min_stratum", "max_byes")

    body = models.ForeignKey(AffiliatedBody, on_delete=models.PROTECT, related_name="events")
    name = models.CharField(max_length=200)
    variant = models.CharField(max_length=16, default="standard")
    # R36's time control in canonical form (``play.games.clock``): its online games' clocks,
    # and the text R38 records, e.g. "fischer 600+5" or "untimed"
    time_control = models.CharField(max_length=40, default="untimed")
    rated = models.BooleanField(default=True)
    scoring_model = models.CharField(max_length=2, choices=MODELS, default="S1")
    system = models.CharField(max_length=20, choices=SYSTEMS, default="swiss")
    rounds = models.PositiveSmallIntegerField(default=0)  # a Swiss's; 0: from the system
    auto_arbiter = models.CharField(max_length=4, choices=POLICIES, default="warn")
    venue = models.CharField(max_length=6, choices=VENUES, default="online")
    # chat beside the event's games (issue 39): off unless its arbiters allow it; changed at
    # any time (not one of SETTINGS), read when a message is sent
    chat = models.BooleanField(default=False)
    min_rating = models.PositiveIntegerField(null=True, blank=True)
    # issue 38: the half-point byes a player may ask for on the event page (a Swiss's, C.04.1;
    # registry.events.bye_requests); 0: the event takes no bye requests
    max_byes = models.PositiveSmallIntegerField(default=0)
    min_stratum = models.PositiveSmallIntegerField(null=True, blank=True)
    arbiters = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="arbiter_of")
    status = models.CharField(max_length=10, choices=STATUSES, default=ANNOUNCED)
    initial_colour = models.CharField(max_length=5, blank=True)  # R43: drawn at round 1
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    closed = models.DateTimeField(null=True, blank=True)
    # bumped by every change of entries, pairings or results: the key of the cached standings
    revision = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player of an event: a registered player (online events need one), or an
    over-the-board player without an account, entered by the arbiter (``player`` empty)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT,
                               related_name="event_entries")
    key = models.CharField(max_length=40)  # the player id (R26), or "BOARD-<n>" for a guest
    name = models.CharField(max_length=200)
    rating = models.BigIntegerField(default=0)  # at the close of entries (R42/R43)
    joined_round = models.PositiveSmallIntegerField(default=1)
    withdrawn_after = models.PositiveSmallIntegerField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "key"],
                                               name="events_entry_unique_key")]
        ordering = ["-rating", "key"]

    def __str__(self) -> str:
        return self.name


class Round(models.Model):
    """A round of an event: paired, then started (by the arbiter, or by the worker at its
    scheduled time, R41)."""

    PAIRED, STARTED = "paired", "started"
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="event_rounds")
    number = models.PositiveSmallIntegerField()
    state = models.CharField(max_length=8, default=PAIRED)
    forced = models.BooleanField(default=False)  # paired before the previous was complete
    paired = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    # R41: the start time the arbiter gave the round; the worker starts it then
    # (registry.events.schedule), exactly as the arbiter's start button does
    scheduled = models.DateTimeField(null=True, blank=True)
    # when the worker claimed the mailing of the round's "your game has started" notices:
    # claimed once (a conditional update), so no game's players are mailed twice
    notified = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "number"],
                                               name="events_round_unique_number")]
        indexes = [models.Index(fields=["state", "scheduled"],
                                name="events_round_due")]
        ordering = ["number"]


class PairingRequest(models.Model):
    """A round an arbiter asked to pair, paired by the worker (issue 40,
    ``registry.events.pairer``): no request waits for a pairing, which takes seconds on a
    large Swiss. One an event (a second "Pair" while it waits is the same request). The
    worker claims it by a conditional update (``claimed_by``, ``lease_until``): two workers
    never pair it twice, and a killed worker's claim runs out and another pairs it. ``done``
    of ``total`` players paired so far is the arbiter's progress. The row goes when the round
    is written; a failure stays, with its words, until the arbiter asks again."""

    QUEUED, RUNNING, FAILED = "queued", "running", "failed"
    event = models.OneToOneField(Event, on_delete=models.CASCADE,
                                 related_name="pairing_request")
    number = models.PositiveSmallIntegerField()
    force = models.BooleanField(default=False)
    absent = models.JSONField(default=dict, blank=True)  # entry key -> "H" or "Z"
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                     on_delete=models.SET_NULL, related_name="+")
    state = models.CharField(max_length=8, default=QUEUED)
    claimed_by = models.CharField(max_length=80, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    error = models.CharField(max_length=500, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["state", "lease_until"], name="events_pairreq_due")]


class Pairing(models.Model):
    """A board of a round (``black`` set) or a bye (``bye`` one of U/H/F/Z). ``result`` is in
    TRF's alphabet from white's side (``registry.events.pairing.model``); empty while the game
    is on."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    board = models.PositiveSmallIntegerField(default=0)
    white = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    black = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="+")
    bye = models.CharField(max_length=1, blank=True)
    result = models.CharField(max_length=3, blank=True)  # "1-0", "0-1", "=", "+-", ...
    game = models.OneToOneField("play.Game", null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="event_pairing")
    decided_by = models.CharField(max_length=8, blank=True)  # "game", "arbiter", "system"
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["round__number", "bye", "board"]
        indexes = [models.Index(fields=["round", "board"])]


class ByeRequest(models.Model):
    """A player's bye asked for a future round of a Swiss (issue 38, C.04.1): ``H`` (half a
    point, counted against ``Event.max_byes``) or ``Z`` (no point, not counted). When the
    worker pairs that round the requests become its ``absent`` byes
    (``registry.events.bye_requests``); the row stays as the player's record of it."""

    HALF, ZERO = "H", "Z"
    KINDS = [(HALF, "half-point bye"), (ZERO, "zero-point bye")]
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="bye_requests")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="bye_requests")
    number = models.PositiveSmallIntegerField()  # the round
    kind = models.CharField(max_length=1, choices=KINDS)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number", "entry__key"]
        constraints = [models.UniqueConstraint(fields=["entry", "number"],
                                               name="events_byerequest_unique_round")]


class ManualChange(models.Model):
    """An arbiter's change by hand to a paired round before it starts (issue 38,
    ``registry.events.manual_pairing``): two boards swapped, two players paired by hand, a
    board's colours swapped; with the reason in words, shown beside the boards it touched
    and written as a TRF comment line. ``players``: the keys whose opponent the change chose
    (a player is paired by hand at most twice in an event)."""

    SWAP_BOARDS, PAIR, COLOURS = "swap_boards", "pair", "colours"
    KINDS = [(SWAP_BOARDS, "boards swapped"), (PAIR, "paired by hand"),
             (COLOURS, "colours swapped")]
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="manual_changes")
    kind = models.CharField(max_length=12, choices=KINDS)
    summary = models.CharField(max_length=300)  # what changed, in words (the TRF comment)
    reason = models.CharField(max_length=200)
    players = models.JSONField(default=list, blank=True)
    pairings = models.ManyToManyField(Pairing, related_name="manual_changes", blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                           on_delete=models.SET_NULL, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round__number", "created", "id"]


# --- the Hettlandic system (R44-R46; registry/events/hettlandic.py) ----------------------------

class Hettlandic(models.Model):
    """A Hettlandic event's two phases: ``phase`` is opened when round 1 is paired and closed
    by the arbiter (R45); ``medals`` is the phase-2 Swiss once started (R46)."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="hettlandic")
    phase = models.OneToOneField(RatingPhase, null=True, blank=True, on_delete=models.PROTECT,
                                 related_name="hettlandic")
    phase1_closed = models.DateTimeField(null=True, blank=True)
    phase2_started = models.DateTimeField(null=True, blank=True)
    medals = models.OneToOneField(Event, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="medals_of")
    awarded = models.DateTimeField(null=True, blank=True)  # the final ranking written

    def __str__(self) -> str:
        return f"Hettlandic {self.event}"


class CoChampion(models.Model):
    """R44: a player with a victory score of at least 115 at the close of phase 1; their
    answer to phase 2 and, after it, their rank and award (R46: a decliner keeps the title
    and gets no award)."""

    ACCEPTED, DECLINED = "accepted", "declined"
    ANSWERS = [(ACCEPTED, ACCEPTED), (DECLINED, DECLINED)]

    hettlandic = models.ForeignKey(Hettlandic, on_delete=models.CASCADE,
                                   related_name="champions")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    victory_score = models.IntegerField()
    answer = models.CharField(max_length=8, choices=ANSWERS, blank=True)
    answered = models.DateTimeField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)  # in phase 2
    award = models.CharField(max_length=20, blank=True)  # "Bronze" ... "Diamond", "Tier 9"

    class Meta:
        ordering = ["-victory_score", "entry__key"]
        constraints = [models.UniqueConstraint(fields=["hettlandic", "entry"],
                                               name="events_cochampion_unique")]

    def __str__(self) -> str:
        return f"co-champion {self.entry} of {self.hettlandic.event}"
