"""In real headless Chromium: a club's registrar announces an online Swiss, four players enter
it from the event page, the arbiter asks for round 1 (the worker pairs it and the page shows
it, issue 40), gives it a start time (R41) and then starts
it with the button; a player waiting in the lobby is taken to her game at once, and another
finds their pairing under "My pairings" (desktop) and on the event page (a phone's viewport),
and opens the game.

The site is the test process's one live site (``live_site``, ``tests/site/livesite.py``:
production's settings), shared with the other browser tests: the arbiter and the players are
people of the test's own (``unique``); the registrar is made with ``manage.py event_demo`` on
the site's database.

Screenshots go to ``$TALU_SCREENSHOTS`` when it is set (to look at, never committed)."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.site.livesite import unique
from tests.site.test_browser import sign_up

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("TALU_SCREENSHOTS")


def shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def make_registrar(site, name: str) -> None:
    """``name`` a registrar of the demo club on the site's database (``manage.py event_demo``)."""
    site.manage("event_demo", "--registrar", name)


def test_arbiter_pairs_a_round_and_a_player_sees_their_pairing(live_site, browser):
    base = live_site.base
    arbi, pia_name, paul, pete, pam_name = unique("arbi", "pia", "paul", "pete", "pam")
    players = (pia_name, paul, pete, pam_name)
    arbiter = browser.new_context().new_page()
    sign_up(arbiter, base, arbi)
    make_registrar(live_site, arbi)
    arbiter.goto(base + "/events/")
    arbiter.fill("input[name=name]", "Tuesday club night")
    arbiter.select_option("select[name=system]", "swiss")
    arbiter.fill("input[name=rounds]", "3")
    arbiter.click("form[action$='/events/new/'] button[type=submit]")
    arbiter.wait_for_selector("[data-testid=arbiter]")
    event_url = arbiter.url
    assert "Tuesday club night is announced" in arbiter.inner_text("main")

    pages = {}
    for name in players:
        page = browser.new_context().new_page()
        sign_up(page, base, name)
        page.goto(event_url)
        page.click("[data-testid=register]")
        assert "You are entered." in page.inner_text(".messages")
        pages[name] = page

    arbiter.goto(event_url)
    assert arbiter.locator("[data-testid=players] tbody tr").count() == 4
    arbiter.click("[data-testid=pair]")
    # issue 40: the site's worker pairs the round; the page shows it when it is there
    assert "Round 1 is being paired" in arbiter.inner_text(".messages")
    arbiter.wait_for_selector("[data-testid=round-1]", timeout=20000)
    boards = arbiter.locator("[data-testid=round-1] tbody tr")
    assert boards.count() == 2
    # R41: a start time for the worker, shown to everyone; then the button starts it now
    at = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    arbiter.fill("[data-testid=start-at]", at)
    arbiter.click("[data-testid=schedule]")
    when = at.replace("T", " ")
    assert f"Round 1 starts at {when} UTC" in arbiter.inner_text(".messages")
    assert f"starts at {when} UTC" in arbiter.inner_text("[data-testid=starts-at]")
    # pam waits in the lobby, its socket open: the round's start takes her to her game
    pam = pages[pam_name]
    pam.goto(base + "/")
    for _ in range(100):
        if pam.evaluate("document.body.dataset.lobbyLive") == "1":
            break
        pam.wait_for_timeout(100)
    arbiter.click("[data-testid=start]")
    assert "Round 1 has started." in arbiter.inner_text(".messages")
    shot(arbiter, "event-arbiter-desktop")
    pam.wait_for_url(f"{base}/games/**", timeout=15000)

    pia = pages[pia_name]
    pia.goto(base + "/")  # the lobby, like every page, tells her that her game has started
    assert "your game has started" in pia.inner_text("[data-testid=event-banner]")
    pia.goto(base + "/events/mine/")
    row = pia.locator("[data-testid=my-pairings-table] tbody tr").first
    text = row.inner_text()
    assert "Tuesday club night" in text and any(n in text for n in players if n != pia_name)
    shot(pia, "my-pairings-desktop")
    pia.set_viewport_size({"width": 390, "height": 844})
    pia.goto(event_url)
    mine = pia.locator("[data-testid=my-board]")
    assert mine.count() == 1 and pia_name in mine.inner_text()
    shot(pia, "event-player-phone")
    pia.goto(base + "/events/mine/")
    pia.click("[data-testid=event-game]")
    pia.wait_for_url(f"{base}/games/**")
    assert pia_name in pia.inner_text("main")
