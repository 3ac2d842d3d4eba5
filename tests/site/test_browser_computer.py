"""A person plays the computer to the end of a short game in real headless Chromium: "Play the
computer" in the lobby starts the game at once, the computer (marked as such) answers every
turn step by step so the board shows each of its steps, and the game ends with a result and
its records like any game. The site is the test process's one live site (``live_site``,
``tests/site/livesite.py``: daphne with the worker in its process and the computer's pool of
processes, production's settings), shared with the other browser tests: the person is one of
the test's own (``unique``)."""

from __future__ import annotations

import re
import time

import pytest

from tests.site.livesite import unique
from tests.site.test_browser import sign_up

pytestmark = pytest.mark.browser

WATCH_VERSIONS = """() => {
  const seen = window.taluSeen = [];
  const root = document.getElementById('game');
  new MutationObserver(() => seen.push(Number(root.dataset.version)))
    .observe(root, {attributes: true, attributeFilter: ['data-version']});
}"""


def test_a_person_plays_the_computer_to_the_end(live_site, browser):
    from playwright.sync_api import expect

    base = live_site.base
    (dora,) = unique("dora")
    ctx = browser.new_context()
    page = ctx.new_page()
    sign_up(page, base, dora)
    page.select_option("#id_computer_variant", "standard")
    page.select_option("#id_computer_level", "1")
    page.select_option("#id_computer_side", "I")
    page.click("[data-testid=play-computer]")
    page.wait_for_url("**/games/**")
    expect(page.locator("#conn")).to_have_text("live")
    expect(page.locator("[data-testid=computer-O]")).to_have_text("computer · level 1")
    assert page.get_attribute("#game", "data-side") == "I"

    # A turn by clicks: A2-A3, then End turn. The computer's answer arrives step by step.
    page.evaluate(WATCH_VERSIONS)
    page.click('[data-square="A2"]')
    expect(page.locator('[data-square="A3"]')).to_have_class(re.compile(r"\bdest\b"))
    page.click('[data-square="A3"]')
    expect(page.locator('[data-square="A3"]')).to_have_attribute("data-piece", "I")
    expect(page.locator("#end-turn")).to_be_enabled()
    page.click("#end-turn")
    expect(page.locator("#stgn")).to_contain_text("001 O: ", timeout=30000)
    expect(page.locator("#pass")).to_be_enabled(timeout=30000)
    seen = page.evaluate("window.taluSeen")
    mine = 2  # A2-A3 and end
    theirs = [v for v in seen if v > mine]
    assert len(set(theirs)) >= 2, seen  # the board was drawn after each of its steps

    # Then the person passes until the game ends: three own passes forfeit (R12), unless the
    # computer wins first. Either way the game reaches its end on the board.
    # The game may end while the person waits for their turn (the computer's win, or the
    # finisher's end event after the third pass), so each wait is for either.
    def my_turn_or_the_end() -> bool:
        deadline = time.monotonic() + 30
        while not page.locator("#result").is_visible():
            if page.locator("#pass").is_enabled():
                return True
            assert time.monotonic() < deadline, "neither my turn nor the end came"
            page.wait_for_timeout(100)
        return False

    for _ in range(4):
        if not my_turn_or_the_end():
            break
        before = int(page.get_attribute("#game", "data-version"))
        page.click("#pass")
        page.wait_for_timeout(300)
        if page.locator("#confirm-pass").is_visible():  # a pass that loses asks first (issue 24)
            page.click("#confirm-pass-yes")
        # The pass is taken once the board's version moves past it (or the game ends).
        # Polled from here: wait_for_function evaluates a string, which the site's CSP refuses.
        deadline = time.monotonic() + 30
        while (int(page.get_attribute("#game", "data-version")) <= before
               and not page.locator("#result").is_visible()):
            assert time.monotonic() < deadline, "my pass was never taken"
            page.wait_for_timeout(100)
    expect(page.locator("#result")).to_contain_text("Dark won", timeout=30000)
    expect(page.locator("#stgn")).to_contain_text("!: O")
    expect(page.locator("#records")).to_contain_text("STGN", timeout=30000)  # recorded
    expect(page.locator("#records")).not_to_contain_text("→")  # freeplay: no rating moved (R47)
    expect(page.locator("#pass")).to_be_disabled()
    ctx.close()
