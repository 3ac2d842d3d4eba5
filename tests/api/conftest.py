"""API tests: Django configured here (as in tests/site), bodies and keys from tests/registry.

The affiliated bodies and their session-wide GnuPG keys are the registry tests' fixtures
(``body_keys``, ``body``, ``other_body``), reused rather than made a second time. Each test gets
a token of body A and two of its players. Throttle rates are raised for every test except where
a test lowers them (``test_throttling``), and the throttle counters are cleared between tests.
"""

from __future__ import annotations

import os

from tests.keyring import use_session_keyring

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "talu_site.settings")
os.environ["TALU_KEYRING"] = use_session_keyring()

import django
import pytest
from rest_framework.test import APIClient

# Test modules import models at collection time, before pytest-django sets Django up.
django.setup()

from tests.registry import conftest as registry_fixtures  # noqa: E402

# The registry tests' fixtures, reused: session keys of two bodies and their registry rows.
body_keys = registry_fixtures.body_keys
body = registry_fixtures.body
other_body = registry_fixtures.other_body

HIGH_RATES = {"anon": "100000/minute", "user": "100000/minute", "body": "100000/minute"}


def clear_cache() -> None:
    """Empty this run's cache: the process's memory, or on Redis (the services lane on PostgreSQL
    and Redis, ``tests/stack.py``) only the keys under this run's own prefix, since Redis's
    own clear would flush a whole database others share."""
    from django.conf import settings as django_settings
    from django.core.cache import caches

    backend = caches["default"]
    if type(backend).__module__ == "django.core.cache.backends.locmem":
        backend.clear()
        return
    prefix = django_settings.CACHES["default"].get("KEY_PREFIX", "")
    assert prefix, "a Redis cache in tests needs a key prefix of its own"
    client = backend._cache.get_client(None, write=True)
    keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
    if keys:
        client.delete(*keys)


@pytest.fixture(autouse=True)
def _api_settings(settings):
    """Generous throttle rates and empty throttle counters for each test."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": HIGH_RATES}
    clear_cache()
    yield
    clear_cache()


@pytest.fixture
def client() -> APIClient:
    return APIClient()


@pytest.fixture
def body_a(body):
    """Body A (Szeged): the one whose token the tests mostly use."""
    return body


@pytest.fixture
def body_b(other_body):
    """Body B (Pécs): another body, with its own key."""
    return other_body


@pytest.fixture
def token_a(body_a) -> str:
    from registry.tokens import issue_token

    return issue_token(body_a, label="tests")


@pytest.fixture
def token_b(body_b) -> str:
    from registry.tokens import issue_token

    return issue_token(body_b, label="tests")


def token_client(token: str) -> APIClient:
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return c


@pytest.fixture
def body_client(token_a) -> APIClient:
    """A client speaking for body A through its token."""
    return token_client(token_a)


# Two registered players of body A, (player I, player O): the registry tests' pair.
pair = registry_fixtures.otb_players


@pytest.fixture
def registrar(django_user_model):
    """A club's body and its registrar, a person (reggie): who runs its events."""
    from registry.models import AffiliatedBody

    body = AffiliatedBody.objects.create(registrar_id="CLUB-01", name="The club")
    user = django_user_model.objects.create_user("reggie", password="pw-reggie-x1")
    body.registrars.add(user)
    return body, user
