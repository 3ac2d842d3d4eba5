"""The rows of clubs online (issue 38): a club's application to the federation, and the claim
code of a player a body registered without an account.

They belong to the ``registry`` app (imported by ``registry.models``); string references keep
this module free of an import of ``registry.models``."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class BodyApplication(models.Model):
    """A club's application for certification (book 5.3.4: "Eligible institutions ... may
    apply for certification"), decided by the federation's staff. A person has at most one
    pending application at a time."""

    PENDING, APPROVED, REFUSED = "pending", "approved", "refused"
    STATUSES = [(PENDING, PENDING), (APPROVED, APPROVED), (REFUSED, REFUSED)]

    applicant = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                  related_name="body_applications")
    name = models.CharField(max_length=200)
    place = models.CharField(max_length=200)
    contact = models.CharField(max_length=200)
    stratum = models.PositiveSmallIntegerField(default=1)
    status = models.CharField(max_length=10, choices=STATUSES, default=PENDING)
    reason = models.CharField(max_length=500, blank=True)  # the federation's, when refused
    body = models.OneToOneField("registry.AffiliatedBody", null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="application")
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    decided = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "registry"
        ordering = ["-created", "-id"]
        constraints = [models.UniqueConstraint(
            fields=["applicant"], condition=models.Q(status="pending"),
            name="one_pending_application_per_person")]

    def __str__(self) -> str:
        return f"application of {self.name} ({self.status})"


class PlayerClaim(models.Model):
    """The claim code of a player a body registered without an account: shown once, on a
    printable page, and only its SHA-256 kept (as API tokens are, ``registry.tokens``). The
    person enters it signed in, and the player (their over-the-board record) becomes their
    account's. A used claim stays, so a second use is told it was used."""

    player = models.OneToOneField("registry.Player", on_delete=models.CASCADE,
                                  related_name="claim")
    code_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    claimed = models.DateTimeField(null=True, blank=True)
    claimed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")

    class Meta:
        app_label = "registry"

    def __str__(self) -> str:
        return f"claim of {self.player_id} ({'used' if self.claimed else 'open'})"
