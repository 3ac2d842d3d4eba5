"""A takeback in the browser (issue 39): in a casual game light asks to take back its move
("Ask to take back"), dark sees the request on a phone and accepts it, and both pages show
the position and the move list before the move, with light to move again. A rated game shows
no takeback button."""

from __future__ import annotations

import pytest

from tests.site.livesite import unique
from tests.site.test_offers_browser import log_in

pytestmark = pytest.mark.browser


def test_a_takeback_asked_in_one_browser_and_accepted_in_another(live_site, browser, tmp_path):
    from playwright.sync_api import expect

    base = live_site.base
    ann_name, ben_name = unique("ann", "ben")
    live_site.users(ann_name, ben_name)
    move = {"kind": "move", "from": "A2", "to": "A3"}
    uuid = live_site.game(ann_name, ben_name, steps=[("I", move), ("I", "end")], rated=False)
    rated = live_site.game(ann_name, ben_name, steps=[("I", move), ("I", "end")], rated=True)
    ann_ctx, ben_ctx = browser.new_context(), browser.new_context()
    ann, ben = ann_ctx.new_page(), ben_ctx.new_page()
    ben.set_viewport_size({"width": 390, "height": 844})  # ben plays on a phone
    for page, name in ((ann, ann_name), (ben, ben_name)):
        log_in(page, base, name)
        page.goto(f"{base}/games/{uuid}/")
        expect(page.locator("#conn")).to_have_text("live")
        expect(page.locator("#stgn")).to_contain_text("A3")
    ann.click("#offer-takeback")
    expect(ann.locator("#offer-text")).to_contain_text("You asked to take back your last move")
    expect(ben.locator("#offer-text")).to_contain_text(
        f"Light ({ann_name}) asks to take back their last move")
    ben.screenshot(path=str(tmp_path / "takeback-asked.png"))
    ben.click("#offer-accept")
    for page in (ann, ben):
        expect(page.locator("#offer-box")).to_be_hidden()
        expect(page.locator("#stgn")).not_to_contain_text("A3")
    expect(ann.locator("#status")).to_contain_text("Your turn")
    ann.screenshot(path=str(tmp_path / "takeback-done.png"))

    ann.goto(f"{base}/games/{rated}/")
    expect(ann.locator("#conn")).to_have_text("live")
    expect(ann.locator("#offer-null")).to_be_visible()
    expect(ann.locator("#offer-takeback")).to_be_hidden()  # rated: no takebacks
    ann_ctx.close()
    ben_ctx.close()
