"""The one check of a password for a site account, under the log-in limits (issue 27, finding
10; issue 41, findings 1 and 2): an authentication backend. The log-in form, Django admin's
log-in and the API's HTTP Basic authentication all call ``django.contrib.auth.authenticate``,
which asks this backend first (``AUTHENTICATION_BACKENDS``), so a wrong password counts the
same wherever it was presented, and an attempt refused is never hashed (the hash is the
attempt's cost: about 280 ms of CPU in production). Callers only put a refusal in their own
words: :func:`refusal_of` the request (the form's error, the API's 429, the admin's message).

What is counted (docs/deployment.md, "Log-in limits"):

* failed log-ins from one address (``login_address``): over the window's budget, that
  address's attempts are refused until the window turns, except for accounts that have logged
  in from that address before (a club behind one address is not locked out by one member);
* failed log-ins to one account from anywhere (``login_account``, ``n/window``), the name
  counted as Django normalises it (NFKC: ``ｕ25`` is ``u25``) and case-folded (sign-up
  refuses a name that differs from another only in case). The first n failures are checked
  as they come; after them the account is *slowed*, not locked: one attempt per wait, the
  first wait the limit's own pace (window / n: 1 minute for ``10/10minute``), doubling with
  each further failure up to the window itself. Failures are forgotten only when a day
  passes without one, so a guesser who keeps under n a window is slowed all the same. An
  attempt during a wait is refused and counts nowhere;
* from an address where the account logged in in the last 30 days (*known*: a right password
  was given from there), attempts have a budget of their own, the same rate and slowing, apart
  from the account's: a stranger's failures slow the stranger, while the owner logs in from
  home. Not merely "an address that has not been failing": each address of a botnet has not.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied

from play.games import text
from talu_site import clientaddr, ratelimit

LOGIN_ADDRESS = ratelimit.limit("login_address")
LOGIN_ACCOUNT = ratelimit.limit("login_account")
#: How long an address stays known to an account after a right password from it.
KNOWN_FOR = 30 * 86400
#: How long a slowed account stays slowed after its last failure.
SLOW_MEMORY = 86400
#: The longest one slowed attempt holds the account's turn (a check takes well under 1 s).
TURN_HOLD = 30
#: The longest name an account has (the user model's ``max_length``).
NAME_LENGTH = 150
#: Where a refusal is noted on the request, for the caller to answer in its own words.
NOTE = "talu_login_refusal"


def now() -> float:
    """The clock of the waits (a test moves it)."""
    return time.time()


def account_key(username) -> str:
    """The account a name counts for: as Django normalises it (``normalize_username``,
    NFKC), case-folded and without surrounding spaces (the form strips them)."""
    return get_user_model().normalize_username(str(username)).casefold().strip()


@dataclass(frozen=True)
class LoginRefusal:
    """An attempt refused unchecked: when to try again, and the words that say so."""

    retry_after: int
    message: str

    @classmethod
    def of(cls, refusal: ratelimit.Refusal, what: str) -> LoginRefusal:
        return cls(refusal.retry_after, refusal.message(what))


def refusal_of(request) -> LoginRefusal | None:
    """The refusal of the last attempt authenticated with ``request``, if it was refused."""
    return getattr(getattr(request, "_request", request), NOTE, None)


def _note(request, refusal: LoginRefusal | None) -> None:
    if request is not None:  # on the Django request under a REST framework one
        setattr(getattr(request, "_request", request), NOTE, refusal)


def _cache():
    from django.core.cache import cache  # not at import: the settings import ratelimit

    return cache


class _Budget:
    """Failures of one account (or of one account from one known address): the limit's count
    of them checked at once, then one attempt per wait, the wait doubling with each failure.
    Failures are forgotten only when a day passes without one, not when a window turns, so
    a guesser who keeps under a window's count is slowed all the same."""

    def __init__(self, key: str) -> None:
        name = ratelimit.ident(key)
        self.failures = f"{ratelimit.PREFIX}:login_failures:{name}"
        self.until = f"{ratelimit.PREFIX}:login_until:{name}"
        self.turns = f"{ratelimit.PREFIX}:login_turn:{name}"
        self.rate: ratelimit.Rate | None = None
        self.counted = 0  # this attempt's count among the failures (0: not counted)
        self.turn: str | None = None  # the turn this slowed attempt holds

    def begin(self, at: float) -> ratelimit.Refusal | None:
        self.rate = LOGIN_ACCOUNT.rate()
        if self.rate is None:  # the limit is off
            return None
        until = _cache().get(self.until) or 0
        if at < until:
            return ratelimit.Refusal(max(1, math.ceil(until - at)))
        # Counted before the check, so that attempts at the same moment cannot all find room.
        self.counted = ratelimit.count(self.failures, SLOW_MEMORY)
        if self.counted > self.rate.count:
            # Slowed: one attempt per wait, however many arrive at once when it ends.
            turn = f"{self.turns}:{until}"
            if not _cache().add(turn, 1, timeout=TURN_HOLD):
                return ratelimit.Refusal(1)
            self.turn = turn
        return None

    def failed(self, at: float) -> None:
        """A wrong password: kept (a day from now), and once the count is reached the next
        attempt waits: the limit's pace (window / count) first, twice the last wait after."""
        rate = self.rate
        if rate is None:
            return
        _cache().touch(self.failures, SLOW_MEMORY)
        if self.counted >= rate.count:
            doubled = 2 ** min(self.counted - rate.count, 32)
            wait = min(rate.seconds / rate.count * doubled, rate.seconds)
            _cache().set(self.until, at + wait, timeout=math.ceil(wait) + SLOW_MEMORY)

    def give_back(self) -> None:
        """Not a failure (a right password, or refused elsewhere): uncounted, turn freed."""
        if self.counted:
            ratelimit.uncount(self.failures)
            self.counted = 0
        if self.turn is not None:
            _cache().delete(self.turn)
            self.turn = None


