"""Settings: embedded defaults without configuration, real services when set, loud failures."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CODE = ("import django, json; django.setup(); from django.conf import settings as s; "
        "print(json.dumps([s.DATABASES['default']['ENGINE'], "
        "s.CHANNEL_LAYERS['default']['BACKEND'], s.DEBUG, s.CACHES['default']['BACKEND'], "
        "s.SESSION_ENGINE]))")


def run(**env_over: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS")}
    env.update(env_over, DJANGO_SETTINGS_MODULE="talu_site.settings")
    return subprocess.run([sys.executable, "-c", CODE], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)


def test_embedded_defaults():
    out = run()
    assert out.returncode == 0, out.stderr
    assert "sqlite3" in out.stdout and "InMemoryChannelLayer" in out.stdout
    assert "LocMemCache" in out.stdout
    # A process's own cache would not hear of a logout in another: sessions in the database.
    assert "backends.db" in out.stdout and "cached_db" not in out.stdout


def test_real_services_when_set():
    out = run(DATABASE_URL="postgres://u@db:5432/talu", REDIS_URL="redis://cache:6379/0")
    assert out.returncode == 0, out.stderr
    assert "postgresql" in out.stdout and "PipelinedPubSubChannelLayer" in out.stdout
    # One cache for every process: the API's throttle budget is not multiplied by processes.
    assert "RedisCache" in out.stdout
    assert "cached_db" in out.stdout  # sessions read from that shared cache


@pytest.mark.parametrize("env, needle", [
    ({"DEBUG": "maybe"}, "DEBUG"),
    ({"DEBUG": "false"}, "SECRET_KEY"),
    ({"DEBUG": "false", "SECRET_KEY": "x" * 50}, "ALLOWED_HOSTS"),
    ({"DATABASE_URL": "mysql-ish://nowhere"}, "DATABASE_URL"),
    ({"REDIS_URL": "localhost:6379"}, "REDIS_URL"),
    ({"TALU_WS_MAX_MESSAGE": "lots"}, "TALU_WS_MAX_MESSAGE"),
])
def test_bad_values_fail_loudly(env, needle):
    out = run(**env)
    assert out.returncode != 0
    assert "ImproperlyConfigured" in out.stderr and needle in out.stderr
