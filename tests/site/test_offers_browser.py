"""Offers between players in the browser (issue 39): light clicks "Offer a null game", dark
sees it standing and accepts it in another browser, and both pages show the null game; a
declined offer leaves the game live. Talu offers a null game, never a draw."""

from __future__ import annotations

import pytest

from tests.site.livesite import PASSWORD, unique

pytestmark = pytest.mark.browser


def log_in(page, base: str, name: str) -> None:
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    page.click("form.card button[type=submit]")
    page.wait_for_url(base + "/")


def test_a_null_game_offered_in_one_browser_and_accepted_in_another(live_site, browser,
                                                                     tmp_path):
    from playwright.sync_api import expect

    base = live_site.base
    ann_name, ben_name = unique("ann", "ben")
    live_site.users(ann_name, ben_name)
    uuid = live_site.game(ann_name, ben_name, rated=True)
    ann_ctx, ben_ctx = browser.new_context(), browser.new_context()
    ann, ben = ann_ctx.new_page(), ben_ctx.new_page()
    ben.set_viewport_size({"width": 390, "height": 844})  # ben plays on a phone
    for page, name in ((ann, ann_name), (ben, ben_name)):
        log_in(page, base, name)
        page.goto(f"{base}/games/{uuid}/")
        expect(page.locator("#conn")).to_have_text("live")
    expect(ann.locator("#offer-null")).to_be_visible()
    expect(ann.locator("#offer-draw")).to_be_hidden()  # talu has no draw

    # Declined: the game plays on and the offer may be made again.
    ann.click("#offer-null")
    expect(ann.locator("#offer-text")).to_contain_text("You offered a null game")
    expect(ann.locator("#offer-withdraw")).to_be_visible()
    expect(ben.locator("#offer-text")).to_contain_text(f"Light ({ann_name}) offers a null game")
    ben.click("#offer-decline")
    expect(ben.locator("#offer-box")).to_be_hidden()
    expect(ann.locator("#offer-box")).to_be_hidden()
    expect(ann.locator("#offer-null")).to_be_visible()

    # Offered again and accepted: a null game on both pages, no rating change.
    ann.click("#offer-null")
    expect(ben.locator("#offer-accept")).to_have_text("Accept a null game")
    ben.screenshot(path=str(tmp_path / "offer-standing.png"))
    ben.click("#offer-accept")
    for page in (ann, ben):
        expect(page.locator("#result")).to_have_text(
            "Null game: both players agreed to it (no winner, not rated)")
        expect(page.locator("#records")).to_contain_text("a null game is unrated",
                                                         timeout=15000)
        expect(page.locator("#offer-box")).to_be_hidden()
        expect(page.locator("#offer-null")).to_be_hidden()
    ann_ctx.close()
    ben_ctx.close()
