"""Rate limits per account and per address (issue 27, findings 4 and 10): log-ins, sign-ups,
challenges, websocket connects, (issue 23) pool joins and games against the computer, (issue 39)
chat messages and reports.

One mechanism for all of them: a count per (limit, key) in a fixed window, kept in Django's
default cache. With ``REDIS_URL`` that cache is Redis, shared by every server process, so a
client cannot multiply its budget by the number of processes behind the proxy (and a restart
does not reset it); on the embedded defaults it is the process's memory, which is all one
process needs. Addresses come from ``talu_site.clientaddr`` (X-Forwarded-For believed only
from ``TALU_TRUSTED_PROXIES``).

The rates are settings (``TALU_RATES``, from ``TALU_RATE_<NAME>`` variables, e.g.
``TALU_RATE_LOGIN_ADDRESS=30/10minute``; ``off`` turns one off) and are read on each use, so a
deployment or a test can change them. A limit refused says when to come back.

Use::

    limit = ratelimit.limit("pool_join")
    refusal = limit.hit(str(user.pk))          # counts this attempt
    if refusal: raise SomeError(refusal.message("joining pools"))
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import time
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.conf import settings

from talu_site.envvars import env_value

UNITS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*(second|minute|hour|day)s?\s*$")
PREFIX = "talu-rl"

#: Every limit, its default and what it counts (docs/deployment.md lists them too).
DEFAULTS = {
    # failed log-ins from one address, and against one account from anywhere
    "login_address": "30/10minute",
    "login_account": "10/10minute",
    # accounts created from one address
    "signup_address": "5/hour",
    # challenges a player opens (the number open at once is TALU_MAX_OPEN_CHALLENGES), and
    # all players from one address (a club behind one address shares it)
    "challenge": "20/10minute",
    "challenge_address": "60/10minute",
    # websocket handshakes from one address (a game's end opens four of a player's)
    "ws_connect": "600/minute",
    # messages on one game socket, and its resyncs (hello/sync; one from far back costs 5):
    # per socket in its server process, a bucket of n refilled at n per period, not a
    # window in the cache (play/live/budget.py, issue 41)
    "ws_message": "100/10second",
    "ws_sync": "20/10second",
    # pool joins of one player (the pool, issue 23), and of all players from one address
    "pool_join": "30/minute",
    "pool_join_address": "120/minute",
    # pool leaves of one player (issue 41): a budget of their own, not the joins', so a
    # player who used up their joins can still leave (else the waves pair them in absence)
    "pool_leave": "30/minute",
    # games against the computer one player starts (at most TALU_MAX_COMPUTER_GAMES at once)
    "computer_game": "20/10minute",
    # chat messages one account sends beside games, and the reports it makes (issue 39)
    "chat": "5/10second",
    "chat_report": "10/10minute",
}


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: int


def parse_rate(text: str) -> Rate | None:
    """``"10/minute"``, ``"30/10minute"`` (30 per 10 minutes), or ``"off"`` (None)."""
    if text.strip().lower() in ("off", "none", "0", ""):
        return None
    match = _RATE.match(text)
    if match is None:
        raise ValueError("is not a rate")
    count, times, unit = match.groups()
    seconds = int(times or 1) * UNITS[unit]
    if int(count) < 1 or seconds < 1:
        raise ValueError("is not a rate: at least 1 in at least 1 second")
    return Rate(int(count), seconds)


@dataclass(frozen=True)
class Refusal:
    """Over the limit: ``retry_after`` seconds until the window turns."""

    retry_after: int

    def message(self, what: str) -> str:
        wait = self.retry_after
        when = f"{wait} seconds" if wait < 120 else f"{(wait + 59) // 60} minutes"
        return f"Too many {what}: please wait {when} and try again."


@dataclass(frozen=True)
class Taken:
    """One attempt counted by :meth:`Limit.take`: its refusal when over the rate, and the
    counter it went to (so that it can be given back to that same window)."""

    refusal: Refusal | None
    name: str | None = None


def count(name: str, timeout: int) -> int:
    """Add one to the cache's counter ``name`` (made with ``timeout`` seconds to live if
    there is none), atomically (Redis's INCR); the count it made."""
    from django.core.cache import cache  # not at import: the settings import this module

    cache.add(name, 0, timeout=timeout)
    try:
        return cache.incr(name)
    except ValueError:  # expired between add and incr: this is the first
        cache.add(name, 1, timeout=timeout)
        return 1


def uncount(name: str) -> None:
    """Take one from the counter ``name`` again (nothing if it is gone)."""
    from django.core.cache import cache

    with contextlib.suppress(ValueError):
        cache.decr(name)


def ident(key: str) -> str:
    """``key`` as a cache key's part. Hashed: an account name may hold anything a form lets
    through, and a cache key must be short and plain (Django warns of control characters,
    memcached refuses them)."""
    return hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def now() -> float:
    """The clock of the windows. A test holds it still (tests/site/conftest.py): the windows
    are fixed, and a test's attempts that straddled a window's end were counted in two and met
    no limit."""
    return time.time()


@dataclass(frozen=True)
class Limit:
    name: str

    def rate(self) -> Rate | None:
        return parse_rate(settings.TALU_RATES.get(self.name, DEFAULTS[self.name]))

    def _key(self, key: str, rate: Rate, now: float) -> tuple[str, int]:
        window = int(now // rate.seconds)
        retry = int((window + 1) * rate.seconds - now) + 1
        return f"{PREFIX}:{self.name}:{window}:{ident(key)}", retry

    def hit(self, key: str) -> Refusal | None:
        """Count one attempt of ``key``; a :class:`Refusal` when it is over the rate."""
        return self.take(key).refusal

    def take(self, key: str) -> Taken:
        """Count one attempt of ``key`` as :meth:`hit` does, before the attempt is decided,
        so that attempts at the same moment cannot all find room; one that turns out not to
        count (a right password, an attempt refused elsewhere) goes back with
        :meth:`give_back`."""
        rate = self.rate()
        if rate is None:
            return Taken(None)
        name, retry = self._key(key, rate, now())
        made = count(name, rate.seconds + 1)
        return Taken(Refusal(retry) if made > rate.count else None, name)

    @staticmethod
    def give_back(taken: Taken) -> None:
        """Uncount an attempt :meth:`take` counted, in the window it was counted in."""
        if taken.name is not None:
            uncount(taken.name)

    async def ahit(self, key: str) -> Refusal | None:
        """:meth:`hit` from the event loop: in place for the in-memory cache, on a thread for a
        cache reached over the network (Redis), so the loop never waits on a socket."""
        if _local():
            return self.hit(key)
        return await sync_to_async(self.hit, thread_sensitive=False)(key)


def _local() -> bool:
    backend = settings.CACHES["default"]["BACKEND"]
    return backend.endswith("LocMemCache") or backend.endswith("DummyCache")


def limit(name: str) -> Limit:
    """The limit called ``name`` (one of :data:`DEFAULTS`)."""
    if name not in DEFAULTS:
        raise KeyError(f"no rate limit called {name!r}")
    return Limit(name)


#: What a ``TALU_RATE_<NAME>`` variable accepts, in words.
ACCEPTS = "<n>/<second|minute|hour|day>, e.g. 10/minute, or per several: 30/10minute; or off"


def variable(name: str) -> str:
    """The environment variable of the limit called ``name``: ``TALU_RATE_<NAME>``."""
    return f"TALU_RATE_{name.upper()}"


def _checked(text: str) -> str:
    parse_rate(text)  # ValueError: not a rate
    return text.strip()


def rates_from_environment() -> dict[str, str]:
    """``TALU_RATES`` for the settings: each default, or ``TALU_RATE_<NAME>`` when set
    (checked here, so a bad value stops the process at start-up)."""
    return {name: env_value(variable(name), default, _checked, ACCEPTS)
            for name, default in DEFAULTS.items()}
