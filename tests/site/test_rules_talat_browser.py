"""Talat's rules page in Chromium (issue 37): every diagram draws its board of 25 squares
with as many towers as its position has, the legend's towers are drawn, and a phone never
pans sideways."""

from __future__ import annotations

import json
import re

import pytest

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}])
def test_the_diagrams_draw_their_towers(live_site, browser, size, tmp_path):
    page = browser.new_context(viewport=size).new_page()
    page.goto(live_site.base + "/rules/talat/")
    figures = page.locator("figure.talat-diagram")
    assert figures.count() >= 6
    for i in range(figures.count()):
        fig = figures.nth(i)
        towers = json.loads(fig.get_attribute("data-towers"))
        assert fig.locator(".sq").count() == 25
        assert fig.locator("svg.talat-tower").count() == len(towers)
    assert page.locator(".talat-icon svg").count() == 4
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"] + 1
    page.locator("#capturing").screenshot(path=str(tmp_path / f"rules-{size['width']}.png"))


def test_a_lesson_is_solved_by_clicking(live_site, browser):
    from playwright.sync_api import expect

    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(live_site.base + "/learn/")
    page.click("a[href$='/learn/talat-david/']")
    page.click('[data-square="12:c3"]')
    expect(page.locator('[data-square="12:d4"]')).to_have_class(re.compile(r"\btarget\b"))
    page.click('[data-square="12:c4"]')  # the large square: refused in A5's words
    expect(page.locator("#lesson-msg")).to_contain_text("does not beat")
    page.click('[data-square="12:c3"]')
    page.click('[data-square="12:d4"]')
    expect(page.locator("#lesson-msg")).to_contain_text("Well done")
    expect(page.locator('[data-square="12:d4"]')).to_have_attribute("data-tower", "1:S3")
    expect(page.locator("#lesson-next")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 391
