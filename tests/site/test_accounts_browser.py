"""The settings page in real headless Chromium (issue 39), on a desktop and on a 390x844
phone: a new player signs up with an email address, opens Settings from the header, turns
the dark theme on with sounds off, and every page then draws dark (the <html> attributes the
game page's scripts read too); nothing is wider than the phone. Screenshots go to
``$TALU_SCREENSHOTS`` when it is set (to look at, never committed)."""

from __future__ import annotations

import pytest

from tests.site.livesite import unique
from tests.site.test_events_browser import shot

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def sign_up_with_email(page, base: str, name: str) -> None:
    page.goto(base + "/accounts/signup/")
    page.fill("#id_username", name)
    page.fill("#id_email", f"{name}@example.org")
    page.fill("#id_password1", "board-Game-2024!")
    page.fill("#id_password2", "board-Game-2024!")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"] + 1
    shot(page, f"accounts-signup-{page.viewport_size['width']}")
    page.click("form.card button[type=submit]")
    page.wait_for_url(base + "/")


def background(page) -> str:
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_settings_page_turns_the_site_dark(live_site, browser, viewport):
    from playwright.sync_api import expect

    base = live_site.base
    (name,) = unique("set")
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    sign_up_with_email(page, base, name)
    expect(page.locator(".messages")).to_contain_text(f"We sent a link to {name}@example.org")
    light = background(page)
    page.click("header [data-testid=settings]")
    page.wait_for_url(base + "/accounts/settings/")
    expect(page.locator("[data-testid=pending]")).to_contain_text(f"{name}@example.org")
    expect(page.locator("[data-testid=no-email]")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1
    shot(page, f"accounts-settings-{viewport['width']}-light")

    # a bad address: a clear error, the page still fits
    page.fill("#id_email", "not an address")
    page.click("[data-testid=email-section] form.form button[type=submit]")
    expect(page.locator("[data-testid=email-section] .errorlist")).to_contain_text(
        "That is not an email address")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1

    page.check("input[name=theme][value=dark]")
    page.uncheck("input[name=sound]")
    page.check("input[name=show_overlaps]")  # off by default, as the board had them
    page.uncheck("input[name=notice_turn_email]")
    page.click("[data-testid=prefs-form] button[type=submit]")
    expect(page.locator(".messages")).to_contain_text("Your settings are saved.")
    html = page.locator("html")
    expect(html).to_have_attribute("data-theme", "dark")
    expect(html).to_have_attribute("data-sound", "off")
    assert page.is_checked("input[name=theme][value=dark]")
    assert not page.is_checked("input[name=notice_turn_email]")
    assert page.is_checked("input[name=notice_round_email]")
    dark = background(page)
    assert dark != light and dark == "rgb(24, 22, 20)"
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1
    shot(page, f"accounts-settings-{viewport['width']}-dark")

    (other,) = unique("opp")
    live_site.users(other)
    game = live_site.game(name, other)
    for where in ("/leaderboard/", "/", f"/games/{game}/"):  # every page
        page.goto(base + where)
        expect(page.locator("html")).to_have_attribute("data-theme", "dark")
        assert background(page) == dark
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1
        shot(page, f"accounts-{where.strip('/').split('/')[0] or 'lobby'}-"
                   f"{viewport['width']}-dark")
    # the game page's scripts read the board preferences from <html>
    assert page.evaluate("document.documentElement.dataset.sound") == "off"
    assert page.evaluate("document.documentElement.dataset.overlaps") == "on"
    assert page.evaluate("document.documentElement.dataset.confirmMoves") == "off"
    assert page.is_checked("#show-marks")  # talu's board starts with its overlaps shown
    assert not page.is_checked("#sound")
    context.close()
