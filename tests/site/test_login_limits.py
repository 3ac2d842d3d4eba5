"""Every way to present a password shares the log-in limits (issue 41, findings 1 and 2, and the
lock-outs of "Beyond the findings"; ``registry/logins.py``, docs/deployment.md "Log-in
limits"): the log-in form, Django admin's log-in and the API's HTTP Basic authentication count
toward the same per-account and per-address budgets, a look-alike spelling of a name is the
same account, an attempt refused is never hashed, and a slowed account still lets its owner in
from an address it knows. With a fuzz-style burst over each path. Runs again on PostgreSQL and
Redis (the services lane of ``tests/lanes.py``): every test has accounts and addresses of its
own, since Redis keeps the counters between tests."""

from __future__ import annotations

import base64
import ipaddress
import itertools
import random
import threading
import time
import uuid

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher
from django.test import Client, RequestFactory
from django.urls import reverse
from rest_framework.test import APIClient

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.rate_limits]

# Addresses of this process's own in 198.18.0.0/15 (kept for tests), from a random start, so
# another process of the same run sharing Redis does not count on them.
_start = random.SystemRandom().randrange(1 << 17)
_addresses = (str(ipaddress.IPv4Address("198.18.0.0") + (_start + n) % (1 << 17))
              for n in itertools.count())

WORDS = "Too many failed log-ins"
PATHS = ("form", "admin", "basic")


@pytest.fixture
def new_address():
    return lambda: next(_addresses)


@pytest.fixture
def low(settings):
    def set_rates(**rates: str) -> None:
        settings.TALU_RATES = {**settings.TALU_RATES, **rates}

    return set_rates


@pytest.fixture
def victim(make_user):
    """A staff account of this test's own (staff: the admin's log-in lets it in too)."""
    user = make_user(f"v{uuid.uuid4().hex[:10]}")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.right = f"pw-{user.username}-x1"
    return user


@pytest.fixture
def clock(monkeypatch):
    """The waits' clock (``registry.logins.now``), standing still unless moved."""
    from registry import logins

    class Clock:
        t = float(int(time.time()))  # whole seconds: the waits come out exact

        def __call__(self) -> float:
            return self.t

        def advance(self, seconds: float) -> None:
            self.t += seconds

    moved = Clock()
    monkeypatch.setattr(logins, "now", moved)
    return moved


@pytest.fixture
def hashes(monkeypatch, victim):
    """Every password hashed once the victim is made, as the hash it was checked against
    (None: an unknown name's, hashed for the timing's sake): what a guess costs the server."""
    seen: list[str | None] = []
    verify, encode = MD5PasswordHasher.verify, MD5PasswordHasher.encode
    verifying = threading.local()  # a check hashes through encode: one hash, not two

    def counted_verify(self, password, encoded):
        seen.append(encoded)
        verifying.now = True
        try:
            return verify(self, password, encoded)
        finally:
            verifying.now = False

    def counted_encode(self, password, salt):
        if not getattr(verifying, "now", False):
            seen.append(None)
        return encode(self, password, salt)

    monkeypatch.setattr(MD5PasswordHasher, "verify", counted_verify)
    monkeypatch.setattr(MD5PasswordHasher, "encode", counted_encode)
    return seen


