"""The site as ``./dev serve`` starts it, for browser tests: daphne with the worker in its
process (``talu_site.serve``) on the embedded defaults, a fresh SQLite file and keyring in a
temporary directory. One function, used by every browser test's fixture (tests/site/
test_browser.py, tests/site/newcomer/conftest.py)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from registry.records import keys

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def site_env(tmp: Path, **overrides: str) -> dict[str, str]:
    """The environment of the embedded site in ``tmp``; ``overrides`` (e.g. ``DEBUG="false"``
    for production's headers) replace its defaults."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "TALU_KEYRING")}
    env.update(DATABASE_URL=f"sqlite:///{tmp / 'site.sqlite3'}", TALU_KEYRING=str(tmp / "keyring"),
               DEBUG="true", DJANGO_SETTINGS_MODULE="talu_site.settings")
    env.update(overrides)
    return env


def manage(tmp: Path, *args: str, timeout: int = 120) -> str:
    """``manage.py`` on the site's database (e.g. ``shell -c``); its standard output."""
    out = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=site_env(tmp),
                         check=True, timeout=timeout, capture_output=True, text=True)
    return out.stdout


@contextlib.contextmanager
def running_site(tmp: Path, commands: tuple[list[str], ...] = (),
                 **overrides: str) -> Iterator[str]:
    """Migrate (then run ``commands`` of ``manage.py``, e.g. ``["demo_data"]``), start daphne
    with ``site_env(tmp, **overrides)``, yield its base URL; stop it and fail on a traceback in
    its log."""
    env = site_env(tmp, **overrides)
    for command in (["migrate", "--noinput", "-v0"], *commands):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True,
                       timeout=180)
    port = free_port()
    log = open(tmp / "daphne.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([sys.executable, "-m", "talu_site.serve", "-b", "127.0.0.1", "-p",
                             str(port), "talu_site.asgi:application"], cwd=ROOT, env=env,
                            stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(base + "/healthz", timeout=2).read()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail("daphne did not start: " + (tmp / "daphne.log").read_text()[-3000:])
            time.sleep(0.3)
    try:
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.close()
        keys.stop_agent(tmp / "keyring")  # the server's signing started one
    text = (tmp / "daphne.log").read_text()
    assert "Traceback" not in text, text[-4000:]
