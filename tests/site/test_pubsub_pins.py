"""The pipelined pub/sub layer (``talu_site/pubsub_layer.py``) subclasses private parts of
channels-redis: it is kept for its measured gain (docs/channel-layer.md: a step's ``group_send``
past saturation about halved, 36-92 ms against 57-187 ms; BENCHMARKS.md, issue 7), and only
with the library versions it was written and measured against. A new channels-redis fails here
first: re-read its ``pubsub.py``, re-run the measurements, then widen the pin in pyproject.toml
(or drop the subclass for ``TALU_CHANNEL_BACKEND=pubsub-locked``, the library's own layer)."""

from __future__ import annotations

import inspect
from importlib.metadata import version

from channels_redis import pubsub, utils
from packaging.version import Version

TESTED = ("4.3.0", "4.4")  # [lowest, next minor): the range pyproject.toml pins


def test_channels_redis_is_a_version_the_layer_was_written_for():
    installed = Version(version("channels-redis"))
    low, high = TESTED
    assert Version(low) <= installed < Version(high), (
        f"channels-redis {installed}: talu_site/pubsub_layer.py was written for {low} to "
        f"before {high}")


def test_the_private_parts_it_relies_on_are_there():
    shard = pubsub.RedisSingleShardConnection
    for name in ("publish", "flush", "_receive_message", "_ensure_redis"):
        assert callable(getattr(shard, name, None)), name
    init = inspect.getsource(shard.__init__)
    for attribute in ("self._redis", "self.channel_layer", "self._lock"):
        assert attribute in init, attribute
    loop_layer = inspect.getsource(pubsub.RedisPubSubLoopLayer.__init__)
    for attribute in ("self._shards", "self.channels", "self.groups"):
        assert attribute in loop_layer, attribute
    assert "self._layers" in inspect.getsource(pubsub.RedisPubSubChannelLayer.__init__)
    assert "_layers" in inspect.getsource(pubsub.RedisPubSubChannelLayer._get_layer)
    assert callable(utils._wrap_close) and callable(utils.decode_hosts)


def test_pyproject_pins_the_same_range():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    assert f'"channels-redis>={TESTED[0]},<{TESTED[1]}"' in text
