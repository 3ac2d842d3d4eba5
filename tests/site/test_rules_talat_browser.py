"""Talat's rules page in Chromium (issue 37): every diagram draws its board of 25 squares
with as many towers as its position has, the legend's towers are drawn, and a phone never
pans sideways."""

from __future__ import annotations

import json

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
