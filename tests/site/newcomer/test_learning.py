"""A newcomer learns and looks back (issue 24), in Chromium on a desktop and a phone: a lesson
solved and a lesson failed (checked by the rules core, its sentences shown), a game reviewed
turn by turn and step by step, and what players expect around a game: "your turn" in the tab's
title, a rematch from the result, the list of one's games with a search."""

from __future__ import annotations

import re

import pytest

from tests.site.livesite import unique
from tests.site.newcomer.conftest import VIEWPORTS, live, login, version, wait_until

pytestmark = pytest.mark.browser



def piece(page, sq: str) -> str:
    return page.get_attribute(f'#board [data-square="{sq}"]', "data-piece")


# lessons ------------------------------------------------------------------------------------
@VIEWPORTS
def test_a_lesson_solved_after_a_refused_step(newcomer_site, ctx, viewport):
    from playwright.sync_api import expect

    page = ctx(viewport).new_page()
    page.goto(newcomer_site.base + "/learn/")
    page.get_by_test_id("lesson-capture").click()
    expect(page.get_by_test_id("lesson-text")).to_contain_text("Capture the dark piece on D5")
    msg = page.locator("#lesson-msg")
    page.click('[data-square="D4"]')
    page.click('[data-square="D6"]')  # not next to D4: the rules core says so
    expect(msg).to_contain_text("Not allowed: D6 is not next to D4")
    assert piece(page, "D4") == "I"
    page.click('[data-square="D4"]')
    expect(page.locator('[data-square="D5"]')).to_have_class(re.compile(r"\btarget\b"))
    page.click('[data-square="D5"]')
    expect(page.locator('[data-square="D6"]')).to_have_class(re.compile(r"\bexit\b"))
    page.click('[data-square="D4"]')  # back where it came from: refused, with the reason
    expect(msg).to_contain_text("may not return to D4")
    page.click('[data-square="D6"]')
    expect(msg).to_contain_text("Well done")
    expect(page.locator("#lesson")).to_have_attribute("data-result", "solved")
    assert piece(page, "D6") == "I" and piece(page, "D5") == ""
    page.locator("#lesson-next").click()
    expect(page).to_have_url(re.compile(r"/learn/overlap/$"))


@VIEWPORTS
def test_a_lesson_failed_then_started_again(newcomer_site, ctx, viewport):
    from playwright.sync_api import expect

    page = ctx(viewport).new_page()
    page.goto(newcomer_site.base + "/learn/moving/")
    page.click('[data-square="A1"]')
    page.click('[data-square="B1"]')
    expect(page.locator("#lesson")).to_have_attribute("data-steps", "1")
    page.click("#lesson-end")
    expect(page.locator("#lesson")).to_have_attribute("data-result", "failed")
    expect(page.locator("#lesson-msg")).to_contain_text(
        "The turn is over and the goal is not reached")
    page.click("#lesson-reset")
    assert piece(page, "A1") == "I" and piece(page, "B1") == ""
    for a, b in (("D2", "D3"), ("D3", "D4")):
        page.click(f'[data-square="{a}"]')
        page.click(f'[data-square="{b}"]')
        expect(page.locator(f'[data-square="{b}"]')).to_have_attribute("data-piece", "I")
    expect(page.locator("#lesson")).to_have_attribute("data-result", "solved")


