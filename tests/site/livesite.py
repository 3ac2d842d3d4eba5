"""The one live site of a test process, for the browser tests (issue 35): daphne with the worker
in its process (``talu_site.serve``, as ``./dev serve`` starts it) on the embedded defaults
(SQLite, the in-memory layer), with production's settings (``DEBUG`` off: the security headers
and the Content-Security-Policy users get), the demo data (alice, bob, carol, dave and the sample
game) and the rate limits off (a whole run signs up more people from one address in an hour
than a person would; the limits have their own tests).

Started once per test process by the ``live_site`` fixture (tests/site/conftest.py; the
browser tests share one xdist worker, so one site serves them all), on a copy of the migrated
template database (``tests/testdb.py``). Tests are kept apart by their data: each signs up
people of its own (``unique``) and sets its games up through the command path (``Site.game``).
A second site in one process is refused: ``tests/test_suite_setup.py`` checks that no module
starts one of its own.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from registry.records import keys
from tests import testdb

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "talu-demo-2024"  # play/management/commands/demo_data.py

_started: list[str] = []  # the base URL of this process's site, once started


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def unique(*names: str) -> tuple[str, ...]:
    """``names`` made unique on the shared site (a short random suffix each): two tests, or two
    runs of one test, never sign up the same person."""
    tag = secrets.token_hex(2)
    return tuple(f"{name}{tag}" for name in names)


def _rates_off() -> dict[str, str]:
    from talu_site import ratelimit

    return {ratelimit.variable(name): "off" for name in ratelimit.DEFAULTS}


def site_env(tmp: Path) -> dict[str, str]:
    """The environment of the live site in ``tmp`` (and of ``manage.py`` beside it)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "TALU_KEYRING")}
    env.update(DATABASE_URL=f"sqlite:///{tmp / 'site.sqlite3'}", TALU_KEYRING=str(tmp / "keyring"),
               DJANGO_SETTINGS_MODULE="talu_site.settings", DEBUG="false",
               SECRET_KEY="live-site-test-" + "k" * 50, ALLOWED_HOSTS="127.0.0.1,localhost",
               SECURE_COOKIES="false", **_rates_off())
    return env


class Site:
    """The running site: its address, its directory, and set-up through ``manage.py``."""

    def __init__(self, base: str, tmp: Path) -> None:
        self.base = base
        self.tmp = tmp
        self.env = site_env(tmp)
        self.keyring = tmp / "keyring"

    def manage(self, *args: str, timeout: int = 120) -> str:
        """``manage.py`` on the site's database (e.g. ``shell -c``); its standard output."""
        out = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env,
                             check=True, timeout=timeout, capture_output=True, text=True)
        return out.stdout

    def shell(self, code: str) -> str:
        return self.manage("shell", "-c", code).strip()

    def users(self, *names: str) -> None:
        """Accounts with the demo password (created once)."""
        self.shell(
            "from django.contrib.auth import get_user_model\n"
            "U = get_user_model()\n"
            f"for n in {list(names)!r}:\n"
            "    u, new = U.objects.get_or_create(username=n)\n"
            f"    u.set_password({PASSWORD!r}); u.save()\n")

    def table(self, variant: str, players: list[str], rated: bool = False,
              time_control: str = "untimed", options: dict | None = None) -> str:
        """A new game of any game (``variant`` by key, "tablut/9x9") with ``players`` in its
        seats' playing order; its uuid."""
        return self.shell(
            "from django.contrib.auth import get_user_model\n"
            "from play.lifecycle import start_table\n"
            "U = get_user_model()\n"
            f"g = start_table({variant!r}, [U.objects.get(username=n) for n in {players!r}],"
            f" rated={rated!r}, time_control={time_control!r}, options={options!r})\n"
            "print(g.uuid)").splitlines()[-1]

    def game(self, light: str = "alice", dark: str = "bob", steps=(), variant: str = "standard",
             rated: bool = False, resign: str | None = None,
             time_control: str = "untimed") -> str:
        """A new game between ``light`` and ``dark`` with ``steps`` ((side, step dict) or
        (side, "end"/"pass")) played through the command path; its uuid."""
        plan = [(side, {"kind": s} if isinstance(s, str) else s) for side, s in steps]
        return self.shell(
            "from django.contrib.auth import get_user_model\n"
            "from play.lifecycle import start_game\n"
            "from play.commands.path import execute\n"
            "from play.commands.submission import Submission\n"
            "from play.games.protocol import PlayStep, Resign, player\n"
            "U = get_user_model()\n"
            f"g = start_game(U.objects.get(username={light!r}), U.objects.get(username={dark!r}),"
            f" variant={variant!r}, rated={rated!r}, time_control={time_control!r})\n"
            f"for side, step in {json.dumps(plan)}:\n"
            "    g.refresh_from_db()\n"
            "    r = execute(Submission(g.uuid, player(side), PlayStep(step), g.version))\n"
            "    assert r.ok, r.reason\n"
            f"if {resign!r}:\n"
            "    g.refresh_from_db()\n"
            f"    execute(Submission(g.uuid, player({resign!r}), Resign(), g.version))\n"
            "print(g.uuid)").splitlines()[-1]


@contextlib.contextmanager
def running_site(tmp: Path) -> Iterator[Site]:
    """Copy the migrated template, load the demo data, start daphne, yield the ``Site``; stop
    it and fail on a traceback in its log. Once per process."""
    assert not _started, f"a second live site in one test process (the first: {_started[0]})"
    env = site_env(tmp)
    testdb.copy_sqlite(tmp / "site.sqlite3")
    subprocess.run([sys.executable, "manage.py", "demo_data"], cwd=ROOT, env=env, check=True,
                   timeout=180, capture_output=True)
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
    _started.append(base)
    try:
        yield Site(base, tmp)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.close()
        keys.stop_agent(tmp / "keyring")  # the server's signing started one
    text = (tmp / "daphne.log").read_text()
    assert "Traceback" not in text, text[-4000:]
