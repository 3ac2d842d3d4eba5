"""The channel-layer settings: Channels' in-memory layer by default, channels-redis with
``REDIS_URL``.

Kept apart from ``settings.py`` because its numbers (capacity, expiry, pool size) are chosen by
measurement under load (``benchmarks/bench_load.py``; the figures and the reasons are in
docs/channel-layer.md) and change for that reason alone.

Variables (all optional; the defaults are the measured choice):

``TALU_CHANNEL_BACKEND``        ``pubsub`` (Redis pub/sub with pipelined publishes, the
                                default: ``talu_site.pubsub_layer``), ``pubsub-locked``
                                (channels-redis's pub/sub layer as shipped) or ``core`` (Redis
                                sorted sets: queues with a capacity and expiries)
``TALU_CHANNEL_PREFIX``         key prefix in Redis (default ``talu``)
``TALU_CHANNEL_CAPACITY``       core only: messages a process's channel may hold before sends to
                                it are dropped (1000)
``TALU_CHANNEL_EXPIRY``         core only: seconds an undelivered message lives (60)
``TALU_CHANNEL_GROUP_EXPIRY``   core only: seconds a group membership lives without renewal
                                (300)
``TALU_CHANNEL_POOL_MAX``       most Redis connections per process and host (200)
``TALU_CHANNEL_SHARDS``         pubsub only: connections per process that publish and receive,
                                groups spread over them (8)
``TALU_CHANNEL_CONNECT_TIMEOUT`` seconds to wait for a Redis connection (5)
``TALU_CHANNEL_ENCRYPTION_KEYS`` comma-separated keys: encrypt messages in Redis (off)
"""

from __future__ import annotations

import os
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from talu_site.envvars import env_int

# The measured defaults (docs/channel-layer.md says why each is what it is).
BACKENDS = {
    "pubsub": "talu_site.pubsub_layer.PipelinedPubSubChannelLayer",
    "pubsub-locked": "channels_redis.pubsub.RedisPubSubChannelLayer",
    "core": "channels_redis.core.RedisChannelLayer",
}
BACKEND = "pubsub"
CAPACITY = 1000
EXPIRY = 60
GROUP_EXPIRY = 300
POOL_MAX = 200
SHARDS = 8
CONNECT_TIMEOUT = 5

def _encryption_keys() -> list[str] | None:
    raw = os.environ.get("TALU_CHANNEL_ENCRYPTION_KEYS", "").strip()
    if not raw:
        return None
    keys = [k.strip() for k in raw.split(",") if k.strip()]
    if any(len(k) < 16 for k in keys):
        raise ImproperlyConfigured("TALU_CHANNEL_ENCRYPTION_KEYS: each key needs 16 characters "
                                   "or more")
    return keys


def channel_layers() -> dict[str, Any]:
    """``CHANNEL_LAYERS`` from the environment; a bad ``REDIS_URL`` fails at start-up."""
    redis_url = os.environ.get("REDIS_URL", "").strip()
    if not redis_url:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    if not redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(f"REDIS_URL={redis_url!r} must start with redis:// or rediss://")
    host = {
        "address": redis_url,
        # redis-py's asyncio pool refuses (raises) past this many connections rather than
        # waiting: a ceiling against a runaway, far above what the load benchmark uses.
        "max_connections": env_int("TALU_CHANNEL_POOL_MAX", POOL_MAX),
        "socket_connect_timeout": env_int("TALU_CHANNEL_CONNECT_TIMEOUT", CONNECT_TIMEOUT),
    }
    config: dict[str, Any] = {
        "hosts": [host],
        "prefix": os.environ.get("TALU_CHANNEL_PREFIX", "talu"),
        "capacity": env_int("TALU_CHANNEL_CAPACITY", CAPACITY),
        "expiry": env_int("TALU_CHANNEL_EXPIRY", EXPIRY),
        "group_expiry": env_int("TALU_CHANNEL_GROUP_EXPIRY", GROUP_EXPIRY),
    }
    keys = _encryption_keys()
    if keys:
        config["symmetric_encryption_keys"] = keys
    backend = os.environ.get("TALU_CHANNEL_BACKEND", "").strip() or BACKEND
    if backend not in BACKENDS:
        raise ImproperlyConfigured(f"TALU_CHANNEL_BACKEND={backend!r} must be one of "
                                   f"{', '.join(BACKENDS)}")
    if backend.startswith("pubsub"):
        # Redis pub/sub keeps no queue: capacity and the expiries do not apply. The same
        # Redis listed several times is several shards, each with its own connections (and,
        # in channels-redis's own layer, its own publish lock; docs/channel-layer.md). Every
        # process hashes a group to the same shard.
        config = {k: v for k, v in config.items()
                  if k in ("hosts", "prefix", "symmetric_encryption_keys")}
        config["hosts"] = config["hosts"] * env_int("TALU_CHANNEL_SHARDS", SHARDS, minimum=1)
    return {"default": {"BACKEND": BACKENDS[backend], "CONFIG": config}}
