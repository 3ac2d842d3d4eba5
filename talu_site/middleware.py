"""Site-wide request guards and headers (issue 27): a request body larger than the site takes
is refused before anything reads it; every answer carries the Content-Security-Policy.

Django bounds what it holds in memory of a form (``DATA_UPLOAD_MAX_MEMORY_SIZE``), but a JSON
body is read whole by the API's parser and an upload is spooled to disk whatever its size.
nginx refuses bodies over ``client_max_body_size`` (4 MB, deploy/nginx.conf); this is the same
limit for a server reached without it (``./dev serve``, a proxy configured otherwise), answered
before a byte of the body is read: 413, JSON under ``/api/``, a page elsewhere.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import JsonResponse
from django.shortcuts import render

TOO_LARGE = "The request body is too large (at most {limit} bytes)."


def _declared_length(request) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0  # Django reads a malformed length as none at all, and so do we


class BodyLimitMiddleware:
    """413 for a declared body over ``TALU_MAX_REQUEST_BYTES``; and for the site's pages (the
    API answers its own, field by field), 404 for a path and 400 for a query holding a NUL,
    which no page takes and PostgreSQL's text refuses (a 500 in any view that queried with it,
    the admin's search among them)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        if not request.path.startswith("/api/"):
            if "\x00" in request.path:
                return render(request, "error.html", {"title": "Not found",
                                                      "message": "No such page."}, status=404)
            if any("\x00" in k or "\x00" in v for k, vs in request.GET.lists() for v in vs):
                return render(request, "error.html", {
                    "title": "Bad request",
                    "message": "The address holds a character no page takes (NUL)."},
                    status=400)
            refused = _refused_form(request)
            if refused is not None:
                return refused
        limit = settings.TALU_MAX_REQUEST_BYTES
        if _declared_length(request) > limit:
            detail = TOO_LARGE.format(limit=limit)
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": detail}, status=413)
            return render(request, "error.html", {"title": "Too large", "message": detail},
                          status=413)
        return self.get_response(request)


FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _refused_form(request):
    """A page's form answered before any view reads it: a NUL in a field (no page takes one,
    and PostgreSQL refuses it in whatever query a view makes with it: the event form's body,
    the challenge's opponent), too many fields or files (400) or more than Django holds in
    memory (413); said in words, with no ERROR log line (Django's own answer to the last three
    logs one and shows a bare "Bad Request")."""
    if request.method != "POST" or not request.content_type.startswith(FORM_TYPES):
        return None
    try:
        post = request.POST
        request.FILES  # noqa: B018 - parsed with the fields: its limits too
    except (TooManyFieldsSent, TooManyFilesSent) as err:
        return render(request, "error.html", {
            "title": "Bad request",
            "message": f"The form has too many fields or files ({err})."}, status=400)
    except RequestDataTooBig:
        return render(request, "error.html", {
            "title": "Too large",
            "message": "The form is too large for the site to read."}, status=413)
    if any("\x00" in k or "\x00" in v for k, vs in post.lists() for v in vs):
        return render(request, "error.html", {
            "title": "Bad request",
            "message": "The form holds a character no page takes (NUL)."}, status=400)
    return None


class ContentSecurityPolicyMiddleware:
    """Adds ``TALU_CSP`` as the ``Content-Security-Policy`` of every answer (Django 5.2 has no
    CSP of its own). A page that set one itself keeps its own."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        policy = settings.TALU_CSP
        if policy and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy
        return response
