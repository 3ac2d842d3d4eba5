"""Body token authentication: ``Authorization: Token <key>`` (or ``Bearer <key>``).

A token belongs to an affiliated body, not to a person, so a token request has no site user:
``request.user`` stays ``AnonymousUser`` and ``request.auth`` is the ``BodyToken``. Looking the
key up (hashing, revocation) is ``registry.tokens.find_token``'s job, not this module's.

Site accounts may also sign requests with HTTP Basic, under the log-in limits of every other
way to log in (``LimitedBasicAuthentication``).
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from registry import logins
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


class LoginRefused(exceptions.Throttled):
    """A password refused unchecked by the log-in limits: 429, ``Retry-After`` and the words."""

    def __init__(self, refusal: logins.LoginRefusal) -> None:
        exceptions.APIException.__init__(self, refusal.message, self.default_code)
        self.wait = refusal.retry_after


class LimitedBasicAuthentication(authentication.BasicAuthentication):
    """HTTP Basic for site accounts (registrars, arbiters, staff), under the same log-in
    limits as the log-in form and the admin's (issue 41, finding 1: REST framework's own was
    never limited, and its wrong passwords did not count toward the form's). The backend
    (``registry.logins``) counts and refuses; this answers a refusal as a 429, not a 401."""

    def authenticate_credentials(self, userid, password, request=None):
        try:
            return super().authenticate_credentials(userid, password, request)
        except exceptions.AuthenticationFailed:
            refusal = logins.refusal_of(request)
            if refusal is None:
                raise
            raise LoginRefused(refusal) from None


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


class LimitedBasicScheme(OpenApiAuthenticationExtension):
    """Documents the limited Basic scheme as REST framework's own is documented."""

    target_class = "registry.api.auth.LimitedBasicAuthentication"
    name = "basicAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "basic",
            "description": "A site account's username and password (registrars, arbiters, "
                           "staff), under the log-in limits: over them a 429 with Retry-After.",
        }
