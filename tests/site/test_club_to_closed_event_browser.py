"""Issue 38's whole path in real headless Chromium: a club goes from its application to a closed
event through the site's pages alone, with separate accounts for the applicant, a member of the
federation's staff, a second registrar, an arbiter and eight players.

The applicant applies (on a phone); the staff member approves on the federation's page; the
applicant, now the club's registrar, makes its signing key and an API token, appoints a second
registrar and an arbiter (found by search, each confirmed), registers a player found by search
and one without an account, whose printed claim code that person claims after signing up; the
second registrar imports a CSV of five (with its preview) and announces a Swiss for eight,
naming the arbiter; the arbiter enters the club's players, an eighth enters from the event page;
the arbiter asks for round 1 (the worker pairs it), pairs two players by hand with a reason,
starts the round; three games end by resignation on the game page, one after the arbiter warns
a player from the game's arbiter panel, and the fourth, whose black player never came, the
arbiter decides on the event page (R41: unplayed, confirmed); the arbiter closes the event
(confirmed) and downloads its TRF, which holds the round, its results and the ``###`` line of
the change by hand.

Only making the staff account staff is done in the shell (a person cannot make themselves
staff on a page). Accounts: the applicant, the staff member and the player who claims a code
sign up on the sign-up page; the other nine are made with ``live_site.users`` (the demo
password), since nine more sign-ups would add time and test nothing new. At most three
browser contexts are open at once. Screenshots go to ``$TALU_SCREENSHOTS`` when set (those of
docs/clubs.md come from here)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.site.livesite import PASSWORD, unique
from tests.site.test_browser import sign_up
from tests.site.test_events_browser import SHOTS, shot

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
SIGNED_UP = "board-Game-2024!"  # tests/site/test_browser.py sign_up's password


def log_in(browser, base: str, name: str, password: str = PASSWORD, viewport=DESKTOP):
    """A new context (a person's own browser) signed in as ``name``; its page."""
    page = browser.new_context(viewport=viewport, accept_downloads=True).new_page()
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", password)
    page.click("form.card button[type=submit]")
    page.wait_for_url(base + "/")
    return page


def shot_of(page, first: str, last: str, name: str) -> None:
    """A screenshot from the top of ``first`` to the bottom of ``last`` (two selectors), for
    docs/clubs.md: the part of a long page a step is about."""
    if not SHOTS:
        return
    top, bottom = page.locator(first).bounding_box(), page.locator(last).bounding_box()
    scroll = page.evaluate("window.scrollY")
    clip = {"x": 0, "y": top["y"] + scroll - 8, "width": page.viewport_size["width"],
            "height": bottom["y"] + bottom["height"] - top["y"] + 16}
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True, clip=clip)


def close(page) -> None:
    page.context.close()


def confirm_person(page, testid: str, question: str) -> None:
    """Click the people page's button ``testid``; the club asks again; confirm."""
    page.click(f"[data-testid={testid}]")
    assert question in page.inner_text("[data-testid=confirm]")
    page.click("[data-testid=confirm-yes]")


def round_rows(page) -> list[dict]:
    """The boards of round 1 as the event page shows them."""
    rows = []
    for tr in page.locator("[data-testid=round-1] tbody tr").all():
        cells = tr.locator("td")
        link = cells.nth(3).locator("a", has_text="game")
        rows.append({"board": cells.nth(0).inner_text().strip(),
                     "white": cells.nth(1).inner_text().strip(),
                     "black": cells.nth(2).inner_text().strip(),
                     "result": cells.nth(3).inner_text().strip(),
                     "game": link.get_attribute("href") if link.count() else None})
    return rows


def wait_results(page, url: str, boards: int, tries: int = 60) -> list[dict]:
    """Reload the event page until every board of round 1 has its result (the worker archives
    a finished game, then the event hears of it)."""
    for _ in range(tries):
        page.goto(url)
        rows = round_rows(page)
        if len(rows) == boards and all(not r["result"].startswith("…") for r in rows):
            return rows
        page.wait_for_timeout(500)
    raise AssertionError(f"round 1's results did not all arrive: {rows}")


