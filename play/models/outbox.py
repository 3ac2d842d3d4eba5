"""The outbox: what must happen after a game's change is committed, kept until it is done.

The append that ends a game writes a ``finished`` row in the same transaction as the game's
last events (``play.store.log``), so a game cannot end without it and it cannot exist for a game
that did not end. The worker (``play.worker``) claims due rows with a conditional update
(healthchecks' ``sendalerts`` is the model: a claim is a lease, ``claimed_until``; a worker
killed mid-job leaves a row whose lease runs out and another worker takes it) and runs the
subscribers of the row's topic (``play.lifecycle``: archiving the game's records and ratings,
later tournaments and the pool). Subscribers are idempotent, so a job run twice, or run again
after a crash between its work and its ``done``, does nothing the second time.
"""

from __future__ import annotations

from django.db import models


class Outbox(models.Model):
    FINISHED = "finished"

    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="outbox")
    topic = models.CharField(max_length=16, default=FINISHED)
    created = models.DateTimeField(auto_now_add=True)
    due = models.DateTimeField()  # not before (a failed job is retried later)
    claimed_by = models.CharField(max_length=64, blank=True)
    claimed_until = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)
    done = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["done", "due"], name="outbox_due")]
        constraints = [models.UniqueConstraint(fields=["game", "topic"],
                                               name="one_outbox_row_per_game_topic")]
