"""The site's absolute addresses in mails: ``TALU_SITE_URL`` and a path, never the request's
Host header (a mail's link must not point wherever a request said it came from)."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse


def absolute(name: str, *args) -> str:
    return settings.TALU_SITE_URL.rstrip("/") + reverse(name, args=args)
