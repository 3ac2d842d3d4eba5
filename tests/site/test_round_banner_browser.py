"""A round that starts while the player reads another page (issue 38, finding 3): the page's
bell asks every few seconds for an entrant, shows the banner "your game has started" with a
link to the game, and plays the site's sound where the player wants it (desktop and phone)."""

from __future__ import annotations

import pytest

from tests.site.livesite import unique
from tests.site.test_offers_browser import log_in

pytestmark = pytest.mark.browser


def test_the_banner_and_sound_reach_a_page_already_open(live_site, browser, tmp_path):
    from playwright.sync_api import expect

    base = live_site.base
    arb, ann_name, ben_name = unique("arb", "ann", "ben")
    live_site.users(arb, ann_name, ben_name)
    event = live_site.shell(
        "from django.contrib.auth import get_user_model\n"
        "from registry.models import AffiliatedBody\n"
        "from registry.events import services\n"
        "U = get_user_model()\n"
        f"a = U.objects.get(username={arb!r})\n"
        f"b = AffiliatedBody.objects.create(registrar_id={arb.upper()!r}, name={arb!r})\n"
        "b.registrars.add(a)\n"
        "e = services.create_event(a, b, name='Bell night', rounds=1, venue='online')\n"
        f"for n in ({ann_name!r}, {ben_name!r}):\n"
        "    services.register(U.objects.get(username=n), e)\n"
        "print(e.pk)").splitlines()[-1]
    pages = []
    for name, size in ((ann_name, None), (ben_name, {"width": 390, "height": 844})):
        page = browser.new_context().new_page()
        if size:
            page.set_viewport_size(size)
        log_in(page, base, name)
        page.goto(base + "/rules/")
        page.evaluate("localStorage.setItem('talu.sound', '1')")
        page.click("h1")  # a gesture: browsers play sound only after one
        pages.append(page)
    for page in pages:
        expect(page.locator("[data-testid=event-banner]")).to_have_count(0)
    live_site.shell(
        "from django.contrib.auth import get_user_model\n"
        "from registry.events import rounds\n"
        "from registry.events.models import Event\n"
        f"a = get_user_model().objects.get(username={arb!r})\n"
        f"e = Event.objects.get(pk={event})\n"
        "rounds.pair_round(a, e)\n"
        "rounds.start_round(a, e)\n")
    for page in pages:
        banner = page.locator("[data-testid=event-banner]")
        expect(banner).to_contain_text("Bell night, round 1: your game has started",
                                       timeout=15000)
        assert page.evaluate("window.TaluSound.played || 0") >= 1
    pages[1].screenshot(path=str(tmp_path / "round-banner-phone.png"))
    pages[0].click("[data-testid=event-banner] a")
    expect(pages[0].locator("#conn")).to_have_text("live")
    expect(pages[0].locator("[data-testid=event-banner]")).to_have_count(0)
