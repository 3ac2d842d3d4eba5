"""Schema generation: every operation documents the errors it can answer with.

drf-spectacular documents success responses only; a client (and schemathesis) must also know
the error shapes. This ``AutoSchema`` adds the ``Error`` component for 400/401/404/429 on every
operation and 403 on writes, unless a view's ``extend_schema`` already documents that status.
"""

from __future__ import annotations

from drf_spectacular import openapi
from rest_framework import serializers

ERROR_DESCRIPTIONS = {
    "400": "Malformed request (bad field or query parameter): `errors` says which.",
    "401": "Missing, malformed, invalid or revoked credential.",
    "403": "Authenticated, but not allowed to do this.",
    "404": "No such object (or page).",
    "429": "Too many requests: see the Retry-After header.",
}


class ErrorSerializer(serializers.Serializer):
    """The one error shape of the API."""

    detail = serializers.CharField(help_text="What went wrong, in words.")
    errors = serializers.DictField(
        child=serializers.JSONField(), required=False,
        help_text="Per-field messages of a malformed request (400).",
    )
    reasons = serializers.ListField(
        child=serializers.CharField(), required=False,
        help_text="Every reason the registry rejected submitted records (422).",
    )


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's AutoSchema plus the error responses above, and public reads."""

    def get_auth(self):
        auths = super().get_auth()
        # Reads are public (ReadOrWriter): no credential is one of the accepted options.
        if self.method in ("GET", "HEAD", "OPTIONS") and {} not in auths:
            auths.append({})
        return auths

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        codes = ["400", "401", "404", "429"]
        if self.method not in ("GET", "HEAD", "OPTIONS"):
            codes.append("403")
        for code in codes:
            if code not in responses:
                body = self._get_response_for_code(ErrorSerializer, code, ["application/json"])
                body["description"] = ERROR_DESCRIPTIONS[code]
                if code == "429":
                    body["headers"] = {"Retry-After": {
                        "schema": {"type": "integer"},
                        "description": "Seconds until a request will be accepted again."}}
                responses[code] = body
        return dict(sorted(responses.items()))
