"""The health endpoint the proxy and the container checks use (issue 7)."""

from __future__ import annotations

from django.db import connection
from django.http import JsonResponse


def healthz(request):
    """200 when this process can reach its database, 503 otherwise."""
    try:
        with connection.cursor() as cur:
            cur.execute("SELECT 1")
    except Exception:
        return JsonResponse({"status": "unavailable", "database": "down"}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})
