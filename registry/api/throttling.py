"""Rate limits with three separate scopes: anonymous clients, site users, affiliated bodies.

A body's token is counted per body (all its tokens together), so issuing more tokens does not
buy more requests. Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` under the keys
``anon``, ``user`` and ``body`` and are read on each request (not frozen at import as DRF's
own classes do), so settings overrides in tests and deployments take effect.
"""

from __future__ import annotations

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from registry.api.auth import body_of
from talu_site import clientaddr


class _ScopedThrottle(SimpleRateThrottle):
    def get_ident(self, request) -> str:
        # Not DRF's: it believed X-Forwarded-For from anyone (issue 27, finding 3).
        return clientaddr.limit_key(clientaddr.of_request(request))

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def allow_request(self, request, view) -> bool:
        # Re-read the rate: the class attribute DRF sets at import time would go stale.
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)


class BodyRateThrottle(_ScopedThrottle):
    """Requests made with a body's token, counted per body."""

    scope = "body"

    def get_cache_key(self, request, view) -> str | None:
        body = body_of(request)
        if body is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": body.pk}


class UserRateThrottle(_ScopedThrottle):
    """Requests of a logged-in site user (session or basic auth), counted per user."""

    scope = "user"

    def get_cache_key(self, request, view) -> str | None:
        if body_of(request) is not None or not request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class AnonRateThrottle(_ScopedThrottle):
    """Requests with no credential, counted per client address."""

    scope = "anon"

    def get_cache_key(self, request, view) -> str | None:
        if body_of(request) is not None or request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
