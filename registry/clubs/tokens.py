"""A body's API tokens on its keys page (issue 38): create, rotate, revoke.

A token is what the body's software sends to submit its records (``/api/v1/games/``,
``registry.api``). It is made by ``registry.tokens`` and shown once: the site keeps only its
SHA-256, so a lost token is replaced (rotated), never shown again. Rotating revokes the old
token in the same transaction that makes the new one, so the old one stops working at once.
Only the body's registrars and the federation's staff; every change audited.
"""

from __future__ import annotations

from django.db import transaction

from registry import tokens
from registry.clubs.services import ClubError, _audit, require_registrar, text_field
from registry.models import AffiliatedBody, AuditEntry, BodyToken

DEFAULT_LABEL = "API token"


def tokens_of(body: AffiliatedBody) -> list[BodyToken]:
    """The body's tokens, live ones first, newest first."""
    return list(body.tokens.order_by("revoked", "-created", "-id"))


def _label(value) -> str:
    value = value.strip() if isinstance(value, str) else ""
    return text_field(value, "The token's label", max_length=100) if value else DEFAULT_LABEL


def _live(body: AffiliatedBody, token_id) -> BodyToken:
    try:
        pk = int(token_id)
    except (TypeError, ValueError):
        raise ClubError("No such token of this body.", 404) from None
    token = BodyToken.objects.select_for_update().filter(pk=pk, body=body).first()
    if token is None:
        raise ClubError("No such token of this body.", 404)
    if token.revoked:
        raise ClubError(f"The token {token.label or token.pk} was revoked already.", 409)
    return token


def create(user, body: AffiliatedBody, label) -> tuple[BodyToken, str]:
    require_registrar(user, body)
    label = _label(label)
    with transaction.atomic():
        token, plain = tokens.issue(body, label)
        _audit(AuditEntry.TOKEN, user, body, change="create", token=token.pk, label=label)
    return token, plain


def rotate(user, body: AffiliatedBody, token_id) -> tuple[BodyToken, str]:
    """The token replaced: the old one revoked, a new one with its label (shown once)."""
    require_registrar(user, body)
    with transaction.atomic():
        old = _live(body, token_id)
        tokens.revoke_token(old)
        token, plain = tokens.issue(body, old.label)
        _audit(AuditEntry.TOKEN, user, body, change="rotate", token=token.pk, old=old.pk,
               label=old.label)
    return token, plain


def revoke(user, body: AffiliatedBody, token_id) -> BodyToken:
    require_registrar(user, body)
    with transaction.atomic():
        token = _live(body, token_id)
        tokens.revoke_token(token)
        _audit(AuditEntry.TOKEN, user, body, change="revoke", token=token.pk,
               label=token.label)
    return token
