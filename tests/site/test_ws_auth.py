"""Who a websocket is (``talu_site.wsauth``): the session's user, read where the consumer first
asks, in its own database trip, not in one of its own before the consumer starts."""

from __future__ import annotations

from importlib import import_module

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY
from django.contrib.sessions.backends.cached_db import KEY_PREFIX
from django.core.cache import caches
from django.core.exceptions import SynchronousOnlyOperation
from django.test import Client

from talu_site.wsauth import LazyAuthMiddlewareStack
from tests.site.wsutil import connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def scope_of(cookie: bytes) -> dict:
    """The scope the consumer would get for a handshake carrying ``cookie``."""
    seen: dict = {}

    async def inner(scope, receive, send):
        seen.update(scope)

    headers = [(b"cookie", cookie)] if cookie else []
    await LazyAuthMiddlewareStack(inner)({"type": "websocket", "headers": headers}, None, None)
    return seen


async def test_the_user_is_read_where_first_used_not_before(players, cookies):
    alice = players[0]
    scope = await scope_of(await database_sync_to_async(cookies)(alice))
    with pytest.raises(SynchronousOnlyOperation):  # not on the event loop: Django refuses
        assert scope["user"].is_authenticated
    read = await sync_to_async(lambda: (scope["user"].is_authenticated, scope["user"].pk))()
    assert read == (True, alice.pk)


async def test_no_session_or_a_stale_one_is_a_spectator(game, players, cookies):
    alice = players[0]
    anon = await scope_of(b"")
    assert not await sync_to_async(lambda: anon["user"].is_authenticated)()

    cookie = await database_sync_to_async(cookies)(alice)
    key = cookie.decode().split("=", 1)[1]

    def spoil() -> None:  # e.g. the password changed since: the session no longer vouches
        s = import_module(settings.SESSION_ENGINE).SessionStore(session_key=key)
        s[HASH_SESSION_KEY] = "0" * 40
        s.save()

    await database_sync_to_async(spoil)()
    _, welcome, _ = await connect(game, cookie)
    assert welcome["role"] == "spectator" and welcome["side"] is None


async def test_a_player_is_still_recognised(game, players, cookies):
    _, welcome, _ = await connect(game, await database_sync_to_async(cookies)(players[0]))
    assert welcome["role"] == "player" and welcome["side"] == "I"


async def test_a_session_logged_out_is_a_spectator_at_once(game, players):
    """With Redis the session is read from the shared cache (``SESSION_ENGINE`` cached_db):
    a logout must leave it, so the next socket of that cookie is nobody's."""

    def log_in_and_out() -> tuple[bytes, bytes]:
        client = Client()
        client.force_login(players[0])
        cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
        return cookie, client

    cookie, client = await database_sync_to_async(log_in_and_out)()
    _, welcome, _ = await connect(game, cookie)
    assert welcome["side"] == "I"
    if settings.SESSION_ENGINE.endswith("cached_db"):  # read from the cache from now on
        key = KEY_PREFIX + cookie.decode().split("=", 1)[1]
        assert await caches[settings.SESSION_CACHE_ALIAS].aget(key) is not None
    await database_sync_to_async(client.logout)()
    _, welcome, _ = await connect(game, cookie)
    assert welcome["role"] == "spectator" and welcome["side"] is None