# review -------------------------------------------------------------------------------------
@VIEWPORTS
def test_the_demo_game_reviewed_turn_by_turn_and_step_by_step(newcomer_site, ctx, viewport):
    from playwright.sync_api import expect

    page = ctx(viewport).new_page()  # a visitor, not signed in
    page.goto(newcomer_site.base + "/")
    page.get_by_test_id("demo-game").click()
    live(page)
    game = page.locator("#game")
    assert piece(page, "H1") == "O" and piece(page, "D7") == "O"
    page.click("#rv-prev")  # one step back: before dark's last move C7-D7
    expect(game).to_have_attribute("data-reviewing", "1")
    wait_until(lambda: piece(page, "D7") == "" and piece(page, "C7") == "O", what="step back")
    expect(page.locator("#rv-caption")).to_contain_text("010 O · step 3: E7-E6")
    # A click on a notation line: the board after that turn (dark's chain of round 4).
    page.locator("#stgn .mv", has_text="004 O:").click()
    wait_until(lambda: piece(page, "A3") == "O" and piece(page, "A4") == "", what="turn 004 O")
    assert piece(page, "B5") == "" and piece(page, "B4") == ""
    expect(page.locator("#stgn .mv[aria-current]")).to_have_text("004 O: B6xB5-B4 B4xA4-A3")
    expect(page.locator("#board svg .cross")).to_have_count(4)  # both captures drawn
    page.click("#rv-prev")  # inside the turn: the second capture made, its exit not yet
    wait_until(lambda: piece(page, "A4") == "O" and piece(page, "B4") == "", what="capture")
    page.click("#rv-prev")  # the first capture and its exit
    wait_until(lambda: piece(page, "B4") == "O" and piece(page, "A4") == "I", what="exit")
    page.click("#rv-prev-turn")  # after light's turn 004 I
    wait_until(lambda: piece(page, "B5") == "I" and piece(page, "B6") == "O", what="004 I")
    page.click("#rv-start")
    wait_until(lambda: piece(page, "A2") == "I" and piece(page, "C1") == "I", what="opening")
    page.click("#rv-next")
    wait_until(lambda: piece(page, "D1") == "I" and piece(page, "C1") == "", what="first step")
    page.locator("#rv-next").focus()
    page.keyboard.press("ArrowRight")  # the keyboard steps too
    wait_until(lambda: piece(page, "B3") == "I", what="second step by keyboard")
    page.click("#rv-next-turn")
    wait_until(lambda: piece(page, "B4") == "I" and piece(page, "A3") == "I", what="after 001 I")
    page.click("#rv-live")
    expect(game).to_have_attribute("data-reviewing", "")
    assert piece(page, "H1") == "O"


@VIEWPORTS
def test_a_live_game_reviewed_while_it_goes_on(newcomer_site, ctx, viewport):
    from playwright.sync_api import expect

    game = newcomer_site.game(steps=[("I", {"kind": "move", "from": "A2", "to": "A3"})])
    page = ctx(viewport).new_page()
    login(page, newcomer_site, "alice")
    page.goto(f"{newcomer_site.base}/games/{game}/")
    live(page)
    forward = [page.locator(s) for s in ("#rv-next", "#rv-next-turn", "#rv-live")]
    for b in forward:  # nothing ahead of the game itself: they did nothing, silently
        expect(b).to_be_disabled()
    page.click("#rv-start")
    wait_until(lambda: piece(page, "A2") == "I" and piece(page, "A3") == "", what="opening")
    for b in forward:
        expect(b).to_be_enabled()
    page.click('[data-square="B2"]')  # reviewing: the board plays nothing
    assert version(page) == 1
    page.click("#rv-live")
    expect(page.locator("#game")).to_have_attribute("data-reviewing", "")
    for b in forward:
        expect(b).to_be_disabled()
    page.click('[data-square="B2"]')
    page.click('[data-square="B3"]')
    wait_until(lambda: version(page) == 2, what="a step after the review")
    page.click("#rv-prev")
    wait_until(lambda: piece(page, "B3") == "" and piece(page, "A3") == "I", what="step back")


# niceties -----------------------------------------------------------------------------------
@VIEWPORTS
def test_your_turn_is_in_the_tab_title(newcomer_site, ctx, viewport):
    game = newcomer_site.game()
    alice, bob = ctx(viewport).new_page(), ctx(viewport).new_page()
    login(alice, newcomer_site, "alice")
    login(bob, newcomer_site, "bob")
    for p in (alice, bob):
        p.goto(f"{newcomer_site.base}/games/{game}/")
        live(p)
    assert alice.title().startswith("● Your turn")
    assert "Your turn" not in bob.title()
    alice.click("#pass")
    wait_until(lambda: bob.title().startswith("● Your turn"), what="bob's title")
    # Alice's page hears of her pass over its own socket, maybe a moment after bob's.
    wait_until(lambda: "Your turn" not in alice.title(), what="alice's title")


