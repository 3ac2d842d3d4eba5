"""Two players sign up, challenge, accept and play a game to a result in real headless
Chromium while a third browser watches step by step; the downloaded records verify with
``talu verify``.

The site is the test process's one live site (``live_site``, ``tests/site/livesite.py``):
daphne with the worker in its process on the embedded defaults (SQLite, its keyring in a
temporary directory), production's settings, shared with the other browser tests, so the
players are people of this test's own (``unique``). The browser is Debian's chromium
(``/usr/bin/chromium``), driven by Playwright for Python; no browser is ever downloaded.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.site.livesite import unique

pytestmark = pytest.mark.browser


def sign_up(page, base: str, name: str) -> None:
    page.goto(base + "/accounts/signup/")
    page.fill("#id_username", name)
    page.fill("#id_password1", "board-Game-2024!")
    page.fill("#id_password2", "board-Game-2024!")
    page.click("form.card button[type=submit]")
    page.wait_for_url(base + "/")


def wait_version(page, v: int, timeout: float = 10) -> None:
    """Poll from Python (no ``wait_for_function``: it evaluates a string, which a
    Content-Security-Policy without 'unsafe-eval' forbids)."""
    deadline = time.monotonic() + timeout
    while int(page.get_attribute("#game", "data-version") or -1) < v:
        assert time.monotonic() < deadline, f"version {v} not reached"
        time.sleep(0.05)


def test_two_players_play_to_a_result_while_a_third_watches(live_site, browser, tmp_path):
    from playwright.sync_api import expect

    base, keyring = live_site.base, live_site.keyring
    ann_name, ben_name = unique("ann", "ben")
    ann_ctx, ben_ctx, cy_ctx = (browser.new_context(accept_downloads=True) for _ in range(3))
    ann, ben, cy = ann_ctx.new_page(), ben_ctx.new_page(), cy_ctx.new_page()
    cy.set_viewport_size({"width": 390, "height": 844})  # the watcher is on a phone
    sign_up(ann, base, ann_name)
    sign_up(ben, base, ben_name)

    # ann challenges ben by name; ben accepts; ann's lobby opens the game by itself.
    ann.select_option("#id_variant", "standard")
    ann.select_option("#id_rated", "1")
    ann.fill("#id_opponent", ben_name)
    ann.click("#challenge-form button[type=submit]")
    expect(ann.locator("#waiting")).to_be_visible()
    ben.goto(base + "/")
    ben.click(f"[data-testid=accept-{ann_name}]")
    ben.wait_for_url("**/games/**")
    ann.wait_for_url("**/games/**", timeout=15000)
    game_url = ben.url

    # cy (not signed in) finds the game in the lobby (among the other tests' games) and watches.
    cy.goto(base + "/")
    cy.locator("[data-testid=watch]", has_text=ann_name).click()
    cy.wait_for_url(game_url)
    assert cy.get_attribute("#game", "data-role") == "spectator"
    for page in (ann, ben, cy):
        expect(page.locator("#conn")).to_have_text("live")
    expect(ann.locator("#spectators")).to_have_text("1")

    light, dark = (ann, ben) if ann.get_attribute("#game", "data-side") == "I" else (ben, ann)
    assert light.get_attribute("#game", "data-side") == "I"
    assert dark.get_attribute("#game", "data-side") == "O"
    # Each player's own home row is at the bottom of their board.
    last_row = "#board .row:last-child .sq"
    assert light.locator(last_row).first.get_attribute("data-square") == "A1"
    assert dark.locator(last_row).first.get_attribute("data-square") == "H8"

    version = 0

    def acted(page, square_checks: dict[str, str]) -> None:
        """After a step on ``page``: every browser reaches the next version, and the
        watcher's board shows the squares as expected."""
        nonlocal version
        version += 1
        for p in (light, dark, cy):
            wait_version(p, version)
        for sq, piece in square_checks.items():
            expect(cy.locator(f'[data-square="{sq}"]')).to_have_attribute("data-piece", piece)

    def click_step(page, frm: str, to: str) -> None:
        page.click(f'[data-square="{frm}"]')
        expect(page.locator(f'[data-square="{to}"]')).to_have_class(re.compile(r"\bdest\b"))
        page.click(f'[data-square="{to}"]')
        acted(page, {frm: "", to: page.get_attribute("#game", "data-side")})

    def press(page, button: str) -> None:
        expect(page.locator(button)).to_be_enabled()
        page.click(button)
        acted(page, {})

    # Round 1: I clicks one step, drags another, ends the turn; O moves and ends.
    click_step(light, "A2", "A3")
    light.drag_and_drop('[data-square="B2"]', '[data-square="B3"]')
    acted(light, {"B2": "", "B3": "I"})
    expect(light.locator("#counter")).to_contain_text("step 2/4")
    expect(cy.locator("#stgn")).to_contain_text("001 I: A2-A3 B2-B3")
    press(light, "#end-turn")
    expect(cy.locator("#stgn")).to_have_text("001 I: A2-A3 B2-B3")
    click_step(dark, "H7", "H6")
    press(dark, "#end-turn")
    # Round 2: I passes; O moves with the keyboard only (focus, Enter, arrow, Enter).
    press(light, "#pass")
    dark.focus('[data-square="G7"]')
    dark.keyboard.press("Enter")
    dark.keyboard.press("ArrowUp")  # O's board is turned: rank 6 is above rank 7
    expect(dark.locator(":focus")).to_have_attribute("data-square", "G6")
    dark.keyboard.press("Enter")
    acted(dark, {"G7": "", "G6": "O"})
    press(dark, "#end-turn")
    # Round 3 and 4: I passes twice more, O moves in between: I forfeits (R12).
    press(light, "#pass")
    click_step(dark, "F7", "F6")
    press(dark, "#end-turn")
    # The third pass would lose: the board says so and asks first (issue 24).
    expect(light.locator("#passes")).to_contain_text("light 2, dark 0")
    light.click("#pass")
    expect(light.locator("#confirm-pass")).to_contain_text("lose the game by forfeit")
    light.click("#confirm-pass-yes")
    acted(light, {})

    for page in (light, dark, cy):
        expect(page.locator("#result")).to_have_text(
            "Dark won: light forfeited, three of its turns in a row counted as passes")
    expect(cy.locator("#stgn")).to_contain_text("004 I: . !\n!: O")
    expect(light.locator("#end-turn")).to_be_disabled()
    expect(dark.locator("#records")).to_contain_text("→")  # rated: both ratings moved

    # Download every record from the game page and verify them with the talu command.
    files = []
    for kind in ("STGN", "STGE", "STSE", "STDGS"):
        with cy.expect_download() as dl:
            cy.click(f'[data-record="{kind}"]')
        target = tmp_path / dl.value.suggested_filename
        dl.value.save_as(target)
        files.append(target)
    assert files[0].read_text().splitlines()[-1] == "!: O"
    talu = shutil.which("talu", path=str(Path(sys.executable).parent)) or "talu"
    out = subprocess.run([talu, "verify", "--keyring", str(keyring), *map(str, files[1:])],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    replay = subprocess.run([talu, "replay", str(files[0]), "--json"], capture_output=True,
                            text=True, timeout=60)
    assert replay.returncode == 0 and '"reason": "forfeit"' in replay.stdout, replay.stdout
    for ctx in (ann_ctx, ben_ctx, cy_ctx):
        ctx.close()
