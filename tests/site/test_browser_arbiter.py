"""An arbiter at work in real headless Chromium (R39): two players start a game, a body appoints
a third account as its arbiter, the arbiter finds it on the console, opens it, and warns a
player; both players' boards (and the arbiter's) show "Arbiter: light is warned for
non-engagement", and the console shows the warning among the game's signs.

The site is the test process's one live site (``live_site``, ``tests/site/livesite.py``:
production's settings, shared with the other browser tests), as in ``test_browser.py``: the
players and the arbiter are people of each test's own (``unique``), and the appointment is of
the test's own game (its uuid, from the page's address). With ``TALU_DOC_SHOTS=<dir>`` the
test also saves the screenshots of ``docs/arbiters.md`` there (desktop and a 390x844 phone).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.site.livesite import unique
from tests.site.test_browser import sign_up, wait_version

pytestmark = pytest.mark.browser

APPOINT = """
from django.contrib.auth import get_user_model
from registry import arbiters
from registry.models import RegistryGame
User = get_user_model()
game = RegistryGame.objects.get(live__uuid={game!r}, status="playing")
arbiters.appoint(game, User.objects.get(username={arbiter!r}), reason="club night")
"""


def appoint(site, game_url: str, arbiter: str) -> None:
    """``arbiter`` appointed for the game at ``game_url`` (its uuid, on the shared site)."""
    site.shell(APPOINT.format(game=game_url.rstrip("/").rsplit("/", 1)[-1], arbiter=arbiter))


def _shot(page, name: str) -> None:
    where = os.environ.get("TALU_DOC_SHOTS")
    if where:
        page.screenshot(path=str(Path(where) / name), full_page=True)


def test_an_arbiter_warns_a_player_from_the_console_and_both_boards_show_it(live_site,
                                                                             browser):
    from playwright.sync_api import expect

    base = live_site.base
    ann_name, ben_name, cyd_name = unique("ann", "ben", "cyd")
    contexts = [browser.new_context() for _ in range(3)]
    ann, ben, cyd = (c.new_page() for c in contexts)
    for page, name in ((ann, ann_name), (ben, ben_name), (cyd, cyd_name)):
        sign_up(page, base, name)
    ann.fill("#id_opponent", ben_name)
    ann.click("#challenge-form button[type=submit]")
    ben.goto(base + "/")
    ben.click(f"[data-testid=accept-{ann_name}]")
    ben.wait_for_url("**/games/**")
    ann.wait_for_url("**/games/**", timeout=15000)
    game_url = ben.url

    # Before any appointment cyd is a spectator: no console entry, no tools.
    cyd.goto(game_url)
    assert cyd.get_attribute("#game", "data-role") == "spectator"
    expect(cyd.locator("#arbiter-tools")).to_have_count(0)
    appoint(live_site, game_url, cyd_name)

    # The console lists the game; opening it gives the arbiter's panel.
    cyd.goto(base + "/arbiter/")
    row = cyd.locator("#console-games tr[data-game]")
    expect(row).to_have_count(1)
    expect(row).to_contain_text(ann_name)  # sides are drawn at random
    expect(row).to_contain_text(ben_name)
    _shot(cyd, "arbiters-console.png")
    row.locator("a").click()
    cyd.wait_for_url(game_url)
    expect(cyd.locator("#arbiter-tools")).to_be_visible()
    expect(cyd.locator("#signs")).to_contain_text("R14")
    for page in (ann, ben, cyd):
        expect(page.locator("#conn")).to_have_text("live")

    # An empty reason is refused on the page; nothing is sent.
    cyd.click("#arbiter-tools button[data-action=warn]")
    expect(cyd.locator("#arb-status")).to_contain_text("needs a reason")

    light = ann if ann.get_attribute("#game", "data-side") == "I" else ben
    cyd.select_option("#arb-side", "I")
    cyd.fill("#arb-reason", "non-engagement")
    cyd.click("#arbiter-tools button[data-action=warn]")
    expect(cyd.locator("#arb-status")).to_contain_text("Done")
    for page in (ann, ben, cyd):
        expect(page.locator("#arbiter-note")).to_have_text(
            "Arbiter: light is warned for non-engagement")
        expect(page.locator("#decisions")).to_contain_text("before the first turn")
    _shot(cyd, "arbiters-game.png")
    cyd.set_viewport_size({"width": 390, "height": 844})
    _shot(cyd, "arbiters-game-phone.png")
    cyd.set_viewport_size({"width": 1280, "height": 900})
    light.set_viewport_size({"width": 390, "height": 844})
    _shot(light, "arbiters-player-phone.png")

    # A second warning of the same side is refused with words.
    cyd.click("#arbiter-tools button[data-action=warn]")
    expect(cyd.locator("#arb-status")).to_contain_text("warned already")

    # The console shows the warning among the game's signs (polled).
    cyd.goto(base + "/arbiter/")
    expect(cyd.locator("#console-games")).to_contain_text("warned: I", timeout=10000)
    cyd.set_viewport_size({"width": 390, "height": 844})
    _shot(cyd, "arbiters-console-phone.png")

    # The arbiter forfeits O (confirming the dialog): both boards show the decision; after
    # the game the panel offers annul only, and annulling works once the records are written.
    cyd.set_viewport_size({"width": 1280, "height": 900})
    cyd.goto(game_url)
    cyd.on("dialog", lambda dialog: dialog.accept())
    cyd.fill("#arb-reason", "left the venue")
    cyd.select_option("#arb-side", "O")
    cyd.click("#arbiter-tools button[data-action=forfeit]")
    for page in (ann, ben, cyd):
        expect(page.locator("#result")).to_have_text("Light won: the arbiter forfeited dark")
        expect(page.locator("#arbiter-note")).to_have_text(
            "Arbiter: dark forfeits (left the venue)")
    expect(cyd.locator("#arbiter-tools button[data-action=warn]")).to_be_hidden()
    expect(cyd.locator("#records")).to_contain_text("STSE", timeout=20000)
    cyd.fill("#arb-reason", "played by the wrong players")
    cyd.click("#arbiter-tools button[data-action=annul]")
    expect(cyd.locator("#arb-status")).to_have_text("The game is annulled (R30).")
    for c in contexts:
        c.close()


def test_an_arbiter_adds_time_and_both_clocks_show_it(live_site, browser):
    """R39 add_time, R36/R37 on the console: the arbiter sees both clocks and that both
    players are connected, adds two minutes to dark's clock from the game's panel, and both
    players' boards show the decision in words and dark's clock two minutes higher."""
    from playwright.sync_api import expect

    base = live_site.base
    dot_name, eli_name, fay_name = unique("dot", "eli", "fay")
    contexts = [browser.new_context() for _ in range(3)]
    dot, eli, fay = (c.new_page() for c in contexts)
    for page, name in ((dot, dot_name), (eli, eli_name), (fay, fay_name)):
        sign_up(page, base, name)
    dot.select_option("#id_side", "I")
    dot.select_option("#id_time", "custom")
    dot.fill("#id_custom_time", "fischer 600+0")
    dot.fill("#id_opponent", eli_name)
    dot.click("#challenge-form button[type=submit]")
    eli.goto(base + "/")
    eli.click(f"[data-testid=accept-{dot_name}]")
    eli.wait_for_url("**/games/**")
    dot.wait_for_url("**/games/**", timeout=15000)
    game_url = eli.url
    for page in (dot, eli):
        expect(page.locator("#conn")).to_have_text("live")
    # the opening turns (their own limit, R36): time can be added once they are played
    version = 0
    for page, frm, to in ((dot, "A2", "A3"), (eli, "H7", "H6")):
        page.click(f'[data-square="{frm}"]')
        page.click(f'[data-square="{to}"]')
        version += 1
        wait_version(page, version)
        page.click("#end-turn")
        version += 1
        wait_version(page, version)
    appoint(live_site, game_url, fay_name)

    fay.goto(base + "/arbiter/")
    row = fay.locator("#console-games tr[data-game]", has_text=dot_name)
    expect(row.locator(".console-clocks")).to_contain_text("O 10:00", timeout=10000)
    expect(row.locator(".console-clocks")).to_contain_text("▸")  # light's clock runs
    expect(row.locator(".console-absence")).to_have_text("both connected")
    row.locator("a").click()
    fay.wait_for_url(game_url)
    expect(fay.locator("#conn")).to_have_text("live")
    fay.select_option("#arb-side", "O")
    fay.fill("#arb-seconds", "120")
    fay.fill("#arb-reason", "a noisy neighbour")
    fay.click("#arbiter-tools button[data-action=add_time]")
    expect(fay.locator("#arb-status")).to_contain_text("Done")
    for page in (dot, eli, fay):
        expect(page.locator("#arbiter-note")).to_have_text(
            "Arbiter: 2 minutes added to dark's clock (a noisy neighbour)")
        expect(page.locator("[data-testid=clock-O]")).to_have_text("12:00")
    # A huge amount is refused in words, nothing changes.
    fay.fill("#arb-seconds", "999999")
    fay.click("#arbiter-tools button[data-action=add_time]")
    expect(fay.locator("#arb-status")).to_contain_text("1 to 3600")
    expect(eli.locator("[data-testid=clock-O]")).to_have_text("12:00")
    # The console shows the new time.
    fay.goto(base + "/arbiter/")
    expect(fay.locator("#console-games tr[data-game]", has_text=dot_name)
           .locator(".console-clocks")).to_contain_text("O 12:00", timeout=10000)
    for c in contexts:
        c.close()
