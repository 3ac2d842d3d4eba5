"""Tables of three in real Chromium (issue 37).

The live site (``live_site``: production's settings, one per test process) plays the games of
the catalogue, where no game of more than two seats is registered until Talat is: there the
lobby must not change (no tables, no pool for three, no sideways panning on a phone). Once
it has one, the same test plays the issue's story there: a person on a phone opens a table,
gives the other seats to the computer (or two others take them, where the game has no
computer) and everyone seated lands in the game.

The lobby's tables themselves are drawn here from this process, where the tiny three-seat
race is registered with the tests' computer (tests/site/tinycomputer.py): the page as the
server renders it, at a phone's 390 px and a desktop's width without sideways panning, and
``static/play/tables.js`` drawing the same table again from the lobby's poll."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse

from play.lobby import tables
from tests.site.livesite import unique
from tests.site.test_browser import sign_up

pytestmark = pytest.mark.browser

STATIC = Path(__file__).resolve().parents[2] / "static" / "play"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _no_panning(page) -> None:
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1


@pytest.fixture(scope="module")
def rendered(django_db_setup, django_db_blocker):
    """The lobby as ana sees it with an open table of the tiny race (ana in seat one, ben in
    three), and its poll's state; made before the browser starts (Playwright's loop forbids
    the database to this thread), its rows deleted after."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from play.games import registry
    from play.games.match.match import Match
    from play.games.protocol.parts import GameParts
    from tests.match.tinygame import TinyRules
    from tests.site.tinycomputer import TinyComputer

    match = Match(TinyRules())
    registry.register(match)
    registry.PARTS["tiny"] = GameParts(computer=TinyComputer())
    try:
        with django_db_blocker.unblock():
            users = get_user_model().objects
            ana, ben = (users.create_user(username=n, password=f"pw-{n}-x1")
                        for n in unique("ana", "ben"))
            table = tables.open_table(ana, "tiny/race", seat="1", rated=False)
            tables.take_seat(ben, table.pk, "3")
            client = Client()
            client.force_login(ana)
            html = client.get("/").content.decode()
            state = client.get(reverse("lobby_state")).json()
            table_id = table.pk
            table.delete()
            users.filter(pk__in=[ana.pk, ben.pk]).delete()
    finally:
        registry.PARTS.pop("tiny", None)
        registry.unregister(match.name)
    return {"html": html, "state": state, "table": table_id, "ben": ben.get_username(),
            "ana": ana.get_username()}


def test_the_lobby_draws_open_tables_on_a_phone_and_a_desktop(rendered, browser):
    html, state, table = rendered["html"], rendered["state"], rendered["table"]
    for viewport in (PHONE, DESKTOP):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        page.route("**/*", lambda route: route.abort())  # the page alone, no server
        page.set_content(html, wait_until="domcontentloaded")
        page.add_style_tag(path=str(STATIC / "site.css"))
        give = page.locator(f"[data-testid=give-{table}-2]")
        assert give.is_visible()
        assert page.locator(f"[data-testid=close-{table}]").is_visible()
        assert page.locator("#table-form [data-testid=open-table]").is_visible()
        assert page.locator("[data-testid='three-10+5-casual']").is_visible()
        _no_panning(page)
        # the lobby's poll draws the same table again (tables.js, beside lobby.js)
        page.add_script_tag(path=str(STATIC / "tables.js"))
        page.evaluate("d => document.dispatchEvent(new CustomEvent('talu:lobby-state', "
                      "{detail: d}))", state)
        seats = page.locator(f"#table-{table} [data-seat]")
        assert seats.all_text_contents()[0].startswith(f"one: {rendered['ana']}")
        assert f"three: {rendered['ben']}" in seats.all_text_contents()[2]
        assert give.is_visible()  # drawn again, the same test id
        assert page.locator(f"#table-{table} select[name=level] option").count() == 3
        _no_panning(page)
        context.close()


def test_the_live_lobby_seats_three_or_does_not_change(live_site, browser):
    """The live site: without a game of more seats the lobby is as it was; with one (Talat,
    once registered) a person on a phone opens a table and the game starts when it is full."""
    from playwright.sync_api import expect

    base = live_site.base
    ana_name, ben_name, cyd_name = unique("ana", "ben", "cyd")
    ana_ctx = browser.new_context(viewport=PHONE)
    ana = ana_ctx.new_page()
    sign_up(ana, base, ana_name)
    if ana.locator("#id_table_variant").count() == 0:
        expect(ana.locator("#more-seats")).to_have_count(0)
        assert "Pool for three" not in ana.content()
        _no_panning(ana)
        ana_ctx.close()
        return
    ana.click("#table-form [data-testid=open-table]")
    give = ana.locator("[data-testid^=give-]")
    others = []
    if give.count():  # the game has a computer: one person against the computer's seats
        while give.count():
            give.first.click()
    else:  # two more people take the open seats
        for name in (ben_name, cyd_name):
            ctx = browser.new_context(viewport=DESKTOP)
            page = ctx.new_page()
            sign_up(page, base, name)
            page.locator("[data-testid^=take-]").first.click()
            others.append((ctx, page))
    ana.wait_for_url("**/games/**", timeout=20000)
    for _, page in others:
        page.wait_for_url("**/games/**", timeout=20000)
        assert page.url == ana.url
    _no_panning(ana)
    for ctx, _ in others:
        ctx.close()
    ana_ctx.close()
