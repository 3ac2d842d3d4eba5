"""Rate limits: anonymous clients, site users and bodies are counted separately; going over is
a JSON 429 with Retry-After."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

LOW = {"anon": "3/minute", "user": "5/minute", "body": "4/minute"}


@pytest.fixture
def low_rates(settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": LOW}


def _hits(client, n):
    return [client.get("/api/v1/bodies/").status_code for _ in range(n)]


def test_anonymous_limit(client, db, low_rates):
    codes = _hits(client, 4)
    assert codes == [200, 200, 200, 429]
    response = client.get("/api/v1/bodies/")
    assert response.status_code == 429
    assert "throttled" in response.json()["detail"].lower()
    assert int(response["Retry-After"]) > 0


def test_body_has_its_own_budget(client, body_client, low_rates):
    assert _hits(client, 4)[-1] == 429  # anonymous budget spent
    assert _hits(body_client, 5) == [200, 200, 200, 200, 429]


def test_all_tokens_of_a_body_share_one_budget(body_a, token_a, low_rates):
    from registry.tokens import issue_token

    first, second = APIClient(), APIClient()
    first.credentials(HTTP_AUTHORIZATION=f"Token {token_a}")
    second.credentials(HTTP_AUTHORIZATION=f"Bearer {issue_token(body_a)}")
    assert _hits(first, 3) == [200] * 3
    assert _hits(second, 2) == [200, 429]


def test_logged_in_user_budget(client, db, low_rates):
    user = get_user_model().objects.create_user("reader", password="pw-reader-x1")
    logged = APIClient()
    logged.force_login(user)
    assert _hits(client, 4)[-1] == 429
    assert _hits(logged, 6) == [200] * 5 + [429]
