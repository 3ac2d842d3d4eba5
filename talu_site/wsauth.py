"""The websocket's user, read from its session where the consumer first needs it.

Channels' ``AuthMiddleware`` reads the user before the consumer starts, in a database trip of
its own (the session, then the user). The game consumer's first database trip
(``play.live.presence.open_socket``) asks who the user is anyway, so the user is left lazy and read
there, with Channels' own reading (``channels.auth.get_user``, the function behind its async
wrapper): one trip fewer for every socket opened, and a game's end replaces four of them
(BENCHMARKS.md, issue 7). Nothing may ask for the user on the event loop before that trip:
Django refuses a query there (``SynchronousOnlyOperation``) rather than block the loop.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from channels.auth import AuthMiddleware, get_user
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.utils.functional import SimpleLazyObject


class LazyAuthMiddleware(AuthMiddleware):
    """``AuthMiddleware`` whose ``scope["user"]`` is read on first use, by the thread using it."""

    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        scope["user"] = SimpleLazyObject(partial(get_user.func, scope))


def LazyAuthMiddlewareStack(inner: Any) -> CookieMiddleware:
    return CookieMiddleware(SessionMiddleware(LazyAuthMiddleware(inner)))
