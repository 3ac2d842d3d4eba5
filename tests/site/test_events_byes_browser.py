"""In real headless Chromium (issue 38): a registrar announces a Swiss with the form's two
half-point byes on request; a player enters it from the event page, asks for a half-point bye
in round 2, sees it with one bye left, and cancels it. The live site is the test process's
shared one (``live_site``); the registrar is made with ``manage.py event_demo``."""

from __future__ import annotations

import pytest

from tests.site.livesite import unique
from tests.site.test_browser import sign_up
from tests.site.test_events_browser import make_registrar

pytestmark = pytest.mark.browser


def test_a_player_asks_for_a_bye_and_cancels_it(live_site, browser):
    base = live_site.base
    arbi, ray = unique("arbi", "ray")
    arbiter = browser.new_context().new_page()
    sign_up(arbiter, base, arbi)
    make_registrar(live_site, arbi)
    arbiter.goto(base + "/events/")
    arbiter.fill("input[name=name]", "Bye night")
    arbiter.select_option("select[name=system]", "swiss")
    arbiter.fill("input[name=rounds]", "3")
    assert arbiter.input_value("[data-testid=max-byes]") == "2"
    arbiter.click("form[action$='/events/new/'] button[type=submit]")
    arbiter.wait_for_selector("[data-testid=arbiter]")
    event_url = arbiter.url
    assert "up to 2 half-point byes a player" in arbiter.inner_text(
        "[data-testid=event-max-byes]")

    player = browser.new_context().new_page()
    sign_up(player, base, ray)
    player.goto(event_url)
    player.click("[data-testid=register]")
    assert "You are entered." in player.inner_text(".messages")
    player.select_option("[data-testid=bye-round]", "2")
    player.select_option("[data-testid=bye-kind]", "H")
    player.click("[data-testid=bye-ask]")
    assert "You asked for a half-point bye in round 2." in player.inner_text(".messages")
    assert "Round 2: half-point bye" in player.inner_text("[data-testid=my-bye-2]")
    assert "1 left" in player.inner_text("[data-testid=bye-kind]")

    arbiter.goto(event_url)
    assert ray in arbiter.inner_text("[data-testid=waiting-byes]")

    player.click("[data-testid=bye-cancel-2]")
    assert "Your bye in round 2 is cancelled." in player.inner_text(".messages")
    assert player.locator("[data-testid=my-bye-2]").count() == 0
