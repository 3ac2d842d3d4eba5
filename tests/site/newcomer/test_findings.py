"""Issue 24's findings, each as a newcomer meets it in Chromium, on a desktop and on a phone
(390x844): what was seen is gone, and what replaces it is there.

The games are set up through the command path (``Site.game``) before a page opens them; the
pages then play on the live site like a person would.
"""

from __future__ import annotations

import json
import re
import urllib.request

import pytest

from play.games.talu.demo import SAMPLE_STGN
from play.games.talu.stgn import read_stgn
from tests.site.newcomer.conftest import (
    PHONE,
    VIEWPORTS,
    boxes_overlap,
    live,
    login,
    version,
    wait_until,
)

pytestmark = pytest.mark.browser


def steps_of(stgn: str) -> list:
    """The (side, step) of STGN turns, an ``end`` after a turn that left steps."""
    game = read_stgn(stgn)
    out = []
    for turn in game.turns:
        out += [(turn.side.value, s.to_dict()) for s in turn.steps]
        if not turn.steps:
            out.append((turn.side.value, "pass"))
        elif len(turn.steps) < game.variant.steps:
            out.append((turn.side.value, "end"))
    return out


# The demo game up to dark's first captures (round 4: B6xB5-B4 B4xA4-A3, a chain of two).
FIRST_CAPTURES = "\n".join(SAMPLE_STGN.splitlines()[:8]) + "\n"



def open_game(ctx, site, viewport, user, game):
    page = ctx(viewport).new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    if user:
        login(page, site, user)
    page.goto(f"{site.base}/games/{game}/")
    live(page)
    return page


# 1 -----------------------------------------------------------------------------------------
@VIEWPORTS
def test_home_says_what_talu_is_and_leads_to_the_rules(newcomer_site, ctx, viewport):
    from playwright.sync_api import expect

    page = ctx(viewport).new_page()
    page.goto(newcomer_site.base + "/")
    expect(page.get_by_test_id("what-is-talu")).to_contain_text("two-player strategy game")
    page.get_by_role("link", name="Read the rules").click()
    expect(page).to_have_url(re.compile(r"/rules/$"))
    expect(page.locator("h1")).to_have_text("How to play talu")
    # Its diagrams are drawn by the site's board: the chain's capture and its exit are there.
    chain = page.locator("#chains figure.diagram")
    expect(chain.locator(".sq")).to_have_count(64)
    expect(chain.locator('[data-square="D5"]')).to_have_attribute("data-piece", "O")
    expect(chain.locator("svg .cross")).to_have_count(4)  # two captured pieces, crossed out
    for section in ("moves", "overlaps", "attacks", "chains", "defence", "invasion", "honor",
                    "passing", "variants"):
        expect(page.locator(f"#{section}")).to_be_visible()
    page.get_by_role("link", name="Start the lessons").click()
    expect(page.get_by_test_id("lesson-capture")).to_be_visible()


# 2 -----------------------------------------------------------------------------------------
@VIEWPORTS
def test_a_refused_click_or_drop_says_why(newcomer_site, ctx, viewport):
    from playwright.sync_api import expect

    game = newcomer_site.game()
    page = open_game(ctx, newcomer_site, viewport, "alice", game)
    v = version(page)
    page.click('[data-square="A2"]')
    page.click('[data-square="A4"]')  # not highlighted: the rules core says why
    expect(page.locator("#refusal")).to_contain_text("A4 is not next to A2")
    assert version(page) == v
    expect(page.locator('[data-square="A2"]')).to_have_attribute("data-piece", "I")
    # A drop on an illegal square is explained too, not just snapped back.
    page.drag_and_drop('[data-square="B2"]', '[data-square="D4"]')
    expect(page.locator("#refusal")).to_contain_text("D4 is not next to B2")
    # No step meant: an opponent's piece, an empty square with nothing selected.
    page.click('[data-square="C7"]')
    expect(page.locator("#refusal")).to_contain_text("C7 holds a dark piece")
    page.click('[data-square="E5"]')
    expect(page.locator("#refusal")).to_contain_text("Select one of your (light) pieces first")
    # A legal step clears it.
    page.click('[data-square="A2"]')
    page.click('[data-square="A3"]')
    wait_until(lambda: version(page) == v + 1, what="the step")
    expect(page.locator("#refusal")).to_be_hidden()
    assert not page.errors


