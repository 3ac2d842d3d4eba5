"""Helpers of the browser tests of a newcomer's first game (issue 24), on the test process's one
live site (``tests/site/livesite.py``: the demo data, alice, bob, carol and the sample game of
real play; ``Site.game`` sets a game up through the command path before a page opens it)."""

from __future__ import annotations

import time

import pytest

from tests.site.livesite import PASSWORD, Site

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}  # a laptop, as the issue tried it
VIEWPORTS = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])


@pytest.fixture
def newcomer_site(live_site):
    """The live site of this test process, with the demo data (``tests/site/livesite.py``)."""
    return live_site


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
