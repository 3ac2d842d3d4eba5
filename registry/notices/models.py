"""One notice on the site: what it says, where it leads, whether its player has seen it."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Notification(models.Model):
    """A notice for ``user`` of ``kind`` (``registry.accounts.prefs.KINDS``), stored only when
    they get that kind on the site (``services.notify``). ``url`` is a path of this site."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="notifications")
    kind = models.CharField(max_length=20)
    text = models.CharField(max_length=300)
    url = models.CharField(max_length=300)
    created = models.DateTimeField(auto_now_add=True)
    read = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [models.Index(fields=["user", "read"], name="notices_unread"),
                   models.Index(fields=["user", "-created"], name="notices_newest")]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}: {self.text[:40]}"