# 3 -----------------------------------------------------------------------------------------
@VIEWPORTS
def test_a_losing_pass_is_announced_counted_and_confirmed(newcomer_site, ctx, viewport):
    from playwright.sync_api import expect

    move = {"kind": "move", "from": "H7", "to": "H6"}
    back = {"kind": "move", "from": "G7", "to": "G6"}
    game = newcomer_site.game(steps=[("I", "pass"), ("O", move), ("O", "end"), ("I", "pass"),
                                     ("O", back), ("O", "end")])
    page = open_game(ctx, newcomer_site, viewport, "alice", game)
    expect(page.locator("#passes")).to_contain_text("light 2, dark 0")
    # Pass sits apart from End turn.
    end, pss = page.locator("#end-turn").bounding_box(), page.locator("#pass").bounding_box()
    assert pss["x"] - (end["x"] + end["width"]) >= 24 or pss["y"] > end["y"] + end["height"]
    v = version(page)
    page.click("#pass")
    dialog = page.locator("#confirm-pass")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("third turn in a row counting as a pass")
    expect(dialog).to_contain_text("lose the game by forfeit")
    page.click("#confirm-pass-no")
    expect(dialog).to_be_hidden()
    assert version(page) == v and page.get_attribute("#game", "data-finished") == ""
    # A last step that brings the turn back where it began stalls (R13): asked the same way.
    for n, (a, b) in enumerate((("A2", "A3"), ("A3", "A2"), ("A2", "A3")), start=1):
        page.click(f'[data-square="{a}"]')
        page.click(f'[data-square="{b}"]')
        wait_until(lambda n=n: version(page) == v + n, what=f"step {n}")
    page.click('[data-square="A3"]')
    page.click('[data-square="A2"]')
    expect(dialog).to_contain_text("stalling")
    expect(dialog).to_contain_text("lose the game by forfeit")
    page.click("#confirm-pass-yes")
    expect(page.locator("#result")).to_have_text(
        "Dark won: light forfeited, three of its turns in a row counted as passes")


@VIEWPORTS
def test_a_pass_that_would_null_the_game_is_confirmed(newcomer_site, ctx, viewport):
    from playwright.sync_api import expect

    move = {"kind": "move", "from": "A2", "to": "A3"}
    game = newcomer_site.game(steps=[("I", move), ("I", "end"), ("O", "pass"), ("I", "pass")])
    page = open_game(ctx, newcomer_site, viewport, "bob", game)  # bob plays dark
    expect(page.locator("#passes")).to_contain_text("light 1, dark 1; both sides together 2")
    page.click("#pass")
    expect(page.locator("#confirm-pass")).to_contain_text("null game, with no winner")
    page.click("#confirm-pass-no")
    # An ordinary pass asks nothing: light's first pass in a fresh game.
    fresh = newcomer_site.game()
    other = open_game(ctx, newcomer_site, viewport, "alice", fresh)
    other.click("#pass")
    wait_until(lambda: version(other) == 1, what="the pass")
    expect(other.locator("#confirm-pass")).to_be_hidden()


# 4 -----------------------------------------------------------------------------------------
@VIEWPORTS
def test_the_last_turn_and_its_captures_are_drawn(newcomer_site, ctx, viewport):
    from playwright.sync_api import expect

    game = newcomer_site.game(steps=steps_of(FIRST_CAPTURES))
    page = open_game(ctx, newcomer_site, viewport, "alice", game)
    # Dark's chain took B5 and A4: both are crossed-out ghosts on the board, in words below it.
    for sq in ("B5", "A4"):
        expect(page.locator(f'[data-square="{sq}"]')).to_have_class(re.compile(r"\blast-capture\b"))
        expect(page.locator(f'[data-square="{sq}"]')).to_have_attribute("data-piece", "")
    expect(page.locator("#board svg .ghost-I")).to_have_count(2)
    expect(page.locator("#board svg .route")).to_have_count(2)
    last = page.locator("#last-turn")
    expect(last).to_have_text("Last turn, dark: B6xB5-B4 B4xA4-A3 · captured B5, A4")
    box = last.bounding_box()
    assert box["y"] + box["height"] <= viewport["height"]  # seen without scrolling, phone too
    # During play: light's own steps are drawn as they are made.
    page.click('[data-square="C3"]')
    page.click('[data-square="C4"]')
    wait_until(lambda: version(page) == 1 + len(steps_of(FIRST_CAPTURES)), what="the step")
    expect(page.locator("#board svg .turn-path.current .route")).to_have_count(1)
    expect(last).to_contain_text("this turn: C3-C4")


