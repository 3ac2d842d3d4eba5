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
    # the arrow keys move between one board's squares, from the viewer's side
    ann.focus('[data-square="12:c1"]')
    for key, square in (("ArrowRight", "12:d1"), ("ArrowUp", "12:d2"), ("ArrowLeft", "12:c2")):
        ann.keyboard.press(key)
        assert ann.evaluate("document.activeElement.dataset.square") == square
    ann.screenshot(path=str(tmp_path / "talat-desktop.png"), full_page=True)
    ben.screenshot(path=str(tmp_path / "talat-phone.png"), full_page=True)


TURNS = "() => document.getElementById('stgn').textContent.split('\\n').filter(Boolean).length"


def _play_my_turns(page, expect, timeout_s: float = 240.0) -> int:
    """Play the viewer's turns by clicking (the first tower offered and its first square in
    placement; the first tower that can act and its first dotted or ringed square in play)
    until the game is over; how many turns were played. A turn counts once the move list
    has grown by it (the computers' answers may follow within the same frame)."""
    import time

    played, end = 0, time.monotonic() + timeout_s
    while time.monotonic() < end:
        page.wait_for_function(
            "() => document.title.startsWith('●') || !document.getElementById('result').hidden",
            timeout=60000)
        if not page.locator("#result").is_hidden():
            return played
        before = page.evaluate(TURNS)
        kinds = page.locator(".talat-tray .talat-kind:not([disabled])")
        if page.locator(".talat-tray").is_visible() and kinds.count():
            kinds.first.click()
            page.locator(".sq.dest").first.click()
        else:
            page.locator(".sq.movable").first.click()
            page.locator(".sq.dest, .sq.target").first.click()
        played += 1
        page.wait_for_function(f"() => ({TURNS})() > {before}", timeout=20000)
    raise AssertionError(f"the game did not end in {timeout_s} s ({played} turns played)")


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, PHONE], ids=["desktop", "phone"])
def test_one_person_plays_two_computer_seats_to_the_end(live_site, browser, size, tmp_path):
    """Issue 37: from the lobby, a table of Talat with seats 2 and 3 given to the computer
    starts at once (casual, A9), and the person plays by clicking to the game's end: ranks,
    scores and the records."""
    from playwright.sync_api import expect

    base = live_site.base
    [name] = unique("solo")
    live_site.users(name)
    page = browser.new_context(viewport=size).new_page()
    log_in(page, base, name)
    page.select_option("#id_table_variant", "talat/three")
    page.select_option("#id_table_seat", "1")
    page.select_option("#id_table_rated", "0")
    page.select_option("#id_table_time", "untimed")
    page.click("[data-testid=open-table]")
    for seat in ("2", "3"):
        give = page.locator(f"[data-testid^=give-][data-testid$='-{seat}']")
        give.locator("xpath=..").locator("select").select_option("1")
        give.click()
    page.wait_for_url("**/games/**")
    expect(page.locator("#conn")).to_have_text("live")
    played = _play_my_turns(page, expect)
    assert played >= 9  # at least the nine placements
    result = page.locator("#result")
    expect(result).to_contain_text("1")
    for seat in "123":
        expect(page.locator(f"[data-testid=talat-score-{seat}]")).to_be_visible()
    expect(page.locator(".talat-rank").first).to_be_visible()
    expect(page.locator("#records")).to_contain_text("record", timeout=20000)
    if size == PHONE:
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    page.screenshot(path=str(tmp_path / f"talat-end-{size['width']}.png"), full_page=True)
