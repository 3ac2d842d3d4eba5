"""A newcomer's first game, the rough edges found by trying it again (issue 24, second audit):
the computer is offered nothing it never accepts (an adjournment, a rematch challenge), a
laptop's 1280x800 screen shows a refusal and the buttons without scrolling, a phone that
clicks a notation line sees the board change, and the overlaps and threats can be shown on
any position of the review."""

from __future__ import annotations

import re

import pytest

from tests.site.livesite import unique
from tests.site.newcomer.conftest import PHONE, VIEWPORTS, live, login, version, wait_until

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 800}



def computer_game(site, user: str, side: str, level: int = 1) -> str:
    """A game of ``user`` (playing ``side``) against the computer at ``level``; its uuid."""
    return site.shell(
        "from django.contrib.auth import get_user_model\n"
        "from play.computer.start import play_the_computer\n"
        f"u = get_user_model().objects.get(username={user!r})\n"
        f"print(play_the_computer(u, 'standard', {level}, {side!r}, 'fischer 600+5').uuid)"
    ).splitlines()[-1]


def in_view(page, selector: str, viewport: dict) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"]


@VIEWPORTS
def test_the_computer_is_offered_no_adjournment_and_its_rematch_starts_at_once(
        newcomer_site, ctx, viewport):
    from playwright.sync_api import expect

    (name,) = unique("newbie")
    newcomer_site.users(name)
    game = computer_game(newcomer_site, name, "I")
    page = ctx(viewport).new_page()
    login(page, newcomer_site, name)
    page.goto(f"{newcomer_site.base}/games/{game}/")
    live(page)
    expect(page.locator("#pass")).to_be_visible()
    expect(page.locator("#adjourn")).to_be_hidden()  # the computer never accepts one
    page.click("#resign")
    page.click("#confirm-resign-yes")
    expect(page.locator("#result")).to_have_text("Dark won: light resigned")
    again = page.locator("#rematch-offer")
    expect(again).to_have_text("Play the computer again")  # not a challenge it never accepts
    again.click()
    page.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}/$"))
    assert game not in page.url
    live(page)
    assert page.get_attribute("#game", "data-side") == "O"  # colours swapped
    expect(page.get_by_test_id("computer-I")).to_have_text("computer · level 1")
    expect(page.locator("#time-control")).to_have_text(re.compile("10"))  # the same clock
    expect(page.locator("#adjourn")).to_be_hidden()


def test_a_refusal_and_the_buttons_fit_a_laptop_screen(newcomer_site, ctx):
    """At 1280x800 the refusal's words, the status and End turn / Pass were below the fold
    (the board alone was 600 px high): the board now leaves them room."""
    from playwright.sync_api import expect

    game = newcomer_site.game()
    page = ctx(LAPTOP).new_page()
    login(page, newcomer_site, "alice")
    page.goto(f"{newcomer_site.base}/games/{game}/")
    live(page)
    page.click('[data-square="B2"]')
    page.click('[data-square="B5"]')
    expect(page.locator("#refusal")).to_contain_text("B5 is not next to B2")
    assert page.evaluate("() => window.scrollY") == 0
    for sel in ("#board", "#status", "#refusal", "#end-turn", "#pass"):
        assert in_view(page, sel, LAPTOP), f"{sel} is below the fold at 1280x800"
    board = page.locator("#board").bounding_box()
    assert board["width"] >= 320  # still a board to play on


def test_a_notation_line_on_a_phone_shows_the_board_it_changed(newcomer_site, ctx):
    """On a phone the notation is below the board, a screen or two down: a click on a turn
    changed a board nobody could see."""
    from playwright.sync_api import expect

    page = ctx(PHONE).new_page()
    page.goto(newcomer_site.base + "/")
    page.get_by_test_id("demo-game").click()
    live(page)
    page.locator("#stgn .mv", has_text="004 O:").click()
    expect(page.locator("#game")).to_have_attribute("data-reviewing", "1")
    wait_until(lambda: page.get_attribute('#board [data-square="A3"]', "data-piece") == "O",
               what="turn 004 O")
    wait_until(lambda: in_view(page, "#board", PHONE), what="the board scrolled into view")


