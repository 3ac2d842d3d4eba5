"""API tokens of affiliated bodies: the plain token is shown once, only its SHA-256 is kept.

A token is 40 random URL-safe characters prefixed ``talu_``; a stolen database gives no usable
token. ``find_token`` is what the API's authentication calls on every request, so it writes
``last_used`` at most once a minute (no write per request).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.utils import timezone

from registry.models import AffiliatedBody, BodyToken

PREFIX = "talu_"
LAST_USED_EVERY = timedelta(minutes=1)


def hash_token(plain: str) -> str:
    return hashlib.sha256(plain.encode("utf-8")).hexdigest()


def issue(body: AffiliatedBody, label: str = "") -> tuple[BodyToken, str]:
    """A new token for ``body``: its row and the plain token (shown once); only the hash is
    stored."""
    plain = PREFIX + secrets.token_urlsafe(30)
    token = BodyToken.objects.create(body=body, key_hash=hash_token(plain), label=label[:100])
    return token, plain


def issue_token(body: AffiliatedBody, label: str = "") -> str:
    """A new token for ``body``: returns the plain token (once); stores only its hash."""
    return issue(body, label)[1]


def find_token(plain: str) -> BodyToken | None:
    """The live (not revoked) token with this plain text, or None."""
    if not isinstance(plain, str) or not plain.startswith(PREFIX) or len(plain) > 200:
        return None
    token = (BodyToken.objects.select_related("body")
             .filter(key_hash=hash_token(plain), revoked=False).first())
    if token is None:
        return None
    now = timezone.now()
    if token.last_used is None or now - token.last_used >= LAST_USED_EVERY:
        BodyToken.objects.filter(pk=token.pk).update(last_used=now)
        token.last_used = now
    return token


def revoke_token(token: BodyToken) -> None:
    BodyToken.objects.filter(pk=token.pk).update(revoked=True)
    token.revoked = True
