"""The bell in the browser (issue 39): a challenge naming a player rings the bell on their open
lobby page at once (the lobby's socket, no reload), on a phone (390x844) and on a desktop;
the bell leads to ``/notifications/``, which lists the notice with its link and marks it
read."""

from __future__ import annotations

import pytest

from tests.site.livesite import unique
from tests.site.test_offers_browser import log_in

pytestmark = pytest.mark.browser


def challenge(page, base: str, opponent: str) -> None:
    page.goto(base + "/")
    page.fill("#id_opponent", opponent)
    page.click("#challenge-form button[type=submit]")
    page.wait_for_url(base + "/")


def test_a_challenge_rings_the_bell_live_and_the_page_lists_it(live_site, browser, tmp_path):
    from playwright.sync_api import expect

    base = live_site.base
    ann_name, ben_name = unique("ann", "ben")
    live_site.users(ann_name, ben_name)
    ann_ctx, ben_ctx = browser.new_context(), browser.new_context()
    ann, ben = ann_ctx.new_page(), ben_ctx.new_page()
    ben.set_viewport_size({"width": 390, "height": 844})  # ben on a phone, ann on a desktop
    for page, name in ((ann, ann_name), (ben, ben_name)):
        log_in(page, base, name)
        expect(page.locator("[data-testid=bell-count]")).to_be_hidden()  # nothing yet
        expect(page.locator("body")).to_have_attribute("data-lobby-live", "1")

    for sender, to, to_name, shot in ((ann, ben, ben_name, "bell-phone.png"),
                                      (ben, ann, ann_name, "bell-desktop.png")):
        challenge(sender, base, to_name)
        count = to.locator("[data-testid=bell-count]")
        expect(count).to_have_text("1", timeout=10000)  # live: the page was not reloaded
        expect(count).to_be_visible()
        to.screenshot(path=str(tmp_path / shot))

    for page, sender, shot in ((ben, ann_name, "list-phone.png"),
                               (ann, ben_name, "list-desktop.png")):
        page.click("[data-testid=bell]")
        page.wait_for_url(base + "/notifications/")
        item = page.locator("[data-testid=notices] li").first
        expect(item).to_contain_text(f"{sender} challenges you to a rated game of Talu")
        expect(item.locator("strong.tag")).to_have_text("new")
        expect(item.locator("a")).to_have_attribute("href", "/")
        expect(page.locator("[data-testid=bell-count]")).to_be_hidden()  # read now
        overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
        assert not overflow  # nothing pans sideways on the phone
        page.screenshot(path=str(tmp_path / shot), full_page=True)
    ann_ctx.close()
    ben_ctx.close()
