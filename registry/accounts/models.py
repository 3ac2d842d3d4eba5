"""An account's settings, and the mail queue.

The account's own ``User.email`` holds only a verified address: an address given at sign-up
or on the settings page waits in ``AccountSettings.pending_email`` until its link is followed,
so every sender (the notices, Django's password reset) reaches verified addresses only.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

THEMES = [("light", "Light"), ("dark", "Dark")]


class AccountSettings(models.Model):
    """One account's choices (issue 39): its notices by channel and its board preferences.
    Made at first use (``of``): accounts older than the settings have the defaults."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                primary_key=True, related_name="account_settings")
    # an address waiting for its verification link (the account's email is the verified one)
    pending_email = models.EmailField(blank=True, default="")
    # {kind: {"email": bool, "site": bool}}; missing entries have prefs.KINDS' defaults
    notices = models.JSONField(default=dict, blank=True)
    theme = models.CharField(max_length=8, choices=THEMES, default="light")
    sound = models.BooleanField(default=False)  # a page that beeps unasked surprises
    confirm_moves = models.BooleanField(default=False)
    show_overlaps = models.BooleanField(default=False)  # talu's marks: off, as the board had them
    # closed by its owner: the login is gone, the player and their records stay (R31-R35)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "account settings"

    def __str__(self) -> str:
        return f"settings of {self.user_id}"

    @classmethod
    def of(cls, user) -> AccountSettings:
        """The settings of ``user``, read afresh (never a copy kept on the user object, which
        would go stale), made with the defaults if they have none yet."""
        return cls.objects.get_or_create(user=user)[0]

    @classmethod
    def peek(cls, user) -> AccountSettings:
        """The settings of ``user`` to read (every page, every notice): the defaults, unsaved,
        if they have none yet, so reading never writes."""
        return cls.objects.filter(user=user).first() or cls(user=user)


class QueuedMail(models.Model):
    """One mail waiting to be sent, sent, or given up on (``registry.accounts.mailqueue``).

    A runner claims a row with a conditional update (``claim`` and ``leased_until``), so two
    workers never hold one row; a runner killed mid-send leaves it to another once its lease
    runs out."""

    QUEUED, SENT, FAILED = "queued", "sent", "failed"
    STATUSES = [(QUEUED, "queued"), (SENT, "sent"), (FAILED, "failed")]

    to = models.EmailField()
    subject = models.CharField(max_length=200)
    body = models.TextField()
    # extra headers (List-Unsubscribe), name -> value
    headers = models.JSONField(default=dict, blank=True)
    # the notice kind (prefs.KINDS) or "account" (verification, password reset)
    kind = models.CharField(max_length=20)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="+")
    status = models.CharField(max_length=8, choices=STATUSES, default=QUEUED)
    created_at = models.DateTimeField(auto_now_add=True)
    # not before: a retry waits (mailqueue.BACKOFF)
    due_at = models.DateTimeField()
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True, default="")
    claim = models.CharField(max_length=32, blank=True, default="")
    leased_until = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "due_at"], name="accounts_mail_due")]

    def __str__(self) -> str:
        return f"{self.kind} mail to {self.to} ({self.status})"
