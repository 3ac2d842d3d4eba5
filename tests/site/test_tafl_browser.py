"""A person plays Tablut to its end in the browser (issue 42): the defenders on a desktop, the
attackers on a phone, every move a click on a piece and a click on one of its dotted squares
(the renderer, static/games/tafl.js, sends {"move": "e3-c3"}); an illegal click is explained
in words and changes nothing; raichi is announced when the king has a way out (T11); the game
ends on the board with the result on both pages and the move list in OTN. The screenshots of
both viewports are kept for a person to look at."""

from __future__ import annotations

import re

import pytest

from tests.site.livesite import unique
from tests.site.test_offers_browser import log_in
from tests.tafl.games import finished_game

pytestmark = pytest.mark.browser


def test_a_tablut_game_is_played_to_its_end_on_desktop_and_phone(live_site, browser,
                                                                 tmp_path):
    from playwright.sync_api import expect

    steps, rules_game = finished_game("tablut", 9, max_plies=40)  # the defenders escape
    base = live_site.base
    dee, att = unique("dee", "att")
    live_site.users(dee, att)
    uuid = live_site.table("tablut/9x9", [dee, att], rated=True)  # defenders move first (T2)
    pages = {}
    for seat, name, size in (("defenders", dee, (1280, 900)), ("attackers", att, (390, 844))):
        page = browser.new_context(viewport={"width": size[0], "height": size[1]}).new_page()
        log_in(page, base, name)
        page.goto(f"{base}/games/{uuid}/")
        expect(page.locator("#conn")).to_have_text("live")
        pages[seat] = page
    desk, phone = pages["defenders"], pages["attackers"]
    expect(desk.locator("#board .sq")).to_have_count(81)
    expect(desk.locator("#board .piece")).to_have_count(25)  # 16 attackers, 8 defenders, king
    expect(desk.locator("#board .sq.camp")).to_have_count(16)
    expect(desk.locator("#board .sq.throne .tafl-k")).to_have_count(1)

    # an attacker's piece is not the defenders' to move: said in words, nothing sent
    desk.click('#board [data-square="e1"]')
    expect(desk.locator("#refusal")).to_contain_text("one of your opponent's pieces")
    assert desk.get_attribute("#game", "data-version") == "0"

    for n, (seat, step) in enumerate(steps):
        page = pages[seat]
        expect(page.locator("#game")).to_have_attribute("data-version", str(n))
        expect(page.locator("#game")).to_have_attribute("data-to-move", seat)
        frm, to = step["move"].split("-")
        if n == len(steps) - 1:  # the king is about to escape: he has a way out, said to both
            for p in pages.values():
                expect(p.locator("#announce")).to_contain_text(re.compile("Raichi|Tuichi"))
                expect(p.locator(f'#board [data-square="{to}"].raichi')).to_have_count(1)
        if n == 0:  # keyboard play: the first move typed in OTN in the move box
            page.fill("[data-testid=tafl-move]", step["move"])
            page.press("[data-testid=tafl-move]", "Enter")
            continue
        page.click(f'#board [data-square="{frm}"]')
        expect(page.locator(f'#board [data-square="{to}"].dest')).to_be_visible()
        page.click(f'#board [data-square="{to}"]')
    for page in pages.values():
        expect(page.locator("#result")).to_contain_text("defenders won", timeout=15000)
        expect(page.locator("#stgn")).to_contain_text(f"1. {rules_game.records[0]}")
    assert desk.locator("#stgn .mv").count() == len(rules_game.records)
    desk.screenshot(path=str(tmp_path / "tablut-finished-desktop.png"), full_page=True)
    phone.screenshot(path=str(tmp_path / "tablut-finished-phone.png"), full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_enclosed_group_lesson_is_solved_by_clicks_on_a_phone(live_site, browser, tmp_path):
    """Tafl's lesson on T8 (issue 42): the move that encloses, then the ringed piece to remove;
    a click on a piece outside the group is explained first."""
    from playwright.sync_api import expect

    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(live_site.base + "/learn/tafl-enclosed/")
    expect(page.locator("#board .sq")).to_have_count(49)
    page.click('#board [data-square="a7"]')
    page.click('#board [data-square="a3"]')
    expect(page.locator("#board .sq.target")).to_have_count(2)  # a1 and a2, ringed
    expect(page.locator("#lesson-msg")).to_contain_text("enclosed group")
    page.click('#board [data-square="f7"]')  # the king: not of the group
    expect(page.locator("#lesson-msg")).to_contain_text("not a piece of an enclosed group")
    page.click('#board [data-square="a2"]')
    expect(page.locator("#lesson-msg")).to_contain_text("Well done")
    expect(page.locator("#lesson-next")).to_be_visible()
    expect(page.locator('#board [data-square="a2"] .piece')).to_have_count(0)
    page.screenshot(path=str(tmp_path / "tafl-lesson-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
