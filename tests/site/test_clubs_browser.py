"""In real headless Chromium (issue 38): a club goes from its application to its page. The
applicant applies on a phone (390x844), a member of the federation's staff approves it on a
desktop, the applicant, now the club's registrar, finds the club's page, registers a player
without an account and prints the claim code, imports a CSV of three (one refused in the
preview), and the first player, signed in, claims their code.

The site is the test process's one live site (``live_site``: production's settings, its
Content-Security-Policy); the people are the test's own (``unique``). Screenshots go to
``$TALU_SCREENSHOTS`` when it is set (to look at, never committed)."""

from __future__ import annotations

import pytest

from tests.site.livesite import unique
from tests.site.test_browser import sign_up
from tests.site.test_events_browser import shot

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}


def _fits(page) -> None:
    """Nothing of the page is wider than the phone (no sideways scrolling)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1


def test_a_club_applies_is_approved_and_runs_its_page(live_site, browser):
    base = live_site.base
    ana_name, fed_name, zoe_name = unique("ana", "fed", "zoe")
    club = f"Szeged Club {ana_name}"

    ana = browser.new_context(viewport=PHONE).new_page()
    sign_up(ana, base, ana_name)
    ana.click("header >> text=Clubs")
    ana.click("[data-testid=apply-link]")
    # an empty place is refused in words, the typed values kept
    ana.fill("input[name=name]", club)
    ana.fill("input[name=contact]", "club@example.org")
    ana.check("input[name=stratum][value='2']")
    ana.click("form[data-testid=apply] button[type=submit]")
    assert "The country or place must not be empty" in ana.inner_text("main")
    assert ana.input_value("input[name=name]") == club
    shot(ana, "clubs-apply-refused-field-phone")
    ana.fill("input[name=place]", "HU Szeged")
    ana.click("form[data-testid=apply] button[type=submit]")
    assert "application is sent" in ana.inner_text(".messages")
    assert "pending" in ana.inner_text("[data-testid=applications]")
    _fits(ana)
    shot(ana, "clubs-apply-pending-phone")

    fed = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    sign_up(fed, base, fed_name)
    live_site.shell("from django.contrib.auth import get_user_model\n"
                    f"get_user_model().objects.filter(username={fed_name!r})"
                    ".update(is_staff=True)")
    fed.goto(base + "/clubs/federation/")
    card = fed.locator("[data-testid=pending] .card", has_text=club)
    assert "asks for S2" in card.inner_text()
    shot(fed, "clubs-federation-desktop")
    card.locator("button", has_text="Approve").click()
    assert "is certified as GTF-HU-SZEGED-" in fed.inner_text(".messages")

    ana.goto(base + "/clubs/apply/")
    assert "you are its registrar" in ana.inner_text("[data-testid=applications]")
    ana.click(f"[data-testid=applications] a:has-text('{club}')")
    assert ana_name in ana.inner_text("[data-testid=club-registrars]")
    assert "stratum S2" in ana.inner_text("main")
    _fits(ana)
    shot(ana, "clubs-page-phone")

    ana.click("[data-testid=manage-people]")
    ana.fill("[data-testid=find]", fed_name)
    ana.click("form[role=search] button")
    assert fed_name in ana.inner_text("[data-testid=found]")
    _fits(ana)
    shot(ana, "clubs-people-phone")
    ana.fill("form[data-testid=new-player] input[name=name]", "Zoe Toth")
    ana.click("form[data-testid=new-player] button[type=submit]")
    code = ana.inner_text("[data-testid=claim-code]")
    assert "shown this once" in ana.inner_text("[data-testid=codes-once]")
    _fits(ana)
    shot(ana, "clubs-claim-code-phone")

    # a CSV of three: the preview shows the bad row's problem, then two are registered
    ana.click("text=Back to the people")
    ana.click("[data-testid=import-link]")
    ana.set_input_files("form[data-testid=import] input[type=file]", files=[{
        "name": "players.csv", "mimeType": "text/csv",
        "buffer": b"name,rating\nIlona Szabo,300\nJanos Varga,\nKata,many\n"}])
    ana.click("form[data-testid=import] button[type=submit]")
    assert "2 of 3 rows can be registered" in ana.inner_text("[data-testid=preview]")
    assert "The rating 'many' is not a whole number" in ana.inner_text("[data-testid=row-4]")
    _fits(ana)
    shot(ana, "clubs-import-preview-phone")
    ana.click("[data-testid=import-confirm]")
    assert ana.locator("[data-testid=claim-code]").count() == 2

    zoe = browser.new_context(viewport=PHONE).new_page()
    sign_up(zoe, base, zoe_name)
    zoe.goto(base + "/clubs/claim/")
    zoe.fill("input[name=code]", "WRONG-CODE2")
    zoe.click("form[data-testid=claim] button[type=submit]")
    assert "No player has this code" in zoe.inner_text(".messages")
    zoe.fill("input[name=code]", code)
    zoe.click("form[data-testid=claim] button[type=submit]")
    assert "Your account is now the registered player" in zoe.inner_text(".messages")
    assert "/players/" in zoe.url

    fed.goto(ana.url.replace("/people/import/", "/"))
    page_text = fed.inner_text("[data-testid=club-members]")
    assert zoe_name in page_text  # the claimed player now shows as the account
    assert "Ilona Szabo" in page_text and "Kata" not in page_text
    shot(fed, "clubs-page-desktop")
