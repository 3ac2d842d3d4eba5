"""Quick pairing in real Chromium (R47): two players press the same button and land in one
game; a waiting player sees their wait and how many are in range; cancel takes them out at
once, and so does leaving the page. The other player's counts change through the lobby's
websocket (its poll falls back to 30 s while the socket is open).

The site is the test process's one live site (``live_site``, ``tests/site/livesite.py``:
production's settings), shared with the other browser tests: ann and ben are people of the
test's own (``unique``)."""

from __future__ import annotations

import time

import pytest

from tests.site.livesite import unique
from tests.site.test_browser import sign_up

pytestmark = pytest.mark.browser

BUTTON = "[data-testid='pool-3+2-rated']"


def wait_text(page, selector: str, want: str, timeout: float = 15) -> None:
    """Poll from Python (the site's CSP forbids the eval behind wait_for_function)."""
    deadline = time.monotonic() + timeout
    while want not in (page.text_content(selector) or ""):
        assert time.monotonic() < deadline, f"{selector}: {want!r} never shown"
        time.sleep(0.1)


def test_two_players_press_the_same_button_and_land_in_one_game(live_site, browser):
    base = live_site.base
    ann_name, ben_name = unique("ann", "ben")
    ann_ctx, ben_ctx = browser.new_context(), browser.new_context()
    ann, ben = ann_ctx.new_page(), ben_ctx.new_page()
    ben.set_viewport_size({"width": 390, "height": 844})  # one of them on a phone
    sign_up(ann, base, ann_name)
    sign_up(ben, base, ben_name)

    # ann waits alone: the page shows her wait; cancel takes her out at once
    from playwright.sync_api import expect

    for page in (ann, ben):  # the lobby's websocket is open (the CSP lets it): no polling
        expect(page.locator("body")).to_have_attribute("data-lobby-live", "1")
    # the lobby lives: ann's new challenge appears in ben's lobby without a reload
    ann.fill("#id_opponent", "")
    ann.click("#challenge-form button[type=submit]")
    expect(ben.locator(f"[data-testid=accept-{ann_name}]")).to_be_visible(timeout=10000)
    ann.click("form[action$='/cancel/'] button")  # and goes when she cancels it
    expect(ben.locator(f"[data-testid=accept-{ann_name}]")).to_have_count(0, timeout=10000)
    ann.click(BUTTON)
    expect(ann.locator("#pairing")).to_be_visible()
    wait_text(ann, "#pairing", "3+2 rated")
    wait_text(ben, BUTTON, "1 waiting")
    ann.click("[data-testid=pool-cancel]")
    wait_text(ben, BUTTON, "0 waiting")
    expect(ann.locator("#pairing")).to_be_hidden()

    # leaving the page while waiting takes her out too
    ann.click(BUTTON)
    wait_text(ben, BUTTON, "1 waiting")
    ann.goto(base + "/rules/")
    wait_text(ben, BUTTON, "0 waiting")
    ann.goto(base + "/")

    # both press the same button: one game, both sent to it
    ann.click(BUTTON)
    expect(ann.locator("#pairing")).to_be_visible()
    ben.click(BUTTON)
    ann.wait_for_url("**/games/**", timeout=20000)
    ben.wait_for_url("**/games/**", timeout=20000)
    assert ann.url == ben.url
    roles = {ann.get_attribute("#game", "data-role"), ben.get_attribute("#game", "data-role")}
    assert roles == {"player"}
    ann_ctx.close()
    ben_ctx.close()
