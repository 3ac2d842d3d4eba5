"""Site tests: Django is configured here only, so the pure-core tests need no Django.

The tests run on the embedded defaults (SQLite, in-memory channel layer) and those of
``tests/lanes.py``'s services lane again on PostgreSQL and Redis (``tests/stack.py``). The
browser tests share one live site (``live_site``, tests/site/livesite.py) on one xdist worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time

from tests.keyring import use_session_keyring

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "talu_site.settings")
# One throw-away keyring per test process: the site's signing key is made there once.
os.environ["TALU_KEYRING"] = use_session_keyring()

import django
import pytest
import pytest_asyncio

# pytest-django sets Django up when the session starts, after collection; test modules here
# import models at collection time, so set it up now (django.setup is idempotent).
django.setup()

# Passwords hashed cheaply in the test processes (Django's own advice for tests): PBKDF2's
# million rounds cost about a third of a second a user, and most tests make three or more
# (``players``), a tenth of the whole suite's time. Set before anything is hashed (the hashers
# are cached at first use). The live site and the cluster's servers, separate processes, keep
# the settings' own hasher, which their log-ins exercise.
from django.conf import settings as _settings  # noqa: E402

_settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# The ASGI module freezes what exists when it is imported out of the garbage collector, as a
# server process does at start-up (talu_site/asgi.py); imported here, before any test, it
# freezes the same start-up objects and not some test's event loop.
import talu_site.asgi  # noqa: E402, F401
from play.lifecycle import start_game  # noqa: E402
from play.store import engines  # noqa: E402


def pytest_collection_modifyitems(config, items):
    """The browser tests here share one xdist worker, hence one live site and one Chromium."""
    for item in items:
        if item.nodeid.startswith("tests/site/") and item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.xdist_group("browser"))


@pytest.fixture(scope="session")
def live_site(tmp_path_factory):
    """The live site of this test process (tests/site/livesite.py), started at first use."""
    from tests.site.livesite import running_site

    with running_site(tmp_path_factory.mktemp("live-site")) as site:
        yield site


@pytest.fixture
def make_user(django_user_model):
    def make(name: str):
        return django_user_model.objects.create_user(username=name, password="pw-" + name + "-x1")

    return make


@pytest.fixture(autouse=True)
def _fresh_process_caches():
    """Every test starts with this process's caches of games empty: they are keyed by the
    game's row id, which a test database reuses from one test to the next (a cached state of
    an earlier test's untimed game 1 was a later test's timed game 1); so is the cache of the
    computer's account ids (an earlier test's computer was a later test's person, not rated)."""
    from django.core.cache import caches

    from play import gameview
    from play.computer import account

    engines.forget()
    gameview.forget()
    account.forget()
    # Fragments cached by row id (events, the lobby) from an earlier test; only this
    # process's own memory cache (Redis's clear would flush the whole database).
    cache = caches["default"]
    if type(cache).__module__ == "django.core.cache.backends.locmem":
        cache.clear()
    yield


@pytest.fixture
def quick_computer(settings):
    """The computer thinks on a thread of the test's process and plays without pauses (the
    computer's test modules use it for every test: ``pytest.mark.usefixtures``)."""
    from play.computer import pool
    from play.computer.account import forget

    settings.TALU_COMPUTER_PROCESSES = 0
    settings.TALU_COMPUTER_STEP_DELAY = 0
    forget()
    pool.shutdown()
    yield
    pool.shutdown()
    forget()


@pytest.fixture
def players(make_user):
    """Three accounts: alice plays I, bob plays O, carol watches."""
    return make_user("alice"), make_user("bob"), make_user("carol")


@pytest.fixture
def game(players):
    alice, bob, _ = players
    engines.forget()
    return start_game(alice, bob, variant="standard", rated=True)


@pytest.fixture
def cookies():
    """The session cookie of a logged-in user, as a websocket handshake header."""
    from django.test import Client

    def cookie_for(user) -> bytes:
        if user is None:
            return b""
        c = Client()
        c.force_login(user)
        return f"sessionid={c.cookies['sessionid'].value}".encode()

    return cookie_for


@pytest.fixture(autouse=True)
def _rate_limits_off(request, settings):
    """Rate limits (``talu_site.ratelimit``) off, their counters kept between tests otherwise:
    a whole run opens more sockets from one address in a minute than a person would. Tests
    of the limits are marked ``rate_limits`` and get the settings' own rates."""
    if request.node.get_closest_marker("rate_limits") is None:
        settings.TALU_RATES = {name: "off" for name in settings.TALU_RATES}
    yield


@pytest.fixture(autouse=True)
def _rate_windows_still(monkeypatch):
    """The rate limits' clock (``talu_site.ratelimit.now``) stands still at the test's start, so
    a test's attempts all count in one window. The windows are fixed (a minute from :00), and a
    pool storm that straddled a minute's end had its joins split in two and met no limit (a CI
    run, tests/site/test_pool_fuzz.py, seed 41); a quick test had the same chance, smaller."""
    from talu_site import ratelimit

    at = time.time()
    monkeypatch.setattr(ratelimit, "now", lambda: at)
    yield


@pytest.fixture(autouse=True)
def _archive_on_a_thread(request, settings):
    """The worker archives on one of its threads (``TALU_ARCHIVE_PROCESS`` off), where a test
    can patch what the archive runs; the archive's own process has its tests (marked
    ``archive_process``: tests/site/test_archive_process.py, tests/cluster)."""
    if request.node.get_closest_marker("archive_process") is None:
        settings.TALU_ARCHIVE_PROCESS = False
    yield


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """A new channel-layer instance per test: a Redis layer's locks belong to one event loop,
    and pytest-asyncio gives every test its own loop."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest_asyncio.fixture
async def worker():
    """The worker running on the test's event loop, as it does in the server process on the
    embedded defaults (``talu_site.serve``): archiving finished games and announcing it."""
    from play.worker.loop import start_embedded

    task = start_embedded()
    yield task
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


@pytest.fixture
def tiny():
    """The match's tiny test game (tests/match/tinygame.py) in the catalogue for one test: the
    server path knows no game, so any registered one plays (issue 36)."""
    from play.games.match.match import Match
    from play.games.registry import register, unregister
    from tests.match.tinygame import TinyRules

    match = Match(TinyRules())
    register(match)
    yield match
    unregister(match.name)