@VIEWPORTS
def test_overlaps_and_threats_are_toggled_on_a_reviewed_position(newcomer_site, ctx, viewport):
    from playwright.sync_api import expect

    page = ctx(viewport).new_page()
    page.goto(newcomer_site.base + "/")
    page.get_by_test_id("demo-game").click()
    live(page)
    page.click("#rv-start")
    expect(page.locator("#game")).to_have_attribute("data-reviewing", "1")
    marked = page.locator("#board .sq.ov-I, #board .sq.ov-O")
    expect(marked).to_have_count(0)
    legend = page.get_by_test_id("marks-legend")
    expect(legend).to_be_hidden()
    page.check("#show-marks")
    # What the corners and rings mean is said beside them (they were unexplained).
    expect(legend).to_be_visible()
    expect(legend).to_contain_text("light's overlap (two light pieces reach it)")
    expect(legend).to_contain_text("a piece that can be attacked now")
    # The opening: each side's first rows are its overlap (B2 in range of A2, C2 and B1; B7
    # likewise for dark), nothing is threatened.
    expect(page.locator('#board [data-square="B2"]')).to_have_class(re.compile(r"\bov-I\b"))
    expect(page.locator('#board [data-square="B7"]')).to_have_class(re.compile(r"\bov-O\b"))
    expect(page.locator("#board .sq.threatened")).to_have_count(0)
    page.locator("#stgn .mv", has_text="004 I:").click()  # B5 and A5 attackable
    for sq in ("B5", "A5"):
        expect(page.locator(f'#board [data-square="{sq}"]')).to_have_class(
            re.compile(r"\bthreatened\b"))
    page.uncheck("#show-marks")
    expect(marked).to_have_count(0)
    expect(legend).to_be_hidden()
    assert version(page) >= 0


@VIEWPORTS
def test_a_clock_waiting_for_its_first_turn_says_so(newcomer_site, ctx, viewport):
    """In a 10+5 game the side not yet to move showed "0:30" (its opening turn's limit, R36)
    as if it were all its time."""
    from playwright.sync_api import expect

    game = newcomer_site.game(time_control="fischer 600+5")
    page = ctx(viewport).new_page()
    login(page, newcomer_site, "bob")
    page.goto(f"{newcomer_site.base}/games/{game}/")
    live(page)
    for side in ("I", "O"):
        expect(page.get_by_test_id(f"clock-{side}")).to_have_text(re.compile(r"^first turn 0:"))
    expect(page.get_by_test_id("clock-O")).not_to_have_class(re.compile(r"\brunning\b"))


@VIEWPORTS
def test_an_aborted_game_says_which_side_in_words(newcomer_site, ctx, viewport):
    """A first turn not played in time aborts the game (R37): the result read "Game aborted (I
    did not complete the opening turn in time)", "I" the pronoun again (finding 6), and a
    click on the board called it a null game."""
    from playwright.sync_api import expect

    game = newcomer_site.shell(
        "from datetime import timedelta\n"
        "from django.contrib.auth import get_user_model\n"
        "from django.utils import timezone\n"
        "from play.lifecycle import start_game\n"
        "from play.models import Game\n"
        "from play.store import engines\n"
        "from play.worker import clocks\n"
        "U = get_user_model()\n"
        "g = start_game(U.objects.get(username='alice'), U.objects.get(username='bob'),"
        " rated=False, time_control='fischer 600+5')\n"
        "t = timezone.now() - timedelta(seconds=45)\n"
        "Game.objects.filter(pk=g.pk).update(created=t, deadline=t + timedelta(seconds=30))\n"
        "engines.forget()\n"
        "clocks.flag_due()\n"
        "print(g.uuid)").splitlines()[-1]
    page = ctx(viewport).new_page()
    login(page, newcomer_site, "alice")
    page.goto(f"{newcomer_site.base}/games/{game}/")
    live(page)
    words = ("Game aborted: light did not complete the opening turn in time (no result, no "
             "rating change)")
    expect(page.locator("#result")).to_have_text(words)
    page.click('[data-square="A2"]')
    expect(page.locator("#refusal")).to_have_text(f"The game is over: {words}.")
    assert "(I did" not in page.locator("main").inner_text()


@VIEWPORTS
def test_the_lessons_numbers_and_the_pools_variant_are_readable(newcomer_site, ctx, viewport):
    """The lessons' numbers hung outside their card (its padding replaced the list's), and
    the quick pairing's variant was a small unstyled select beside the lobby's others."""
    page = ctx(viewport).new_page()
    page.goto(newcomer_site.base + "/learn/")
    card = page.locator("ol.lesson-list").first.bounding_box()  # talu's, the first
    first = page.locator("ol.lesson-list li").first.bounding_box()
    assert first["x"] - card["x"] >= 28, "no room for the numbers inside the card"
    login(page, newcomer_site, "alice")

    def font_size(sel: str) -> str:
        return page.eval_on_selector(sel, "e => getComputedStyle(e).fontSize")

    assert font_size("#id_pool_variant") == font_size("#computer-form select") == "16px"