# Counts the tones the page plays (an AudioContext's oscillators started), for the test below.
COUNT_TONES = """
window.__tones = 0;
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  createOscillator() {
    const o = super.createOscillator(), start = o.start.bind(o);
    o.start = (...a) => { window.__tones += 1; return start(...a); };
    return o;
  }
};
"""


@VIEWPORTS
def test_an_optional_sound_when_the_turn_comes(newcomer_site, ctx, viewport):
    """Off by default; once ticked it is remembered, and the page sounds when the opponent's
    turn ends and ours begins, not before."""
    move = {"kind": "move", "from": "A2", "to": "A3"}
    game = newcomer_site.game(steps=[("I", move), ("I", "end")])  # bob (dark) to move
    alice, bob = ctx(viewport).new_page(), ctx(viewport).new_page()
    alice.add_init_script(COUNT_TONES)
    login(alice, newcomer_site, "alice")
    login(bob, newcomer_site, "bob")
    for p in (alice, bob):
        p.goto(f"{newcomer_site.base}/games/{game}/")
        live(p)
    assert not alice.is_checked("#sound")
    alice.check("#sound")
    alice.reload()  # remembered
    live(alice)
    assert alice.is_checked("#sound")
    assert alice.evaluate("() => window.__tones") == 0
    bob.click("#pass")
    wait_until(lambda: alice.title().startswith("● Your turn"), what="alice's turn")
    wait_until(lambda: alice.evaluate("() => window.__tones") == 1, what="the tone")


@VIEWPORTS
def test_a_rematch_from_the_result(newcomer_site, ctx, viewport):
    from playwright.sync_api import expect

    dave, erin = unique("dave", "erin")
    newcomer_site.users(dave, erin)
    game = newcomer_site.game(dave, erin, resign="O")
    d, e = ctx(viewport).new_page(), ctx(viewport).new_page()
    login(d, newcomer_site, dave)
    login(e, newcomer_site, erin)
    d.goto(f"{newcomer_site.base}/games/{game}/")
    expect(d.locator("#result")).to_have_text("Light won: dark resigned")
    d.click("#rematch-offer")
    expect(d.locator(".messages")).to_contain_text(f"Rematch offered to {erin}")
    e.goto(f"{newcomer_site.base}/games/{game}/")
    accept = e.locator("#rematch-accept button")
    expect(accept).to_have_text(f"Accept {dave}'s rematch", timeout=10000)
    accept.click()
    e.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}/$"))
    assert game not in e.url
    assert e.get_attribute("#game", "data-side") == "I"  # colours swapped
    d.wait_for_url(e.url, timeout=15000)  # dave's lobby opens the new game by itself
    assert d.get_attribute("#game", "data-side") == "O"


@VIEWPORTS
def test_my_games_lists_and_searches(newcomer_site, ctx, viewport):
    from playwright.sync_api import expect

    (rival,) = unique("rival")
    newcomer_site.users(rival)
    newcomer_site.game(rival, "alice", resign="O")
    page = ctx(viewport).new_page()
    login(page, newcomer_site, "alice")
    page.get_by_role("link", name="My games").click()
    rows = page.locator("[data-testid=my-games] tbody tr")
    expect(rows.first).to_be_visible()
    assert rows.count() >= 2
    page.fill("#q", rival)
    page.get_by_role("button", name="Search").click()
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text(f"vs {rival}")
    expect(rows.first).to_contain_text("lost · Light won: dark resigned")
    page.fill("#q", "nobody-like-this")
    page.get_by_role("button", name="Search").click()
    expect(page.locator("main")).to_contain_text('No game matches "nobody-like-this"')
