"""Talat in the browser (issue 37): the three boards drawn in a triangle from each seat's
side, a tower placed by choosing it and clicking a dotted start square, the others' pages
following, a refusal in words, on a desktop and a phone."""

from __future__ import annotations

import pytest

from tests.site.livesite import unique
from tests.site.test_offers_browser import log_in

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}


def test_three_players_place_towers_on_their_own_boards(live_site, browser, tmp_path):
    from playwright.sync_api import expect

    base = live_site.base
    names = unique("ann", "ben", "cyd")
    live_site.users(*names)
    uuid = live_site.table("talat/three", list(names), rated=False)
    pages = []
    for i, name in enumerate(names):
        page = browser.new_context().new_page()
        if i == 1:
            page.set_viewport_size(PHONE)
        log_in(page, base, name)
        page.goto(f"{base}/games/{uuid}/")
        expect(page.locator("#conn")).to_have_text("live")
        pages.append(page)
    ann, ben, cyd = pages
    # each sees the three boards, their own two at the bottom
    for page, (left, right, top) in zip(pages, (("12", "31", "23"), ("23", "12", "31"),
                                                ("31", "23", "12")), strict=True):
        assert page.locator(".talat-board-box.spot-left").get_attribute("data-board") == left
        assert page.locator(".talat-board-box.spot-right").get_attribute("data-board") == right
        assert page.locator(".talat-board-box.spot-top").get_attribute("data-board") == top
    # seat 1 places its large hexagon on 12:c1 (its own start line, row 1 of board 12, A3)
    expect(ann.locator(".talat-tray .talat-kind")).to_have_count(9)
    ann.click('.talat-kind[data-kind="L6"]')
    expect(ann.locator('.sq.dest[data-square="12:c1"]')).to_be_visible()
    expect(ann.locator('.sq.dest[data-square="12:c5"]')).to_have_count(0)  # seat 2's line
    ann.click('[data-square="12:c1"]')
    for page in pages:
        expect(page.locator('[data-square="12:c1"]')).to_have_attribute("data-tower", "1:L6")
    # seat 2 places on a phone; a click on seat 3's line is refused in words
    ben.click('.talat-kind[data-kind="S3"]')
    ben.click('[data-square="23:a5"]')
    expect(ben.locator("#refusal")).to_contain_text("your own start lines")
    ben.click('[data-square="23:a1"]')
    expect(cyd.locator('[data-square="23:a1"]')).to_have_attribute("data-tower", "2:S3")
    assert ben.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    ann.screenshot(path=str(tmp_path / "talat-desktop.png"), full_page=True)
    ben.screenshot(path=str(tmp_path / "talat-phone.png"), full_page=True)
