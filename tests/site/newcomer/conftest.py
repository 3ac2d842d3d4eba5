"""One live site for every browser test of a newcomer's first game (issue 24): started once
per test session (``tests/site/livesite.py``) with the demo data (alice, bob, carol and the
sample game of real play), plus helpers that set a game up through the command path in a
``manage.py shell`` before a page opens it."""

from __future__ import annotations

import json
import time

import pytest

from tests.site.livesite import manage, running_site

PASSWORD = "talu-demo-2024"  # play/management/commands/demo_data.py
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}  # a laptop, as the issue tried it
VIEWPORTS = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])


class Site:
    def __init__(self, base: str, tmp) -> None:
        self.base = base
        self.tmp = tmp

    def shell(self, code: str) -> str:
        return manage(self.tmp, "shell", "-c", code).strip()

    def users(self, *names: str) -> None:
        """Accounts with the demo password (created once)."""
        self.shell(
            "from django.contrib.auth import get_user_model\n"
            "U = get_user_model()\n"
            f"for n in {list(names)!r}:\n"
            "    u, new = U.objects.get_or_create(username=n)\n"
            f"    u.set_password({PASSWORD!r}); u.save()\n")

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


@pytest.fixture(scope="session")
def newcomer_site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("newcomer-site")
    with running_site(tmp) as base:
        manage(tmp, "demo_data")
        yield Site(base, tmp)


@pytest.fixture
def ctx(browser):
    """``ctx(viewport)``: a new browser context of that size, closed after the test."""
    contexts = []

    def make(viewport):
        c = browser.new_context(viewport=viewport)
        contexts.append(c)
        return c

    yield make
    for c in contexts:
        c.close()


def login(page, site: Site, name: str) -> None:
    page.goto(site.base + "/accounts/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(site.base + "/")


def wait_until(check, timeout: float = 10, what: str = "condition") -> None:
    """Poll ``check()`` from Python (no ``wait_for_function``: it evaluates a string, which a
    Content-Security-Policy without 'unsafe-eval' forbids)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def live(page) -> None:
    """The game page's socket is open (its label says live, or finished)."""
    wait_until(lambda: page.get_attribute("#game", "data-conn") in ("live", "finished"),
               what="the game's socket")


def version(page) -> int:
    return int(page.get_attribute("#game", "data-version") or -1)


def boxes_overlap(a: dict, b: dict) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])
