"""Every API error is JSON ``{"detail": "...", ...}``: never a traceback, never an HTML page.

Shapes (documented as the ``Error`` component of the schema):

* ``{"detail": "..."}`` for authentication, permission, not found, throttling, bad method;
* ``{"detail": "Invalid input.", "errors": {field: [messages]}}`` for malformed requests;
* ``{"detail": "...", "reasons": ["..."]}`` for a submission or correction the registry
  rejected (every reason, and nothing was changed).

An unexpected exception is logged with its traceback on the server and answered with a plain
JSON 500, so a client never sees internals even when ``DEBUG`` is on.
"""

from __future__ import annotations

import logging

from django.core.exceptions import (
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler, set_rollback

log = logging.getLogger(__name__)


class Rejected(exceptions.APIException):
    """The registry refused a submission or correction; ``reasons`` lists every cause."""

    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_detail = "The records were rejected; nothing was changed."
    default_code = "rejected"

    def __init__(self, reasons: list[str], detail: str | None = None) -> None:
        super().__init__(detail or self.default_detail)
        self.reasons = [str(r) for r in reasons] or ["rejected (no reason given)"]


class Conflict(exceptions.APIException):
    """The request is well-formed but the game's state forbids it (e.g. already annulled)."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = "The game cannot be changed so in its present state."
    default_code = "conflict"


def handle(exc, context) -> Response:
    """DRF exception handler: JSON bodies of the shapes above for every error."""
    set_rollback()  # whatever went wrong, an atomic request writes nothing
    if isinstance(exc, SuspiciousOperation):
        # Django refuses a body too large or with too many fields or files while parsing it
        # (in the view, or in the CSRF check before it): the client's fault, said in words.
        code, detail = _refused_body(exc)
        return Response({"detail": detail}, status=code)
    if isinstance(exc, Rejected):
        return Response({"detail": str(exc.detail), "reasons": exc.reasons}, status=exc.status_code)
    if isinstance(exc, exceptions.ValidationError):
        errors = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        return Response({"detail": "Invalid input.", "errors": errors},
                        status=status.HTTP_400_BAD_REQUEST)
    response = exception_handler(exc, context)
    if response is not None:
        if not isinstance(response.data, dict) or "detail" not in response.data:
            response.data = {"detail": str(response.data)}
        return response
    view = context.get("view")
    log.exception("unexpected error in API view %s", type(view).__name__ if view else "?")
    return Response({"detail": "Internal server error: the request could not be completed."},
                    status=status.HTTP_500_INTERNAL_SERVER_ERROR)


def _refused_body(exc: SuspiciousOperation) -> tuple[int, str]:
    if isinstance(exc, RequestDataTooBig):
        return (status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
                "The request body is too large: send each record file at most once, "
                "at most 1 MB each.")
    if isinstance(exc, TooManyFilesSent):
        return status.HTTP_400_BAD_REQUEST, "Too many files uploaded in one request."
    if isinstance(exc, TooManyFieldsSent):
        return status.HTTP_400_BAD_REQUEST, "Too many form fields in one request."
    return status.HTTP_400_BAD_REQUEST, "Malformed request."


@csrf_exempt  # a POST to a wrong path is a 404, not a CSRF page
def not_found(request, *args, **kwargs) -> JsonResponse:
    """JSON 404 for any path under the API that names no endpoint, whatever the method."""
    return JsonResponse({"detail": "No such API endpoint."}, status=404)
