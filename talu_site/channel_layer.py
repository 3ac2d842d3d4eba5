"""The channel-layer settings: Channels' in-memory layer by default, channels-redis with
``REDIS_URL``.

Kept apart from ``settings.py`` because its numbers (capacity, expiry, pool size) are chosen by
measurement under load (``benchmarks/bench_load.py``; the figures and the reasons are in
docs/channel-layer.md) and change for that reason alone.

Its variables (``TALU_CHANNEL_*``; all optional, the defaults are the measured choice) are in
the table of docs/deployment.md; what each does and why its default is what it is, in
docs/channel-layer.md. They are read when the settings load (``channel_layers``).
"""

from __future__ import annotations

from typing import Any

from talu_site.envvars import env_choice, env_int, env_list, env_text, env_url

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
#: A key prefix in Redis (this one and the cache's, ``TALU_CACHE_PREFIX``).
PREFIX = r"[A-Za-z0-9._:-]+"
PREFIX_ACCEPTS = "letters, digits, '.', '_', ':' and '-'"


def _encryption_key(item: str) -> str:
    if len(item) < 16:
        raise ValueError("is shorter than 16 characters")
    return item


def redis_url() -> str:
    """``REDIS_URL`` ("" when unset: the in-memory layer, one process)."""
    return env_url("REDIS_URL", "", ("redis", "rediss", "unix"),
                   "redis://host:6379/0, rediss://... or unix://...")


def channel_layers(redis: str | None = None) -> dict[str, Any]:
    """``CHANNEL_LAYERS`` for ``redis`` (``REDIS_URL`` when not given).

    Every variable is read whether or not Redis is used, so a bad value stops the process at
    start-up on a developer's machine too, not first in production."""
    redis = redis_url() if redis is None else redis
    host = {
        "address": redis,
        # redis-py's asyncio pool refuses (raises) past this many connections rather than
        # waiting: a ceiling against a runaway, far above what the load benchmark uses.
        "max_connections": env_int("TALU_CHANNEL_POOL_MAX", POOL_MAX, unit="connections"),
        "socket_connect_timeout": env_int("TALU_CHANNEL_CONNECT_TIMEOUT", CONNECT_TIMEOUT,
                                          unit="seconds"),
    }
    config: dict[str, Any] = {
        "hosts": [host],
        "prefix": env_text("TALU_CHANNEL_PREFIX", "talu", PREFIX_ACCEPTS, pattern=PREFIX,
                           mismatch="is not a key prefix"),
        "capacity": env_int("TALU_CHANNEL_CAPACITY", CAPACITY, unit="messages"),
        "expiry": env_int("TALU_CHANNEL_EXPIRY", EXPIRY, unit="seconds"),
        "group_expiry": env_int("TALU_CHANNEL_GROUP_EXPIRY", GROUP_EXPIRY, unit="seconds"),
    }
    keys = env_list("TALU_CHANNEL_ENCRYPTION_KEYS", _encryption_key,
                    "comma-separated keys of 16 characters or more", secret=True)
    if keys:
        config["symmetric_encryption_keys"] = keys
    backend = env_choice("TALU_CHANNEL_BACKEND", BACKEND, tuple(BACKENDS))
    shards = env_int("TALU_CHANNEL_SHARDS", SHARDS, minimum=1, unit="connections")
    if not redis:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    if backend.startswith("pubsub"):
        # Redis pub/sub keeps no queue: capacity and the expiries do not apply. The same
        # Redis listed several times is several shards, each with its own connections (and,
        # in channels-redis's own layer, its own publish lock; docs/channel-layer.md). Every
        # process hashes a group to the same shard.
        config = {k: v for k, v in config.items()
                  if k in ("hosts", "prefix", "symmetric_encryption_keys")}
        config["hosts"] = config["hosts"] * shards
    return {"default": {"BACKEND": BACKENDS[backend], "CONFIG": config}}