# 5 -----------------------------------------------------------------------------------------
@VIEWPORTS
def test_a_click_right_after_a_drag_is_not_ignored(newcomer_site, ctx, viewport):
    from playwright.sync_api import expect

    game = newcomer_site.game()
    page = open_game(ctx, newcomer_site, viewport, "alice", game)
    page.drag_and_drop('[data-square="A2"]', '[data-square="A3"]')
    wait_until(lambda: version(page) == 1, what="the dragged step")
    page.click('[data-square="C2"]')  # was swallowed, every time
    expect(page.locator('[data-square="C2"]')).to_have_class(re.compile(r"\bselected\b"))
    page.click('[data-square="C3"]')
    wait_until(lambda: version(page) == 2, what="the clicked step")


def test_a_tap_right_after_a_touch_drag_is_not_ignored(newcomer_site, browser):
    """Finding 5 with a finger: a touch drag ends without any click, so a flag waiting for
    "the drag's click" swallowed the next tap."""
    from playwright.sync_api import expect

    game = newcomer_site.game()
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        login(page, newcomer_site, "alice")
        page.goto(f"{newcomer_site.base}/games/{game}/")
        live(page)
        cdp = context.new_cdp_session(page)

        def center(sq: str) -> tuple[float, float]:
            box = page.locator(f'[data-square="{sq}"]').bounding_box()
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

        (x1, y1), (x2, y2) = center("A2"), center("A3")
        touch = "Input.dispatchTouchEvent"
        cdp.send(touch, {"type": "touchStart", "touchPoints": [{"x": x1, "y": y1}]})
        for i in range(1, 6):
            cdp.send(touch, {"type": "touchMove", "touchPoints": [
                {"x": x1 + (x2 - x1) * i / 5, "y": y1 + (y2 - y1) * i / 5}]})
        cdp.send(touch, {"type": "touchEnd", "touchPoints": []})
        wait_until(lambda: version(page) == 1, what="the dragged step")
        page.tap('[data-square="C2"]')
        expect(page.locator('[data-square="C2"]')).to_have_class(re.compile(r"\bselected\b"))
        page.tap('[data-square="C3"]')
        wait_until(lambda: version(page) == 2, what="the tapped step")
    finally:
        context.close()


# 6 -----------------------------------------------------------------------------------------
@VIEWPORTS
def test_sides_are_light_and_dark_in_words(newcomer_site, ctx, viewport):
    from playwright.sync_api import expect

    move = {"kind": "move", "from": "A2", "to": "A3"}
    game = newcomer_site.game(steps=[("I", move), ("I", "end")])
    page = open_game(ctx, newcomer_site, viewport, "alice", game)
    expect(page.locator("#status")).to_have_text("Waiting for dark (bob)")
    expect(page.locator("#counter")).to_contain_text("dark to move")
    page.click("#resign")
    page.click("#confirm-resign-yes")
    expect(page.locator("#result")).to_have_text("Dark won: light resigned")
    text = page.locator("main").inner_text()
    assert "I won" not in text and "O won" not in text and "Waiting for I" not in text


# 7 -----------------------------------------------------------------------------------------
@VIEWPORTS
def test_the_connection_label_follows_the_network(newcomer_site, ctx, viewport):
    from playwright.sync_api import expect

    game = newcomer_site.game()
    context = ctx(viewport)
    page = context.new_page()
    login(page, newcomer_site, "alice")
    page.goto(f"{newcomer_site.base}/games/{game}/")
    live(page)
    context.set_offline(True)
    expect(page.locator("#conn")).to_contain_text("offline")
    context.set_offline(False)
    expect(page.locator("#conn")).to_have_text("live", timeout=15000)
    page.click('[data-square="A2"]')
    page.click('[data-square="A3"]')
    wait_until(lambda: version(page) == 1, what="a step after coming back")


