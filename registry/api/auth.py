"""Body token authentication: ``Authorization: Token <key>`` (or ``Bearer <key>``).

A token belongs to an affiliated body, not to a person, so a token request has no site user:
``request.user`` stays ``AnonymousUser`` and ``request.auth`` is the ``BodyToken``. Looking the
key up (hashing, revocation) is ``registry.tokens.find_token``'s job, not this module's.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from registry.tokens import find_token

KEYWORDS = ("token", "bearer")


class BodyTokenAuthentication(authentication.BaseAuthentication):
    """Authenticates an affiliated body by one of its (unrevoked) tokens."""

    keyword = "Token"

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].decode("latin-1").lower() not in KEYWORDS:
            return None  # not ours: session or basic auth may still apply
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(
                "Malformed Authorization header: use 'Token <key>' with no spaces in the key."
            )
        try:
            key = header[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("The token has invalid characters.") from None
        return self.authenticate_key(key)

    def authenticate_key(self, key: str):
        token = find_token(key)  # only live (unrevoked) tokens are found
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid or revoked token.")
        return AnonymousUser(), token

    def authenticate_header(self, request) -> str:
        # A WWW-Authenticate header makes DRF answer 401 (not 403) to a missing credential.
        return self.keyword


def body_of(request):
    """The affiliated body a request speaks for through its token, or None."""
    return getattr(getattr(request, "auth", None), "body", None)


class BodyTokenScheme(OpenApiAuthenticationExtension):
    """Documents the token scheme in the OpenAPI schema."""

    target_class = "registry.api.auth.BodyTokenAuthentication"
    name = "bodyToken"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "An affiliated body's API token: `Token <key>` (or `Bearer <key>`).",
        }
