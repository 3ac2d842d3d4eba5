"""A clock visibly runs down in Chromium and the game ends on time (R36, R37).

ann challenges ben to a custom 5+0 game; both play their opening turns (30 s each, never
charged); then ann's 5 seconds run: her clock counts down on both boards (the running one
highlighted, red under 10 s), nobody moves, and the server's worker flags her at the deadline:
both pages say "Dark won: light ran out of time". The site is the test process's one live
site (``live_site``, ``tests/site/livesite.py``: daphne with the worker in its process,
production's settings), shared with the other browser tests: ann and ben are people of the
test's own (``unique``).
"""

from __future__ import annotations

import re
import time

import pytest

from tests.site.livesite import unique
from tests.site.test_browser import sign_up, wait_version

pytestmark = pytest.mark.browser


def _seconds(text: str) -> float:
    """A clock's text ("0:05", "4.2") in seconds."""
    if ":" in text:
        m, s = text.split(":")[-2:]
        return int(m) * 60 + float(s)
    return float(text)


def test_clock_runs_down_and_the_game_ends_on_time(live_site, browser, tmp_path):
    from playwright.sync_api import expect

    base = live_site.base
    ann_name, ben_name = unique("ann", "ben")
    ann_ctx, ben_ctx = browser.new_context(), browser.new_context()
    ann, ben = ann_ctx.new_page(), ben_ctx.new_page()
    ben.set_viewport_size({"width": 390, "height": 844})  # ben plays on a phone
    sign_up(ann, base, ann_name)
    sign_up(ben, base, ben_name)
    ann.select_option("#id_side", "I")
    ann.select_option("#id_time", "custom")
    ann.fill("#id_custom_time", "fischer 5+0")
    ann.fill("#id_opponent", ben_name)
    ann.click("#challenge-form button[type=submit]")
    ben.goto(base + "/")
    # ann's challenge among those ben may accept (another test's open one may be listed too)
    mine = ben.locator("#challenges li", has=ben.locator(f"[data-testid=accept-{ann_name}]"))
    expect(mine.locator("[data-testid=time]")).to_have_text("5s+0")
    ben.click(f"[data-testid=accept-{ann_name}]")
    ben.wait_for_url("**/games/**")
    ann.wait_for_url("**/games/**", timeout=15000)
    for page in (ann, ben):
        expect(page.locator("#conn")).to_have_text("live")
        expect(page.locator("[data-testid=clock-I]")).to_contain_text("first turn")

    # Opening turns (not charged, R36): ann A2-A3 and end, ben H7-H6 and end.
    version = 0
    for page, frm, to in ((ann, "A2", "A3"), (ben, "H7", "H6")):
        page.click(f'[data-square="{frm}"]')
        page.click(f'[data-square="{to}"]')
        version += 1
        wait_version(page, version)
        page.click("#end-turn")
        version += 1
        for p in (ann, ben):
            wait_version(p, version)

    # ann's 5 s run: her clock counts down on both boards, highlighted, low-time red.
    clock_on_ben = ben.locator("[data-testid=clock-I]")
    expect(clock_on_ben).to_have_class(re.compile(r"\brunning\b"))
    expect(clock_on_ben).to_have_class(re.compile(r"\blow\b"))
    first = _seconds(clock_on_ben.inner_text())
    time.sleep(1.2)
    second = _seconds(clock_on_ben.inner_text())
    assert 0 < second < first <= 5.0, (first, second)
    assert _seconds(ben.locator("[data-testid=clock-O]").inner_text()) == 5.0  # not running
    ben.screenshot(path=str(tmp_path / "clock-running.png"))

    for page in (ann, ben):
        expect(page.locator("#result")).to_have_text(
            re.compile(r"^Dark won: light ran out of time"), timeout=10000)
        expect(page.locator("[data-testid=clock-I]")).to_have_text("0.0")
    ben.screenshot(path=str(tmp_path / "clock-flagged.png"))
    for ctx in (ann_ctx, ben_ctx):
        ctx.close()
