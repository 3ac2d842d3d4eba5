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


def _hits_as(client, n, forwarded=None, peer="203.0.113.7"):
    extra = {"REMOTE_ADDR": peer}
    codes = []
    for k in range(n):
        if forwarded is not None:
            extra["HTTP_X_FORWARDED_FOR"] = forwarded(k)
        codes.append(client.get("/api/v1/bodies/", **extra).status_code)
    return codes


def test_a_made_up_forwarded_address_does_not_buy_requests(client, db, low_rates):
    """Issue 27, finding 3: each request with a new X-Forwarded-For was counted as a new client
    (300 passed where 120 should have); a header from a peer that is not our proxy is ignored."""
    codes = _hits_as(client, 6, forwarded=lambda k: f"198.51.100.{k}")
    assert codes == [200, 200, 200, 429, 429, 429]


def test_the_trusted_proxy_says_who_the_client_is(client, db, low_rates, settings):
    from talu_site.clientaddr import parse_networks

    settings.TALU_TRUSTED_PROXIES = parse_networks(["10.0.0.2"])
    # Two clients behind the proxy: separate budgets.
    assert _hits_as(client, 4, lambda k: "198.51.100.1", peer="10.0.0.2") == [200] * 3 + [429]
    assert _hits_as(client, 1, lambda k: "198.51.100.2", peer="10.0.0.2") == [200]
    # What a client wrote before the proxy's own entry does not count (a proxy that appends).
    spoofed = _hits_as(client, 2, lambda k: f"192.0.2.{k}, 198.51.100.1", peer="10.0.0.2")
    assert spoofed == [429, 429]


def test_nginx_sets_the_forwarded_address_rather_than_appending():
    from pathlib import Path

    conf = (Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf").read_text()
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in conf
    assert "$proxy_add_x_forwarded_for" not in conf