def _basic(name: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{name}:{password}".encode()).decode()


def attempt(path: str, name: str, password: str, address: str, **extra) -> tuple[str, object]:
    """One log-in by ``path`` from a fresh client: ``"in"``, ``"wrong"`` or ``"refused"`` (over
    a limit: the words, and on the form and the API a 429 with Retry-After)."""
    if path == "basic":
        response = APIClient().get("/api/v1/", HTTP_AUTHORIZATION=_basic(name, password),
                                   REMOTE_ADDR=address, **extra)
        assert response.status_code in (200, 401, 429), response.status_code
        if response.status_code == 429:
            assert WORDS in response.json()["detail"]
            assert int(response["Retry-After"]) > 0
            return "refused", response
        return ("in" if response.status_code == 200 else "wrong"), response
    client = Client()
    url = reverse("login") if path == "form" else "/admin/login/?next=/admin/"
    response = client.post(url, {"username": name, "password": password},
                           REMOTE_ADDR=address, **extra)
    page = response.content.decode()
    if response.status_code == 302:
        assert "_auth_user_id" in client.session
        return "in", response
    assert "_auth_user_id" not in client.session
    if WORDS in page:
        assert "try again" in page
        if path == "form":
            assert response.status_code == 429 and int(response["Retry-After"]) > 0
        return "refused", response
    assert response.status_code in (200, 400), response.status_code
    return "wrong", response


def guesses(seen: list, user) -> int:
    """Passwords checked against ``user``'s."""
    return sum(1 for encoded in seen if encoded == user.password)


def test_basic_log_ins_are_limited(victim, low, clock, hashes, new_address):
    """Finding 1: 120 wrong Basic passwords for a staff account in 18.8 s were all answered
    401, each hashed, and the right one then worked. Now the fourth of a budget of three is a
    429 with Retry-After and a JSON message in words, unchecked, even with the right password."""
    low(login_account="3/10minute", login_address="100/10minute")
    where = new_address()
    assert [attempt("basic", victim.username, "wrong", where)[0]
            for _ in range(3)] == ["wrong"] * 3
    outcome, response = attempt("basic", victim.username, victim.right, where)
    assert outcome == "refused"
    assert "try again" in response.json()["detail"]
    assert guesses(hashes, victim) == 3  # the right password was never hashed


@pytest.mark.parametrize(("first", "then"), [(a, b) for a in PATHS for b in PATHS if a != b])
def test_wrong_passwords_count_toward_one_budget_whatever_the_way(first, then, victim, low,
                                                                    clock, new_address):
    """Finding 1: wrong Basic passwords did not count toward the form's per-account limit, and
    the admin's log-in had none. One budget, whichever way the passwords come."""
    low(login_account="3/10minute", login_address="100/10minute")
    for _ in range(3):
        assert attempt(first, victim.username, "wrong", new_address())[0] == "wrong"
    assert attempt(then, victim.username, victim.right, new_address())[0] == "refused"


def test_the_admin_log_in_is_limited(victim, low, clock, hashes, new_address):
    """Finding 1: /admin/login/ had no limit at all (15 wrong, then in). The probe again, with
    the default per-account budget of 10: the right password is refused with the words."""
    low(login_account="10/10minute", login_address="100/10minute")
    where = new_address()
    outcomes = [attempt("admin", victim.username, "wrong", where)[0] for _ in range(15)]
    assert outcomes == ["wrong"] * 10 + ["refused"] * 5
    assert attempt("admin", victim.username, victim.right, where)[0] == "refused"
    assert guesses(hashes, victim) == 10


def _full_width(text: str) -> str:
    return "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in text)


def test_look_alike_names_are_the_same_account(make_user, low, clock, new_address):
    """Finding 2: after the limit locked ``u25``, wrong passwords as ``ｕ25`` and ``u２５``
    were still checked and the right one as ``ｕ25`` logged in. The name counts as Django
    normalises it (NFKC), in any case."""
    low(login_account="4/10minute", login_address="100/10minute")
    name = f"u{uuid.uuid4().int % 10 ** 8}"
    make_user(name)
    spellings = [_full_width(name[0]) + name[1:], name[0] + _full_width(name[1:]),
                 name.upper(), _full_width(name)]
    for spelling, path in zip(spellings, ("form", "basic", "admin", "form"), strict=True):
        assert attempt(path, spelling, "wrong", new_address())[0] == "wrong"
    assert attempt("form", spellings[0], f"pw-{name}-x1", new_address())[0] == "refused"
    assert attempt("form", name, f"pw-{name}-x1", new_address())[0] == "refused"


def test_a_slowed_account_waits_longer_after_each_failure(victim, low, clock, hashes,
                                                          new_address):
    """Beyond the findings: ten wrong passwords locked the account for ten minutes, owner
    included. Now, after the budget, one attempt per wait: the limit's pace first (8 minutes
    over 4: 2 minutes), doubling with each failure up to the window; an attempt during a wait
    is refused unhashed and does not lengthen it; after the wait the right password gets in."""
    low(login_account="4/8minute", login_address="100/10minute")
    for path in ("form", "basic", "admin", "form"):
        assert attempt(path, victim.username, "wrong", new_address())[0] == "wrong"

    def refused_for(path: str = "basic") -> int:
        outcome, response = attempt(path, victim.username, victim.right, new_address())
        assert outcome == "refused"
        return int(response["Retry-After"]) if path != "admin" else 0

    assert refused_for() == 120
    clock.advance(30)
    assert refused_for("form") == 90  # waiting, not lengthened by asking
    refused_for("admin")
    for wait, then in ((90, 240), (240, 480), (480, 480)):
        clock.advance(wait)
        assert attempt("form", victim.username, "wrong", new_address())[0] == "wrong"
        assert refused_for() == then
    assert guesses(hashes, victim) == 4 + 3
    clock.advance(480)
    assert attempt("basic", victim.username, victim.right, new_address())[0] == "in"


def test_the_owner_logs_in_from_home_while_a_stranger_slows_the_account(victim, low, clock,
                                                                        new_address):
    """Beyond the findings (lock-outs as a weapon): a stranger's wrong passwords slow the
    account, but not for an address it logged in from before."""
    low(login_account="3/10minute", login_address="100/10minute")
    home = new_address()
    assert attempt("form", victim.username, victim.right, home)[0] == "in"
    for _ in range(6):
        attempt("basic", victim.username, "wrong", new_address())
    assert attempt("form", victim.username, victim.right, new_address())[0] == "refused"
    for path in PATHS:
        assert attempt(path, victim.username, victim.right, home)[0] == "in"


def test_a_guesser_behind_the_owners_address_is_limited_too(victim, low, clock, hashes,
                                                            new_address):
    """A known address has a budget of its own, the same as the account's: someone else
    behind the owner's address gets no more guesses than a stranger does."""
    low(login_account="3/10minute", login_address="100/10minute")
    home = new_address()
    assert attempt("basic", victim.username, victim.right, home)[0] == "in"
    before = guesses(hashes, victim)
    outcomes = [attempt(path, victim.username, "wrong", home)[0] for path in PATHS * 2]
    assert outcomes == ["wrong"] * 3 + ["refused"] * 3
    assert attempt("form", victim.username, victim.right, home)[0] == "refused"
    assert guesses(hashes, victim) - before == 3


def test_a_shared_address_over_its_limit_still_lets_its_own_accounts_in(victim, make_user, low,
                                                                        clock, new_address):
    """Beyond the findings: 30 wrong passwords locked a whole shared address (a club behind
    one). Its members who logged in from there before still get in; anyone else there waits."""
    low(login_account="100/10minute", login_address="5/10minute")
    club = new_address()
    assert attempt("form", victim.username, victim.right, club)[0] == "in"
    for n in range(5):
        assert attempt("form", f"nobody{uuid.uuid4().hex[:8]}{n}", "wrong", club)[0] == "wrong"
    for path in PATHS:
        assert attempt(path, victim.username, victim.right, club)[0] == "in"
    newcomer = make_user(f"n{uuid.uuid4().hex[:10]}")
    outcome, response = attempt("form", newcomer.username, f"pw-{newcomer.username}-x1", club)
    assert outcome == "refused" and "from your address" in response.content.decode()


def test_passwords_at_the_same_moment_get_no_more_than_the_budget(victim, low, hashes):
    """Counted before the check, not after: of twelve wrong passwords at once (any caller of
    ``authenticate``), no more are checked than the budget of three and the one turn after
    it."""
    from django.contrib.auth import authenticate
    from django.db import connection

    low(login_account="3/10minute", login_address="100/10minute")
    start = threading.Barrier(12)
    results = []

    def guess(n: int) -> None:
        try:
            request = RequestFactory().post("/accounts/login/", REMOTE_ADDR=f"192.0.2.{n + 1}")
            start.wait()
            results.append(authenticate(request, username=victim.username, password="wrong"))
        finally:
            connection.close()

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert results == [None] * 12
    assert guesses(hashes, victim) <= 3 + 1


# A name where the victim's goes: the victim's in look-alike spellings, and junk.
def _names(rng: random.Random, name: str) -> str:
    roll = rng.random()
    if roll < 0.55:
        return rng.choice([name, name.upper(), _full_width(name), f" {name} ",
                           _full_width(name[:2]) + name[2:], name.capitalize()])
    return rng.choice(["", " ", "x" * 400, "a:b", "\u202e" + name, "ｕ" * 151, name + "\x00",
                       "root", "admin", "Ω≈ç√", "'; drop table auth_user; --", "\t", "%00"])


def _passwords(rng: random.Random) -> str:
    return rng.choice(["", "wrong", "x" * 5000, "pw-\u202e-x1", "密码", "\x00", ":", "' or 1=1"])


@pytest.mark.parametrize("path", [*PATHS, "any"])
def test_a_burst_of_wrong_passwords_gets_no_more_guesses_than_the_limits(path, victim, low,
                                                                         clock, hashes,
                                                                         new_address,
                                                                         no_error_logs):
    """The probe's classes in a fuzz-style burst: 120 wrong passwords over one way (or any),
    under look-alike names and junk, from a handful of addresses (an IPv6 client's /64 among
    them, a forged X-Forwarded-For on some). Every answer is one of the path's own (never a
    500, never a traceback); the victim's password is checked no more often than its budget,
    any name's no more than the addresses' budgets allow; then even the right password is
    refused."""
    low(login_account="5/10minute", login_address="12/10minute")
    rng = random.Random(41)
    net = f"2001:db8:{rng.randrange(1 << 16):x}:{uuid.uuid4().int % (1 << 16):x}::"
    addresses = [new_address() for _ in range(4)]
    for n in range(120):
        way = rng.choice(PATHS) if path == "any" else path
        where = rng.choice([*addresses, f"{net}{n + 1:x}"])
        extra = {"HTTP_X_FORWARDED_FOR": f"203.0.113.{n}"} if rng.random() < 0.3 else {}
        outcome, _ = attempt(way, _names(rng, victim.username), _passwords(rng), where, **extra)
        assert outcome in ("wrong", "refused")
    assert guesses(hashes, victim) <= 5
    assert len(hashes) <= 12 * 5  # four addresses and the /64: each its own budget
    assert attempt(rng.choice(PATHS), victim.username, victim.right, new_address())[0] == "refused"
