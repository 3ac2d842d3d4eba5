"""Each lane runs on what it says (``tests/lanes.py``): the services lane on PostgreSQL, the
Redis cache and the Redis channel layer, as production; the embedded lane on SQLite, the
process's memory cache and the in-memory layer, as ``./dev serve``. Were the services lane
quietly on SQLite, its tests would prove nothing about production."""

from __future__ import annotations

import pytest

from tests import stack


@pytest.mark.django_db
def test_the_lane_runs_on_its_database_cache_and_channel_layer():
    from channels.layers import get_channel_layer
    from django.core.cache import caches
    from django.db import connection

    layer = type(get_channel_layer()).__name__
    cache = type(caches["default"]).__name__
    if stack.on_services():
        assert connection.vendor == "postgresql"
        assert cache == "SharedRedisCache"
        assert layer == "PipelinedPubSubChannelLayer"
    else:
        assert connection.vendor == "sqlite"
        assert cache == "LocMemCache"
        assert layer == "InMemoryChannelLayer"


@pytest.mark.django_db
def test_the_test_database_is_this_runs_own_copy():
    """A per-run (and per-worker) name: two runs on one machine never share a database."""
    from django.db import connection

    name = str(connection.settings_dict["NAME"])
    if stack.on_services():
        assert name.startswith("test_talu_"), name
    else:
        assert name.startswith(str(stack.ROOT / "var" / "test-")), name
        assert "template" not in name, name


if stack.on_services():  # the embedded lane's layer and cache are the process's own memory

    def test_each_worker_has_its_own_channel_and_cache_prefix(settings):
        """Two xdist workers of the services lane share Redis: the lobby's group and the
        rate-limit counters (keyed by user ids, which their two databases share) must not be
        shared, or one worker's tests hear and count the other's."""
        import os

        worker = os.environ.get("PYTEST_XDIST_WORKER", "")
        prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"]
        cache_prefix = settings.CACHES["default"]["KEY_PREFIX"]
        run = os.environ["TALU_TEST_RUN"]
        for value in (prefix, cache_prefix):
            assert value.endswith(f"{run}-{worker}" if worker else run), value


def test_each_test_process_signs_in_a_keyring_of_its_own(settings):
    """The site's signing key is made at first use in ``TALU_KEYRING``: two xdist workers
    making it in one keyring would race (tests/keyring.py), so each has its own."""
    import os

    assert str(settings.TALU_KEYRING) == os.environ["TALU_KEYRING"]
    assert os.environ.get("TALU_TEST_KEYRING_PID") == str(os.getpid())