def resign(browser, base: str, name: str, password: str, note: str = "") -> str:
    """``name`` signs in, opens their game from "My pairings" (seeing the arbiter's ``note``
    there, if given) and resigns (confirmed); the result in words as their board shows it."""
    from playwright.sync_api import expect

    page = log_in(browser, base, name, password)
    page.goto(base + "/events/mine/")
    page.click("[data-testid=event-game]")
    page.wait_for_url(f"{base}/games/**")
    expect(page.locator("#conn")).to_have_text("live")
    if note:
        expect(page.locator("#arbiter-note")).to_have_text(note)
    page.click("#resign")
    page.click("#confirm-resign-yes")
    expect(page.locator("#result")).to_contain_text("resigned")
    words = page.inner_text("#result")
    close(page)
    return words


def test_a_club_goes_from_its_application_to_a_closed_event_in_chromium(live_site, browser):
    from playwright.sync_api import expect

    base = live_site.base
    names = unique("ana", "fed", "reg", "arb", "pia", "nora", "csa", "csb", "csc", "csd",
                   "cse", "sol")
    ana_n, fed_n, reg_n, arb_n, pia_n, nora_n, *csv_n, sol_n = names
    live_site.users(reg_n, arb_n, pia_n, *csv_n, sol_n)
    passwords = {n: PASSWORD for n in names} | {n: SIGNED_UP for n in (ana_n, fed_n, nora_n)}
    club = f"Pecs Talu Club {ana_n}"

    # 1. The applicant applies, on a phone.
    ana = browser.new_context(viewport=PHONE).new_page()
    sign_up(ana, base, ana_n)
    ana.click("header >> text=Clubs")
    ana.click("[data-testid=apply-link]")
    ana.fill("input[name=name]", club)
    ana.fill("input[name=place]", "HU Pecs")
    ana.fill("input[name=contact]", "board@pecs.example.org")
    ana.check("input[name=stratum][value='2']")
    shot(ana, "clubs-apply-phone")
    ana.click("form[data-testid=apply] button[type=submit]")
    assert "application is sent" in ana.inner_text(".messages")
    assert "pending" in ana.inner_text("[data-testid=applications]")

    # 2. The federation's staff approves it on the federation page (staff: the shell's only use).
    fed = browser.new_context(viewport=DESKTOP).new_page()
    sign_up(fed, base, fed_n)
    live_site.shell("from django.contrib.auth import get_user_model\n"
                    f"get_user_model().objects.filter(username={fed_n!r}).update(is_staff=True)")
    fed.click("header >> text=Clubs")
    fed.click("main a:text-is('Federation')")
    card = fed.locator("[data-testid=pending] .card", has_text=club)
    assert "asks for S2" in card.inner_text() and ana_n in card.inner_text()
    shot(fed, "clubs-federation-desktop")
    card.locator("button", has_text="Approve").click()
    approved = fed.inner_text(".messages")
    rid = re.search(r"certified as (GTF-[A-Z0-9-]+)", approved).group(1)
    assert rid.startswith("GTF-HU-PECS-")
    close(fed)

    # 3. The applicant, the club's first registrar, finds the club and its tools.
    ana.goto(base + "/clubs/apply/")
    assert "you are its registrar" in ana.inner_text("[data-testid=applications]")
    ana.click(f"[data-testid=applications] a:has-text('{club}')")
    club_url = ana.url
    assert ana_n in ana.inner_text("[data-testid=club-registrars]")
    assert "stratum S2" in ana.inner_text("main")
    ana.set_viewport_size(DESKTOP)

    # its signing key (the secret shown once) and an API token (shown once)
    ana.click("[data-testid=manage-keys]")
    ana.click("form[data-testid=generate-key] button")
    assert "shown this once" in ana.inner_text("[data-testid=secret-once]")
    ana.click("text=Back to the keys and tokens")
    ana.fill("form[data-testid=new-token] input[name=label]", "club laptop")
    ana.click("form[data-testid=new-token] button")
    assert ana.inner_text("[data-testid=token]").startswith("talu_")
    ana.click("text=Back to the keys and tokens")
    assert "current" in ana.inner_text("[data-testid=keys]")
    assert "club laptop" in ana.inner_text("[data-testid=tokens]")
    shot(ana, "clubs-keys-desktop")

    # 4. People: a second registrar and an arbiter, each found by search and confirmed
    ana.goto(club_url)
    ana.click("[data-testid=manage-people]")
    people_url = ana.url
    for who, role in ((reg_n, "registrar"), (arb_n, "arbiter")):
        ana.fill("[data-testid=find]", who)
        ana.click("form[role=search] button")
        assert who in ana.inner_text("[data-testid=found]")
        confirm_person(ana, f"add-{role}-{who}", f"Make {who} a{'n' if role == 'arbiter' else ''}"
                                                 f" {role} of {club}?")
        assert f"{who} is a{'n' if role == 'arbiter' else ''} {role} of {club}." in \
            ana.inner_text(".messages")
    assert reg_n in ana.inner_text("[data-testid=registrars]")
    assert arb_n in ana.inner_text("[data-testid=arbiters]")
    # a player found by search, registered with the club
    ana.fill("[data-testid=find]", pia_n)
    ana.click("form[role=search] button")
    ana.click(f"[data-testid=register-{pia_n}]")
    assert f"{pia_n} is registered with {club}." in ana.inner_text(".messages")
    ana.fill("[data-testid=find]", pia_n)
    ana.click("form[role=search] button")
    assert "registered here" in ana.inner_text(f"[data-testid=found-{pia_n}]")
    assert ana.locator(f"[data-testid=register-{pia_n}]").count() == 0
    shot(ana, "clubs-people-desktop")
    # a player without an account: the claim code, printed once
    ana.fill("form[data-testid=new-player] input[name=name]", "Nora Kovacs")
    ana.click("form[data-testid=new-player] button[type=submit]")
    code = ana.inner_text("[data-testid=claim-code]")
    assert "shown this once" in ana.inner_text("[data-testid=codes-once]")
    close(ana)

    # ... which Nora claims after signing up
    nora = browser.new_context(viewport=PHONE).new_page()
    sign_up(nora, base, nora_n)
    nora.click("header >> text=Clubs")
    nora.click("main a:has-text('Claim your player')")
    nora.fill("input[name=code]", code)
    nora.click("form[data-testid=claim] button[type=submit]")
    assert "Your account is now the registered player" in nora.inner_text(".messages")
    close(nora)

    # 5. The second registrar imports five players from a CSV (preview first) ...
    reg = log_in(browser, base, reg_n)
    reg.goto(people_url)
    reg.click("[data-testid=import-link]")
    csv = "name,username\n" + "".join(f"Player {n},{n}\n" for n in csv_n)
    reg.set_input_files("form[data-testid=import] input[type=file]", files=[{
        "name": "players.csv", "mimeType": "text/csv", "buffer": csv.encode()}])
    reg.click("form[data-testid=import] button[type=submit]")
    assert "5 of 5 rows can be registered" in reg.inner_text("[data-testid=preview]")
    assert "nothing is written yet" in reg.inner_text("[data-testid=preview] h2")
    shot(reg, "clubs-import-preview-desktop")
    reg.click("[data-testid=import-confirm]")
    assert reg.locator("[data-testid=codes] li").count() == 5
    reg.goto(club_url)
    members = reg.inner_text("[data-testid=club-members]")
    for n in (pia_n, nora_n, *csv_n):
        assert n in members

    # ... and announces a Swiss for eight, naming the arbiter (R41: scored at S2 or above)
    reg.click("text=Announce an event")
    form = reg.locator("form[data-testid=new-event]")
    form.locator("select[name=body]").select_option(rid)
    form.locator("input[name=name]").fill("Autumn Swiss")
    form.locator("select[name=system]").select_option("swiss")
    form.locator("input[name=rounds]").fill("3")
    form.locator("select[name=scoring_model]").select_option("S2")
    form.locator("button[type=submit]").click()
    assert "Autumn Swiss is announced" in reg.inner_text(".messages")
    event_url = reg.url
    reg.click("[data-testid=arbiter] summary:has-text('Settings')")
    reg.fill("[data-testid=arbiter] input[name=arbiters]", arb_n)
    reg.click("[data-testid=arbiter] button:has-text('Save settings')")
    assert "Settings saved." in reg.inner_text(".messages")
    assert arb_n in reg.inner_text("section[data-testid=settings]")
    assert reg.locator("[data-testid=arbiter]").count() == 0  # the arbiter runs it now
    close(reg)

    # 6. The arbiter enters the club's seven players; an eighth enters from the event page.
    arb = log_in(browser, base, arb_n)
    arb.goto(club_url)
    arb.click("[data-testid=club-events] a:has-text('Autumn Swiss')")
    assert arb.url == event_url
    # R39: the arbiter is offered no entry of their own
    assert arb.locator("[data-testid=register]").count() == 0
    assert "you do not play in it" in arb.inner_text("[data-testid=arbiter-no-entry]")
    # "Enter a player" offers the club's players by name (the id is what it sends)
    offered = {o.text_content(): o.get_attribute("value")
               for o in arb.locator("[data-testid=body-players] option").all()}
    assert set(offered) == {pia_n, nora_n, *csv_n}
    for n in (pia_n, nora_n, *csv_n):
        arb.click("[data-testid=arbiter] summary:has-text('Enter a player')")
        arb.fill("[data-testid=enter-player-id]", offered[n])
        arb.click("[data-testid=arbiter] button:has-text('Enter')")
        assert f"{n} is entered." in arb.inner_text(".messages")
    assert arb.locator("[data-testid=body-players]").count() == 0  # all seven entered
    sol = log_in(browser, base, sol_n)
    sol.goto(event_url)
    sol.click("[data-testid=register]")
    assert "You are entered." in sol.inner_text(".messages")
    close(sol)

    # 7. Round 1: the worker pairs it; the arbiter pairs two players by hand, with a reason
    arb.goto(event_url)
    assert arb.locator("[data-testid=players] tbody tr").count() == 8
    arb.click("[data-testid=pair]")
    assert "Round 1 is being paired" in arb.inner_text(".messages")
    arb.wait_for_selector("[data-testid=round-1]", timeout=30000)
    before = round_rows(arb)
    assert len(before) == 4
    a, b = before[0]["white"], before[1]["white"]  # a plays board 1, b board 2
    reason = "the two travel home early together"
    arb.click("[data-testid=change-by-hand] summary")
    change = arb.locator("[data-testid=change-by-hand] form", has=arb.locator(
        "[data-testid=change-pair]"))
    change.locator("select[name=player_a]").select_option(label=a)
    change.locator("select[name=player_b]").select_option(label=b)
    change.locator("input[name=reason]").fill(reason)
    change.locator("[data-testid=change-pair]").click()
    assert "The round is changed by hand" in arb.inner_text(".messages")
    after = round_rows(arb)
    assert (after[0]["white"], after[0]["black"]) == (a, b)
    assert (after[1]["white"], after[1]["black"]) == (before[0]["black"], before[1]["black"])
    assert f"changed by hand: {reason}" in after[0]["result"]
    assert f"Reason: {reason}" in arb.inner_text("[data-testid=changes]")
    arb.click("[data-testid=change-by-hand] summary")  # the form again, for the picture
    shot_of(arb, "[data-testid=arbiter]", "[data-testid=round-1]", "clubs-event-by-hand-part")

    # 8. The arbiter starts the round; every board has its game
    arb.click("[data-testid=start]")
    assert "Round 1 has started." in arb.inner_text(".messages")
    boards = round_rows(arb)
    assert all(r["game"] for r in boards)

    # board 1: the arbiter warns light from the game's arbiter panel; dark then resigns
    arb.goto(base + boards[0]["game"])
    expect(arb.locator("#arbiter-tools")).to_be_visible()
    expect(arb.locator("#conn")).to_have_text("live")
    arb.select_option("#arb-side", "I")
    arb.fill("#arb-reason", "non-engagement")
    arb.click("#arbiter-tools button[data-action=warn]")
    expect(arb.locator("#arb-status")).to_contain_text("Done")
    warned = "Arbiter: light is warned for non-engagement"
    expect(arb.locator("#arbiter-note")).to_have_text(warned)
    words = resign(browser, base, boards[0]["black"], passwords[boards[0]["black"]], warned)
    assert words == "Light won: dark resigned"
    expect(arb.locator("#result")).to_have_text("Light won: dark resigned")
    # boards 2 and 3: white resigns
    for r in boards[1:3]:
        assert resign(browser, base, r["white"], passwords[r["white"]]) == \
            "Dark won: light resigned"

    # board 4: black never came; the arbiter decides it unplayed on the event page (confirmed)
    arb.goto(event_url)
    arb.select_option("[aria-label='result of board 4']", "+-")
    arb.locator("[data-testid=round-1] tbody tr").nth(3).locator("button",
                                                                  has_text="Set").click()
    assert f"{boards[3]['white']} – {boards[3]['black']}" in arb.inner_text(
        "[data-testid=confirm]")
    arb.click("[data-testid=confirm-yes]")
    assert "Board 4: + – − (unplayed)" in arb.inner_text(".messages")
    arb.goto(base + boards[3]["game"])  # the game's page says what the event made of it
    assert "in the event: + – − (unplayed) (set by the arbiter)" in arb.inner_text("main")

    rows = wait_results(arb, event_url, 4)
    assert [r["result"].split(" · ")[0] for r in rows[:3]] == ["1–0", "0–1", "0–1"]
    assert rows[3]["result"].startswith("+ – − (unplayed)")
    assert "decided by the arbiter" in rows[3]["result"]

    # 9. The arbiter closes the event (asked again) and downloads its TRF
    arb.click("[data-testid=arbiter] button:has-text('Close the event')")
    assert "Its results become final" in arb.inner_text("[data-testid=confirm]")
    arb.click("[data-testid=confirm-yes]")
    assert "The event is closed; its results are final." in arb.inner_text(".messages")
    assert "closed" in arb.inner_text("main p.hint")
    assert arb.locator("[data-testid=arbiter]").count() == 0
    standings = arb.inner_text("[data-testid=standings]")
    for r in rows:
        assert r["white"] in standings and r["black"] in standings
    shot(arb, "clubs-event-closed-desktop")
    with arb.expect_download() as download:
        arb.click("[data-testid=trf]")
    trf = open(download.value.path(), encoding="utf-8").read()  # noqa: SIM115
    assert "012 Autumn Swiss" in trf
    assert f"### round 1 changed by hand by {arb_n}" in trf and f"Reason: {reason}" in trf
    lines = {ln[14:47].strip(): ln[80:].split() for ln in trf.splitlines()
             if ln.startswith("001 ")}
    assert len(lines) == 8
    # each player's points, rank, then round 1's cell: opponent's number, colour, result
    assert lines[rows[0]["white"]][0] == "1.0" and lines[rows[0]["white"]][3:] == ["w", "1"]
    assert lines[rows[0]["black"]][3:] == ["b", "0"]
    assert lines[rows[1]["black"]][3:] == ["b", "1"]
    assert lines[rows[3]["white"]][3:] == ["w", "+"]
    assert lines[rows[3]["black"]][0] == "0.0" and lines[rows[3]["black"]][3:] == ["b", "-"]
    arb.set_viewport_size(PHONE)
    arb.goto(event_url)
    assert arb.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    shot_of(arb, "[data-testid=round-1]", "section:has([data-testid=standings])",
            "clubs-event-closed-part-phone")
    close(arb)
