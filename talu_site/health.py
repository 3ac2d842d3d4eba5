"""The health endpoint the proxy and the container checks use (issue 7).

``GET /healthz`` answers 200 ``{"status": "ok", "database": "ok"[, "channel_layer": "ok"]}``
when this process can reach its database and, when ``REDIS_URL`` is set, the Redis behind the
channel layer; otherwise 503 with the part that is ``"down"``. Each check is short (a
``SELECT 1``, a Redis ``PING`` with a one-second timeout) and can never answer with a traceback:
a proxy or an orchestrator reads the status code, an operator reads the JSON.
"""

from __future__ import annotations

import contextlib
import logging

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

log = logging.getLogger(__name__)

REDIS_TIMEOUT = 1.0  # seconds


def database_ok() -> bool:
    try:
        with connection.cursor() as cur:
            cur.execute("SELECT 1")
        return True
    except Exception as err:
        log.warning("health: database unreachable: %s", err)
        return False


def channel_layer_ok(url: str) -> bool:
    """A Redis PING on a connection of its own (the layer's pools belong to event loops)."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=REDIS_TIMEOUT,
                                  socket_timeout=REDIS_TIMEOUT)
    try:
        return bool(client.ping())
    except Exception as err:
        log.warning("health: redis unreachable: %s", err)
        return False
    finally:
        with contextlib.suppress(Exception):  # closing a connection that never opened
            client.close()


@never_cache
def healthz(request):
    """200 when the database (and Redis, when used) answer; 503 with what is down."""
    checks = {"database": database_ok()}
    redis_url = getattr(settings, "REDIS_URL", "")
    if redis_url:
        checks["channel_layer"] = channel_layer_ok(redis_url)
    ok = all(checks.values())
    body = {"status": "ok" if ok else "unavailable"}
    body.update({name: "ok" if up else "down" for name, up in checks.items()})
    return JsonResponse(body, status=200 if ok else 503)
