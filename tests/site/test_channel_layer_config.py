"""The channel-layer knobs come from the environment, with the measured defaults, and bad
values stop the server at start-up instead of being guessed at."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from talu_site import channel_layer


def config(monkeypatch, **env: str) -> dict:
    for name in ("REDIS_URL", "TALU_CHANNEL_BACKEND", "TALU_CHANNEL_CAPACITY",
                 "TALU_CHANNEL_EXPIRY", "TALU_CHANNEL_GROUP_EXPIRY", "TALU_CHANNEL_POOL_MAX",
                 "TALU_CHANNEL_ENCRYPTION_KEYS", "TALU_CHANNEL_SHARDS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return channel_layer.channel_layers()["default"]


def test_in_memory_without_redis(monkeypatch):
    assert config(monkeypatch)["BACKEND"] == "channels.layers.InMemoryChannelLayer"


def test_measured_default_is_redis_pub_sub(monkeypatch):
    layer = config(monkeypatch, REDIS_URL="redis://127.0.0.1:6379/0")
    assert layer["BACKEND"] == "talu_site.pubsub_layer.PipelinedPubSubChannelLayer"
    host = {"address": "redis://127.0.0.1:6379/0", "max_connections": channel_layer.POOL_MAX,
            "socket_connect_timeout": channel_layer.CONNECT_TIMEOUT}
    assert layer["CONFIG"] == {"hosts": [host] * channel_layer.SHARDS, "prefix": "talu"}
    assert channel_layer.SHARDS == 8  # measured (docs/channel-layer.md)


def test_pub_sub_shards_of_one_redis(monkeypatch):
    """Each listed host is a shard with its own publish lock; every process hashes a group to
    the same one, so the same Redis several times is just more publishes in flight."""
    cfg = config(monkeypatch, REDIS_URL="redis://r:6379/1", TALU_CHANNEL_SHARDS="3")["CONFIG"]
    assert [h["address"] for h in cfg["hosts"]] == ["redis://r:6379/1"] * 3
    with pytest.raises(ImproperlyConfigured):
        config(monkeypatch, REDIS_URL="redis://r:6379/1", TALU_CHANNEL_SHARDS="0")


def test_channels_redis_own_pub_sub_layer_on_request(monkeypatch):
    """``pubsub-locked``: channels-redis's layer as shipped (a lock across each publish), kept
    for comparison (docs/channel-layer.md) and as a way back; configured like ``pubsub``."""
    layer = config(monkeypatch, REDIS_URL="redis://r:6379/1",
                   TALU_CHANNEL_BACKEND="pubsub-locked", TALU_CHANNEL_SHARDS="2")
    assert layer["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert [h["address"] for h in layer["CONFIG"]["hosts"]] == ["redis://r:6379/1"] * 2
    assert "capacity" not in layer["CONFIG"]


def test_measured_defaults_of_the_core_layer(monkeypatch):
    layer = config(monkeypatch, REDIS_URL="redis://127.0.0.1:6379/0",
                   TALU_CHANNEL_BACKEND="core")
    cfg = layer["CONFIG"]
    assert layer["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert cfg["capacity"] == channel_layer.CAPACITY
    assert cfg["expiry"] == channel_layer.EXPIRY
    assert cfg["group_expiry"] == channel_layer.GROUP_EXPIRY
    assert cfg["hosts"] == [{"address": "redis://127.0.0.1:6379/0",
                             "max_connections": channel_layer.POOL_MAX,
                             "socket_connect_timeout": channel_layer.CONNECT_TIMEOUT}]
    assert "symmetric_encryption_keys" not in cfg


def test_environment_overrides(monkeypatch):
    cfg = config(monkeypatch, REDIS_URL="redis://r:6379/2", TALU_CHANNEL_BACKEND="core",
                 TALU_CHANNEL_CAPACITY="7",
                 TALU_CHANNEL_EXPIRY="3", TALU_CHANNEL_GROUP_EXPIRY="600",
                 TALU_CHANNEL_POOL_MAX="12",
                 TALU_CHANNEL_ENCRYPTION_KEYS="a-key-of-16-chars!, another-long-key-x")["CONFIG"]
    assert (cfg["capacity"], cfg["expiry"], cfg["group_expiry"]) == (7, 3, 600)
    assert cfg["hosts"][0]["max_connections"] == 12
    assert cfg["symmetric_encryption_keys"] == ["a-key-of-16-chars!", "another-long-key-x"]


@pytest.mark.parametrize("env", [
    {"TALU_CHANNEL_CAPACITY": "lots"},
    {"TALU_CHANNEL_POOL_MAX": "0"},
    {"TALU_CHANNEL_ENCRYPTION_KEYS": "short"},
    {"TALU_CHANNEL_BACKEND": "rabbitmq"},
])
def test_bad_values_fail_at_start(monkeypatch, env):
    with pytest.raises(ImproperlyConfigured):
        config(monkeypatch, REDIS_URL="redis://127.0.0.1:6379/0", **env)
