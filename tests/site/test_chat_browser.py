"""Chat beside a game in the browser (issue 39): a player on a desktop and one on a 390 px
phone talk in the players' chat while a spectator talks in theirs and never sees the players';
the input counts characters, a bad message is refused in words beside it, a report and a mute
work from the message, and a moderator's hide on the moderation page makes the message vanish
from the page at once."""

from __future__ import annotations

import pytest

from tests.site.livesite import PASSWORD, unique

pytestmark = pytest.mark.browser


def log_in(page, base: str, name: str) -> None:
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    page.click("form.card button[type=submit]")
    page.wait_for_url(base + "/")


def send(page, text: str) -> None:
    page.fill("#chat-input", text)
    page.click("[data-testid=chat-send]")


def test_chat_on_desktop_and_phone_with_report_mute_and_hide(live_site, browser, tmp_path):
    from playwright.sync_api import expect

    base = live_site.base
    ann_name, ben_name, cat_name, mod_name = unique("ann", "ben", "cat", "mod")
    live_site.users(ann_name, ben_name, cat_name, mod_name)
    live_site.shell("from django.contrib.auth import get_user_model\n"
                    f"get_user_model().objects.filter(username={mod_name!r})"
                    ".update(is_staff=True)")
    uuid = live_site.game(ann_name, ben_name)
    contexts = [browser.new_context() for _ in range(4)]
    ann, ben, cat, mod = (c.new_page() for c in contexts)
    ben.set_viewport_size({"width": 390, "height": 844})  # ben plays on a phone
    for page, name in ((ann, ann_name), (ben, ben_name), (cat, cat_name)):
        log_in(page, base, name)
        page.goto(f"{base}/games/{uuid}/")
        expect(page.locator("#conn")).to_have_text("live")
    expect(ann.locator("#h-chat")).to_have_text("Players' chat")
    expect(cat.locator("#h-chat")).to_have_text("Spectators' chat")

    # the counter follows the typing
    ann.fill("#chat-input", "good luck")
    expect(ann.locator("#chat-count")).to_have_text("9/300")
    ann.click("[data-testid=chat-send]")
    expect(ben.locator("#chat-log")).to_contain_text("good luck")
    expect(ben.locator("#chat-log")).to_contain_text(ann_name)
    expect(ann.locator("#chat-input")).to_have_value("")
    send(cat, "who wins this?")
    expect(cat.locator("#chat-log")).to_contain_text("who wins this?")
    send(ben, "thanks, you too")
    expect(ann.locator("#chat-log")).to_contain_text("thanks, you too")
    # the spectator reads the spectators' chat only, and the players never read it
    expect(cat.locator("#chat-log li")).to_have_count(1)
    expect(ann.locator("#chat-log")).not_to_contain_text("who wins")
    expect(ben.locator("#chat-log")).not_to_contain_text("who wins")

    # a spectator reports a player of the game (no chat of theirs to point at)
    cat.click("#chat-report-player summary")
    cat.select_option("#chat-player", ann_name)
    cat.fill("#chat-player-reason", "taunting the audience")
    cat.click("#chat-player-form button[type=submit]")
    expect(cat.locator("#chat-refusal")).to_contain_text(f"{ann_name} is reported")

    # refused in words, the text kept for another try, nothing shown in the log
    send(ann, "tricky \u202e text")
    expect(ann.locator("#chat-refusal")).to_contain_text("bidirectional control")
    expect(ann.locator("#chat-input")).to_have_value("tricky \u202e text")
    expect(ben.locator("#chat-log li")).to_have_count(2)

    ann.screenshot(path=str(tmp_path / "chat-desktop.png"), full_page=True)
    ben.locator("#chat").scroll_into_view_if_needed()
    ben.screenshot(path=str(tmp_path / "chat-phone.png"))
    width = ben.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the phone's page pans sideways ({width} px)"

    # ben reports ann's message, then mutes her: her messages leave his page
    msg = ben.locator("#chat-log li", has_text="good luck")
    msg.locator(".chat-report").click()
    msg.locator(".chat-reason").fill("not nice")
    msg.locator("button[type=submit]").click()
    expect(ben.locator("#chat-refusal")).to_contain_text("reported to the moderators")
    ben.screenshot(path=str(tmp_path / "chat-phone-reported.png"))
    msg.locator(".chat-mute").click()
    expect(ben.locator("#chat-muted")).to_contain_text(f"{ann_name} (unmute)")
    expect(msg).to_be_hidden()
    ben.reload()  # the mute is kept with the account
    expect(ben.locator("#chat-log li", has_text="good luck")).to_have_count(0)
    expect(ben.locator("#chat-log")).to_contain_text("thanks, you too")

    # the moderator hides it on the moderation page: it vanishes from ann's page at once
    log_in(mod, base, mod_name)
    mod.goto(base + "/moderation/")
    expect(mod.locator("article.report", has_text="taunting the audience")).to_contain_text(
        f"Report of the player {ann_name}")
    report = mod.locator("article.report", has_text="good luck")
    expect(report).to_contain_text("not nice")
    mod.screenshot(path=str(tmp_path / "moderation.png"), full_page=True)
    report.locator("[data-testid=hide]").click()
    expect(mod.locator(".messages")).to_contain_text("hidden for everyone")
    expect(ann.locator("#chat-log li", has_text="good luck")).to_have_count(0)
    expect(ann.locator("#chat-log")).to_contain_text("thanks, you too")
    ann.reload()
    expect(ann.locator("#chat-log")).to_contain_text("thanks, you too")
    expect(ann.locator("#chat-log li", has_text="good luck")).to_have_count(0)
    for c in contexts:
        c.close()