def _known(account: str, address: str) -> str:
    return f"{ratelimit.PREFIX}:login_known:{ratelimit.ident(json.dumps([account, address]))}"


class Attempt:
    """One password presented for ``username`` from ``address`` (None: no request, so only
    the account's limit applies), counted before it is checked."""

    def __init__(self, username, address: str | None) -> None:
        self.account = account_key(username)
        self.address = address
        known = address is not None and _cache().get(_known(self.account, address)) is not None
        # json: no name can pass for another's (an account's key never equals a pair's).
        self.budget = _Budget(json.dumps(["known", self.account, address] if known
                                         else ["account", self.account]))
        self.from_address = ratelimit.Taken(None)
        self.refusal: LoginRefusal | None = None
        if address is not None and not known:
            self.from_address = LOGIN_ADDRESS.take(address)
            if self.from_address.refusal is not None:
                LOGIN_ADDRESS.give_back(self.from_address)
                self.refusal = LoginRefusal.of(self.from_address.refusal,
                                               "failed log-ins from your address")
                return
        refusal = self.budget.begin(now())
        if refusal is not None:
            self.give_back()
            self.refusal = LoginRefusal.of(refusal, "failed log-ins for this account")

    def give_back(self) -> None:
        self.budget.give_back()
        LOGIN_ADDRESS.give_back(self.from_address)

    def succeeded(self) -> None:
        self.give_back()
        if self.address is not None:
            _cache().set(_known(self.account, self.address), 1, timeout=KNOWN_FOR)

    def failed(self) -> None:
        self.budget.failed(now())


def _address(request) -> str | None:
    if request is None:
        return None
    return clientaddr.limit_key(clientaddr.of_request(request))


class LimitedModelBackend(ModelBackend):
    """Django's own check of a username and password, inside the log-in limits.

    A refused attempt, and a failed one, raise ``PermissionDenied``: ``authenticate`` then asks
    no later backend (``ModelBackend`` stays listed after this one only so that sessions made
    before it keep their user) and answers None, as for any wrong password."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        _note(request, None)
        attempt = Attempt(username, _address(request))
        if attempt.refusal is not None:
            _note(request, attempt.refusal)
            raise PermissionDenied(attempt.refusal.message)
        try:
            if text.problem(username, max_length=NAME_LENGTH) is None:
                user = super().authenticate(request, username=username, password=password,
                                            **kwargs)
            else:
                # No account has such a name (the model's validator keeps names to letters,
                # digits and @.+-_), and the database may refuse it (PostgreSQL a NUL, which
                # HTTP Basic lets through): an unknown name, hashed as Django hashes one.
                get_user_model()().set_password(password)
                user = None
        except BaseException:
            attempt.give_back()  # not decided (the database failed): no guess was made
            raise
        if user is None:
            attempt.failed()
            raise PermissionDenied("wrong username or password")
        attempt.succeeded()
        return user

    async def aauthenticate(self, request, username=None, password=None, **kwargs):
        # Not ModelBackend's own: that one would check the password outside the limits.
        return await sync_to_async(self.authenticate)(request, username=username,
                                                      password=password, **kwargs)
