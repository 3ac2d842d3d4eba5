"""The channel-layer settings: Channels' in-memory layer by default, channels-redis with
``REDIS_URL``.

Kept apart from ``settings.py`` because its numbers (capacity, expiry, pool size) are chosen by
measurement under load (BENCHMARKS.md, docs/deployment.md) and change for that reason alone.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from django.core.exceptions import ImproperlyConfigured


def channel_layers(env_int: Callable[..., int]) -> dict[str, Any]:
    """``CHANNEL_LAYERS`` from the environment; a bad ``REDIS_URL`` fails at start-up."""
    redis_url = os.environ.get("REDIS_URL", "").strip()
    if not redis_url:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    if not redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(f"REDIS_URL={redis_url!r} must start with redis:// or rediss://")
    return {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [redis_url],
                "prefix": os.environ.get("TALU_CHANNEL_PREFIX", "talu"),
                "capacity": env_int("TALU_CHANNEL_CAPACITY", 500),
                "expiry": env_int("TALU_CHANNEL_EXPIRY", 60),
            },
        }
    }
