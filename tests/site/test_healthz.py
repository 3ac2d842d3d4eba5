"""/healthz: 200 when the database (and Redis, when the site uses it) answer; 503 with JSON
naming what is down otherwise, never a traceback (the proxy and container checks read it)."""

from unittest import mock

import pytest
from django.db import OperationalError
from django.test import override_settings

pytestmark = pytest.mark.django_db


def test_healthy(client, settings):
    resp = client.get("/healthz")
    assert resp.status_code == 200
    expected = {"status": "ok", "database": "ok"}
    if settings.REDIS_URL:
        expected["channel_layer"] = "ok"
    assert resp.json() == expected
    assert "no-cache" in resp["Cache-Control"]


def test_database_down(client):
    with mock.patch("talu_site.health.connection.cursor",
                    side_effect=OperationalError("connection refused")):
        resp = client.get("/healthz")
    assert resp.status_code == 503
    assert resp.json()["status"] == "unavailable"
    assert resp.json()["database"] == "down"


@override_settings(REDIS_URL="redis://127.0.0.1:1/0")
def test_redis_down(client):
    resp = client.get("/healthz")
    assert resp.status_code == 503
    assert resp.json() == {"status": "unavailable", "database": "ok", "channel_layer": "down"}