# 8 -----------------------------------------------------------------------------------------
@VIEWPORTS
def test_coordinates_are_never_covered(newcomer_site, ctx, viewport):
    from playwright.sync_api import expect

    game = newcomer_site.game()
    page = open_game(ctx, newcomer_site, viewport, "alice", game)
    page.click('[data-square="A1"]')  # its move to B1 puts a dot on the bottom rank
    expect(page.locator('[data-square="B1"]')).to_have_class(re.compile(r"\bdest\b"))
    board = page.locator("#board").bounding_box()
    letters = page.locator(".coords.files span")
    expect(letters).to_have_text(list("ABCDEFGH"))
    for i in range(8):
        box = letters.nth(i).bounding_box()
        assert box["y"] >= board["y"] + board["height"] - 1, "file letters below the board"
    # A 12x12 board on a phone: no coordinate overlaps a piece.
    big = newcomer_site.game(variant="grand-master")
    phone = open_game(ctx, newcomer_site, PHONE, "alice", big)
    expect(phone.locator("#board .sq")).to_have_count(144)
    pieces = [p.bounding_box() for p in phone.locator("#board .piece").all()]
    assert len(pieces) == 36
    for label in phone.locator(".coords span").all():
        lb = label.bounding_box()
        assert lb["width"] > 0 and not any(boxes_overlap(lb, p) for p in pieces)


# 9 -----------------------------------------------------------------------------------------
@VIEWPORTS
def test_spectators_and_finished_games_show_no_player_controls(newcomer_site, ctx, viewport):
    from playwright.sync_api import expect

    game = newcomer_site.game()
    watcher = open_game(ctx, newcomer_site, viewport, "carol", game)
    for sel in ("#controls", "#board-hint", "#end-turn", "#pass", "#resign"):
        expect(watcher.locator(sel)).to_be_hidden()
    expect(watcher.locator("#status")).to_have_text("Light to move")
    done = newcomer_site.game(resign="I")
    player = open_game(ctx, newcomer_site, viewport, "alice", done)
    for sel in ("#controls", "#board-hint", "#end-turn", "#pass", "#sound"):
        expect(player.locator(sel)).to_be_hidden()
    expect(player.locator("#conn")).to_have_text("finished")
    expect(player.locator("#result")).to_have_text("Dark won: light resigned")


# 10 ----------------------------------------------------------------------------------------
@VIEWPORTS
def test_the_profile_speaks_plainly(newcomer_site, ctx, viewport):
    from playwright.sync_api import expect

    page = ctx(viewport).new_page()
    login(page, newcomer_site, "alice")  # lost the demo game: 250 -> 238 in S1
    page.click("[data-testid=me]")
    main = page.locator("main")
    text = main.inner_text()
    assert not re.search(r"\bR2[67]\b", text), "rule numbers on a profile"
    expect(page.get_by_test_id("anpc-form")).to_have_count(0)  # S3 only
    page.get_by_text("What do these numbers mean?").click()
    help_ = page.get_by_test_id("metrics-help")
    for words in ("Games won (OR, outcome ratio)", "Confidence (OCS", "Strength of opponents (EI",
                  "by capture : by invasion"):
        expect(help_).to_contain_text(words)
    change = page.get_by_test_id("rating-change").first
    expect(change).to_have_text("−12")
    assert "points" not in page.locator("table.list").first.inner_text()
    expect(main).to_contain_text("Dark won by invasion")


# 11 ----------------------------------------------------------------------------------------
@VIEWPORTS
def test_the_site_has_no_loose_ends(newcomer_site, ctx, viewport):
    from playwright.sync_api import expect

    page = ctx(viewport).new_page()
    page.goto(newcomer_site.base + "/leaderboard/")
    expect(page.locator("main li", has_text="Nobody")).to_have_count(0)
    expect(page.get_by_test_id("nobody").first).to_contain_text("Nobody yet")
    icon = page.request.get(newcomer_site.base + "/favicon.ico")
    assert icon.status == 200 and "svg" in icon.headers["content-type"]
    index = json.loads(urllib.request.urlopen(newcomer_site.base + "/api/v1/").read())
    assert index["games"].endswith("/api/v1/games/") and index["players"]
    # The demo game is real play: captures, a chain and an invasion.
    page.goto(newcomer_site.base + "/")
    page.get_by_test_id("demo-game").click()
    expect(page.locator("#result")).to_contain_text("won by invasion")
    expect(page.locator("#stgn")).to_contain_text("010 I: E4-E5 E5xD5 D5xC5-C6")
    assert page.locator("#stgn").inner_text().count("x") >= 8
