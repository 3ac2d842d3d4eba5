"""The rows of a Hettlandic event (R44-R46) beside its ``Event``: the rating phase its phase 1
is rated in (R45), the co-champions with their answer to phase 2, and the phase-2 event (an
ordinary grand-master, unrated Swiss of the events app, R46).

Kept out of ``registry.events.models`` so that the other systems' rows stay as they were; the
models module imports these (Django finds them in the events app).
"""

from __future__ import annotations

from django.db import models

from registry.events.models import Entry, Event
from registry.models import RatingPhase


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
