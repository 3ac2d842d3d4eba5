"""Newcomer faults found in issue 39's walk-through, in Chromium on the live site:

1. an aborted rated game, opened again, said "Recording the result..." for ever, with both
   clocks back at "first turn 0:30";
3. after one capture of a chain the next target was not ringed (the piece deselected), and
   after a move the piece had to be clicked again for its second square;
4. the rules' variants table made the whole page pan sideways on a 390 px phone;
7. the profile's rating history clipped its "After" column on a phone.
"""

from __future__ import annotations

import re

import pytest

from play.games.talu.stgn import read_stgn
from tests.site.livesite import unique
from tests.site.newcomer.conftest import DESKTOP, PHONE, live, login, version, wait_until

pytestmark = pytest.mark.browser

# A game up to dark's first chain (round 4: B6xB5-B4 B4xA4-A3), dark to move.
BEFORE_THE_CHAIN = """\
001 I: C1-D1 B2-B3-B4 A2-A3
001 O: H7-H6 E7-E6 A7-A6 B7-B6
002 I: A1-A2 D2-D3 C2-C3 D3-D4
002 O: F7-F6 C7-C6-C5 G7-G6
003 I: H2-H3 F2-F3 D4-D3 H3-H4
003 O: A8-A7 A6-A5 A7-A6 D7-D6
004 I: H4-H5 G2-G3 A3-A4 B4-B5
"""


def steps_of(stgn: str) -> list:
    """The (side, step) of STGN turns, an ``end`` after a turn that left steps."""
    game = read_stgn(stgn)
    out: list = []
    for turn in game.turns:
        out += [(turn.side.value, s.to_dict()) for s in turn.steps]
        if not turn.steps:
            out.append((turn.side.value, "pass"))
        elif len(turn.steps) < game.variant.steps:
            out.append((turn.side.value, "end"))
    return out


def square(page, sq: str):
    return page.locator(f'[data-square="{sq}"]')


def click_and_wait(page, sq: str) -> None:
    before = version(page)
    square(page, sq).click()
    wait_until(lambda: version(page) > before, what=f"the step to {sq}")


def has(cls: str):
    return re.compile(rf"\b{cls}\b")


# 1 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_an_aborted_rated_game_reloaded_waits_for_nothing_and_keeps_its_clocks(
        newcomer_site, ctx, viewport):
    from playwright.sync_api import expect

    light, dark = unique("abi", "abo")
    newcomer_site.users(light, dark)
    game = newcomer_site.shell(
        "from datetime import timedelta\n"
        "from django.contrib.auth import get_user_model\n"
        "from django.utils import timezone\n"
        "from play.lifecycle import start_game\n"
        "from play.models import Game\n"
        "from play.store import engines\n"
        "from play.worker import clocks\n"
        "from play.worker.loop import run_due\n"
        "U = get_user_model()\n"
        f"g = start_game(U.objects.get(username={light!r}), U.objects.get(username={dark!r}),"
        " rated=True, time_control='fischer 600+5')\n"
        "t = timezone.now() - timedelta(seconds=45)\n"
        "Game.objects.filter(pk=g.pk).update(created=t, deadline=t + timedelta(seconds=30))\n"
        "engines.forget()\n"
        "clocks.flag_due()\n"
        "run_due()\n"
        "print(g.uuid)").splitlines()[-1]
    page = ctx(viewport).new_page()
    login(page, newcomer_site, light)
    for _ in range(2):  # opened, then reloaded
        page.goto(f"{newcomer_site.base}/games/{game}/")
        live(page)
        expect(page.locator("#result")).to_contain_text("Game aborted")
        expect(page.locator("#game")).not_to_contain_text("Recording the result")
        expect(page.get_by_test_id("clock-I")).to_have_text("first turn: time ran out")
        expect(page.get_by_test_id("clock-O")).to_have_text("10:00")


# 3 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_chained_capture_keeps_the_piece_selected(newcomer_site, ctx, viewport):
    from playwright.sync_api import expect

    light, dark = unique("chi", "cho")
    newcomer_site.users(light, dark)
    game = newcomer_site.game(light, dark, steps=steps_of(BEFORE_THE_CHAIN))
    page = ctx(viewport).new_page()
    login(page, newcomer_site, dark)
    page.goto(f"{newcomer_site.base}/games/{game}/")
    live(page)
    square(page, "B6").click()
    expect(square(page, "B5")).to_have_class(has("target"))
    click_and_wait(page, "B5")  # the capture: the piece stands on B5, still chosen
    expect(square(page, "B5")).to_have_class(has("selected"))
    expect(square(page, "B4")).to_have_class(has("exit"))
    click_and_wait(page, "B4")  # the exit: the next target is ringed at once
    expect(square(page, "B4")).to_have_class(has("selected"))
    expect(square(page, "A4")).to_have_class(has("target"))
    click_and_wait(page, "A4")  # one click, no "select the piece again"
    expect(page.locator("#refusal")).to_be_hidden()
    click_and_wait(page, "A3")
    expect(page.locator("#last-turn")).to_contain_text("B6xB5-B4 B4xA4-A3")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_two_square_move_needs_no_second_click_on_the_piece(newcomer_site, ctx, viewport):
    from playwright.sync_api import expect

    light, dark = unique("twi", "two")
    newcomer_site.users(light, dark)
    game = newcomer_site.game(light, dark)
    page = ctx(viewport).new_page()
    login(page, newcomer_site, light)
    page.goto(f"{newcomer_site.base}/games/{game}/")
    live(page)
    square(page, "B2").click()
    click_and_wait(page, "B3")
    expect(square(page, "B3")).to_have_class(has("selected"))
    expect(square(page, "B4")).to_have_class(has("dest"))
    click_and_wait(page, "B4")
    expect(square(page, "B4")).to_have_attribute("data-piece", "I")
    expect(page.locator("#last-turn")).to_contain_text("this turn: B2-B3-B4")


# 4 ------------------------------------------------------------------------------------------
def test_the_rules_page_does_not_pan_on_a_phone(newcomer_site, ctx):
    page = ctx(PHONE).new_page()
    page.goto(newcomer_site.base + "/rules/#variants")
    page.wait_for_load_state("load")
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= PHONE["width"], f"the page is {wide} px wide on a {PHONE['width']} px phone"
    box = page.get_by_test_id("variants-table").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]


# 7 ------------------------------------------------------------------------------------------
def test_the_rating_history_fits_a_phone(newcomer_site, ctx):
    from playwright.sync_api import expect

    light, dark = unique("hil", "hid")
    newcomer_site.users(light, dark)
    game = newcomer_site.game(light, dark, rated=True, resign="O",
                              steps=[("I", {"kind": "move", "from": "A2", "to": "A3"})])
    page = ctx(PHONE).new_page()
    login(page, newcomer_site, light)
    # 6: the game's rating changes come with a word of why
    page.goto(f"{newcomer_site.base}/games/{game}/")
    live(page)
    expect(page.get_by_test_id("rating-why").locator("a")).to_have_attribute(
        "href", "/rules/#ratings", timeout=15000)
    page.click("[data-testid=me]")
    expect(page.get_by_test_id("history-game").first).to_contain_text(f"won against {dark}")
    after = page.locator("table.history tbody tr").first.locator("td").nth(4)
    box = after.bounding_box()
    assert box and box["x"] + box["width"] <= PHONE["width"], box
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    expect(page.locator("svg.chart [data-testid=chart-dates] text").first).to_be_visible()
