"""Accounts (issue 39): an email address at sign-up verified by a link (valid, expired, reused,
superseded, forged), password reset by mail and change, an address changed only once
verified, the settings saved and applied on every page, notices by the player's choice with
a one-click unsubscribe, closing an account (the login goes, the player and records stay),
and bad input answered with clear errors and nothing saved. Mail goes through the queue
(``registry.accounts.mailqueue``), delivered here with Django's locmem backend."""

from __future__ import annotations

import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from play.lobby.challenges import open_challenge
from play.models import Challenge
from play.worker import notices
from registry.accounts import mailqueue, prefs, verify
from registry.accounts.models import AccountSettings, QueuedMail
from registry.models import Player

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-talu-password-1"
User = get_user_model()


def deliver() -> list:
    """Run the queue as the worker does; the mails it sent."""
    before = len(mail.outbox)
    mailqueue.send_due(1000)
    return mail.outbox[before:]


def link_in(message, part: str) -> str:
    """The path of the first link in ``message`` whose path contains ``part``."""
    for url in re.findall(r"https?://\S+", message.body):
        path = re.sub(r"^https?://[^/]+", "", url)
        if part in path:
            return path
    raise AssertionError(f"no {part} link in {message.body!r}")


def sign_up(client, name: str, email: str = ""):
    return client.post("/accounts/signup/", {"username": name, "email": email,
                                             "password1": PASSWORD, "password2": PASSWORD})


@pytest.fixture
def verified(make_user):
    """alice, with alice@example.org verified."""
    alice = make_user("alice")
    alice.email = "alice@example.org"
    alice.save()
    return alice


# --- sign-up and verification ------------------------------------------------------------------

def test_sign_up_with_an_email_sends_a_link_and_the_address_counts_once_followed(client):
    page = client.get("/accounts/signup/")
    assert "Optional. Used only for the notices you choose" in page.content.decode()
    response = sign_up(client, "ann", "Ann@Example.ORG")
    assert response.status_code == 302
    ann = User.objects.get(username="ann")
    # not the account's address yet: nothing is mailed to it but the link
    assert ann.email == "" and AccountSettings.of(ann).pending_email == "Ann@example.org"
    assert not prefs.wants(ann, "turn", prefs.EMAIL)
    sent = deliver()
    assert [m.to for m in sent] == [["Ann@example.org"]]
    path = link_in(sent[0], "/accounts/verify/")

    client.logout()  # the link works from any browser: it is the proof
    page = client.get(path)
    assert page.status_code == 200 and b'data-testid="verify-verified"' in page.content
    ann.refresh_from_db()
    assert ann.email == "Ann@example.org" and prefs.wants(ann, "turn", prefs.EMAIL)

    again = client.get(path)  # reused: a clear page, nothing changes
    assert again.status_code == 200 and b"This link has been used already" in again.content
    ann.refresh_from_db()
    assert ann.email == "Ann@example.org"


def test_sign_up_without_an_email_mails_nothing(client):
    assert sign_up(client, "ben").status_code == 302
    ben = User.objects.get(username="ben")
    assert ben.email == "" and AccountSettings.of(ben).pending_email == ""
    assert QueuedMail.objects.count() == 0


def test_an_expired_link_changes_nothing_and_says_so(client, make_user, monkeypatch):
    ann = make_user("ann")
    real = time.time
    monkeypatch.setattr("django.core.signing.time.time", lambda: real() - 4 * 86400)
    verify.ask(ann, "ann@example.org")  # its link made four days ago (it lasts three)
    monkeypatch.undo()
    path = link_in(deliver()[0], "/accounts/verify/")
    page = client.get(path)
    assert page.status_code == 400 and b"Link expired" in page.content
    assert b"ask for a new one on your settings page" in page.content
    ann.refresh_from_db()
    assert ann.email == ""


def test_a_forged_or_cut_link_changes_nothing(client, make_user):
    ann = make_user("ann")
    verify.ask(ann, "ann@example.org")
    path = link_in(deliver()[0], "/accounts/verify/")
    for bad in (path[:-6] + "/", path.replace("/verify/", "/verify/x")):
        page = client.get(bad)
        assert page.status_code == 400 and b"Link not valid" in page.content
    # control characters never reach the view: the site's own page for no such address
    assert client.get("/accounts/verify/%00%01/").status_code == 404
    ann.refresh_from_db()
    assert ann.email == ""


def test_a_second_address_asked_for_supersedes_the_first_link(client, make_user):
    ann = make_user("ann")
    verify.ask(ann, "old@example.org")
    verify.ask(ann, "new@example.org")
    first, second = deliver()
    page = client.get(link_in(first, "/accounts/verify/"))
    assert page.status_code == 400 and b"no longer waits for" in page.content
    assert client.get(link_in(second, "/accounts/verify/")).status_code == 200
    ann.refresh_from_db()
    assert ann.email == "new@example.org"


# --- bad input -----------------------------------------------------------------------------------

BAD_ADDRESSES = [
    ("not-an-address", "That is not an email address"),
    ("a" * 250 + "@example.org", "must be at most 254 characters"),
    ("ann\x07@example.org", "must not contain the control character U+0007"),
    ("ann\u202e@example.org", "bidirectional control U+202E"),
    ("ann@exa mple.org", "That is not an email address"),
]


@pytest.mark.parametrize(("address", "words"), BAD_ADDRESSES)
def test_sign_up_with_a_bad_address_says_why_and_makes_nothing(client, address, words):
    response = sign_up(client, "ann", address)
    assert response.status_code == 200 and words in response.content.decode()
    assert not User.objects.filter(username="ann").exists()
    assert QueuedMail.objects.count() == 0


@pytest.mark.parametrize(("address", "words"), BAD_ADDRESSES)
def test_settings_with_a_bad_address_say_why_and_save_nothing(client, verified, address,
                                                              words):
    client.force_login(verified)
    response = client.post("/accounts/settings/", {"action": "email", "email": address})
    assert response.status_code == 400 and words in response.content.decode()
    verified.refresh_from_db()
    assert verified.email == "alice@example.org"
    assert AccountSettings.of(verified).pending_email == ""
    assert QueuedMail.objects.count() == 0


def test_settings_refuse_a_form_they_do_not_have(client, verified):
    client.force_login(verified)
    response = client.post("/accounts/settings/", {"action": "nonsense", "theme": "dark"})
    assert response.status_code == 400 and b"Nothing was changed" in response.content
    assert AccountSettings.of(verified).theme == "light"
    bad = client.post("/accounts/settings/", {"action": "prefs", "theme": "purple"})
    assert bad.status_code == 400 and b"Select a valid choice" in bad.content
    assert AccountSettings.objects.get(user=verified).theme == "light"


# --- email change --------------------------------------------------------------------------------

def test_an_address_is_changed_only_once_the_new_one_is_verified(client, verified):
    client.force_login(verified)
    response = client.post("/accounts/settings/", {"action": "email",
                                                    "email": "alice.new@example.org"})
    assert response.status_code == 302
    verified.refresh_from_db()
    assert verified.email == "alice@example.org"  # the old one until the link is followed
    page = client.get("/accounts/settings/").content.decode()
    assert "Waiting for confirmation: <strong>alice.new@example.org</strong>" in page
    link_mail = deliver()
    assert [m.to for m in link_mail] == [["alice.new@example.org"]]

    # a notice meanwhile goes to the verified address only
    assert notices._mailer is not None
    assert notices._mailer(verified, "turn", "talu: your turn", "It is your turn.")
    assert [m.to for m in deliver()] == [["alice@example.org"]]

    assert client.get(link_in(link_mail[0], "/accounts/verify/")).status_code == 200
    verified.refresh_from_db()
    assert verified.email == "alice.new@example.org"
    assert AccountSettings.of(verified).pending_email == ""


def test_links_asked_for_too_often_are_refused(client, verified):
    client.force_login(verified)
    for i in range(verify.LINKS_PER_HOUR):
        action = {"action": "email", "email": f"a{i}@example.org"} if i < 2 else \
            {"action": "resend"}
        assert client.post("/accounts/settings/", action).status_code == 302
    refused = client.post("/accounts/settings/", {"action": "email", "email": "z@example.org"})
    assert refused.status_code == 429 and b"nothing was sent" in refused.content
    assert client.post("/accounts/settings/", {"action": "resend"}).status_code == 429
    assert AccountSettings.of(verified).pending_email == "a1@example.org"
    assert len(deliver()) == verify.LINKS_PER_HOUR


# --- passwords -----------------------------------------------------------------------------------

def test_a_forgotten_password_is_reset_by_mail_once(client, verified):
    assert b"Forgot your password?" in client.get("/accounts/login/").content
    response = client.post("/accounts/password/reset/", {"email": "ALICE@example.org"})
    assert response.status_code == 302 and response["Location"] == "/accounts/password/reset/sent/"
    sent = deliver()
    assert [m.to for m in sent] == [["alice@example.org"]]
    assert sent[0].subject == "talu: choose a new password"
    path = link_in(sent[0], "/accounts/password/reset/")
    form_page = client.get(path, follow=True)
    assert b"Choose a new password" in form_page.content
    done = client.post(form_page.redirect_chain[-1][0], {"new_password1": "another-talu-pw-22",
                                                         "new_password2": "another-talu-pw-22"})
    assert done.status_code == 302 and done["Location"] == "/accounts/password/reset/done/"
    assert client.login(username="alice", password="another-talu-pw-22")
    client.logout()
    # the link again: used, a clear page, the password stays
    reused = client.get(path, follow=True)
    assert b'data-testid="reset-invalid"' in reused.content
    assert client.login(username="alice", password="another-talu-pw-22")


def test_resets_asked_for_again_and_again_fill_no_mailbox(client, verified):
    from registry.accounts.forms import RESETS_PER_HOUR

    for _ in range(RESETS_PER_HOUR + 2):
        response = client.post("/accounts/password/reset/", {"email": "alice@example.org"})
        assert response.status_code == 302  # the same answer every time
    assert len(deliver()) == RESETS_PER_HOUR


def test_a_reset_reaches_verified_addresses_only(client, make_user):
    ann = make_user("ann")
    verify.ask(ann, "ann@example.org")
    deliver()  # the verification link, not followed
    response = client.post("/accounts/password/reset/", {"email": "ann@example.org"})
    assert response.status_code == 302  # the same answer: no account is given away
    assert deliver() == []


def test_a_reset_with_a_bad_address_says_why(client):
    response = client.post("/accounts/password/reset/", {"email": "nobody\x1b@example.org"})
    assert response.status_code == 200 and b"control character U+001B" in response.content
    # a NUL never reaches the form: the site's own answer to it (talu_site.middleware)
    response = client.post("/accounts/password/reset/", {"email": "nobody\x00@x"})
    assert response.status_code == 400 and b"NUL" in response.content
    assert QueuedMail.objects.count() == 0


def test_a_password_is_changed_with_the_old_one(client, make_user):
    ann = make_user("ann")
    client.force_login(ann)
    page = client.get("/accounts/password/change/")
    assert page.status_code == 200 and b"Change your password" in page.content
    wrong = client.post("/accounts/password/change/", {
        "old_password": "wrong", "new_password1": "x-new-talu-pw-1",
        "new_password2": "x-new-talu-pw-1"})
    assert wrong.status_code == 200 and b"Your old password was entered incorrectly" in \
        wrong.content
    ok = client.post("/accounts/password/change/", {
        "old_password": "pw-ann-x1", "new_password1": "x-new-talu-pw-1",
        "new_password2": "x-new-talu-pw-1"})
    assert ok.status_code == 302 and ok["Location"] == "/accounts/password/change/done/"
    assert b"Password changed" in client.get("/accounts/password/change/done/").content
    client.logout()
    assert not client.login(username="ann", password="pw-ann-x1")
    assert client.login(username="ann", password="x-new-talu-pw-1")


# --- settings ------------------------------------------------------------------------------------

def prefs_post(**changes) -> dict:
    data = {"action": "prefs", "theme": "light", "sound": "on", "show_overlaps": "on"}
    for kind, (_, by_email, on_site) in prefs.KINDS.items():
        if by_email:
            data[f"notice_{kind}_email"] = "on"
        if on_site:
            data[f"notice_{kind}_site"] = "on"
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_settings_are_saved_and_the_theme_applies_on_every_page(client, verified):
    assert b'data-theme="light"' in client.get("/").content  # a visitor: the defaults
    client.force_login(verified)
    page = client.get("/accounts/settings/")
    assert page.status_code == 200 and b'href="/accounts/settings/"' in page.content
    response = client.post("/accounts/settings/", prefs_post(
        theme="dark", sound=None, confirm_moves="on", notice_turn_email=None))
    assert response.status_code == 302
    saved = AccountSettings.objects.get(user=verified)
    assert (saved.theme, saved.sound, saved.confirm_moves, saved.show_overlaps) == \
        ("dark", False, True, True)
    assert saved.notices["turn"] == {"email": False, "site": True}
    for url in ("/", "/accounts/settings/", "/rules/", "/leaderboard/"):
        html = client.get(url).content.decode()
        assert ('<html lang="en" data-theme="dark" data-sound="off" '
                'data-confirm-moves="on" data-overlaps="on">') in html, url
        assert "/static/accounts/theme.css" in html
    assert not prefs.wants(verified, "turn", prefs.EMAIL)
    assert prefs.wants(verified, "turn", prefs.SITE)
    assert prefs.wants(verified, "round", prefs.EMAIL)
    page = client.get("/accounts/settings/").content.decode()
    assert re.search(r'name="notice_turn_email"(?![^>]*checked)', page)
    assert re.search(r'name="notice_round_email"[^>]*checked', page)


def test_the_game_page_carries_the_board_preferences(client, players, game):
    alice = players[0]
    settings = AccountSettings.of(alice)
    settings.show_overlaps, settings.sound = False, False
    settings.save()
    client.force_login(alice)
    html = client.get(f"/games/{game.uuid}/").content.decode()
    assert 'data-sound="off" data-confirm-moves="off" data-overlaps="off"' in html


def test_wants_refuses_an_unknown_kind_or_channel(verified):
    with pytest.raises(KeyError):
        prefs.wants(verified, "gossip", prefs.EMAIL)
    with pytest.raises(KeyError):
        prefs.wants(verified, "turn", "pigeon")


# --- notices and unsubscribe ---------------------------------------------------------------------

def test_a_notice_has_a_one_click_unsubscribe_link(client, verified):
    assert notices._mailer(verified, "round", "talu: round 2 started", "Your game waits.")
    (sent,) = deliver()
    path = link_in(sent, "/accounts/unsubscribe/")
    assert sent.extra_headers["List-Unsubscribe"].endswith(path + ">")
    assert sent.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    page = client.get(path)  # not signed in
    assert page.status_code == 200 and b"No more mails for" in page.content
    assert not prefs.wants(verified, "round", prefs.EMAIL)
    assert prefs.wants(verified, "round", prefs.SITE)  # only the mails stop
    assert prefs.wants(verified, "turn", prefs.EMAIL)  # only that kind
    assert not notices._mailer(verified, "round", "talu: round 3 started", "Your game waits.")
    assert deliver() == []
    # a mail client's one-click POST (RFC 8058) does the same, without a CSRF token
    assert notices._mailer(verified, "turn", "talu: your turn", "Your turn.")
    path = link_in(deliver()[0], "/accounts/unsubscribe/")
    from django.test import Client

    assert Client(enforce_csrf_checks=True).post(path).status_code == 200
    assert not prefs.wants(verified, "turn", prefs.EMAIL)


def test_a_forged_unsubscribe_link_changes_nothing(client, verified):
    from registry.accounts import tokens

    good = tokens.unsubscribe(verified.pk, "turn")
    for bad in (good[:-3] + "abc", tokens.unsubscribe(verified.pk, "gossip"), "junk"):
        page = client.get(f"/accounts/unsubscribe/{bad}/")
        assert page.status_code == 400 and b"Link not valid" in page.content
    assert prefs.wants(verified, "turn", prefs.EMAIL)


def test_no_verified_address_no_mail(make_user):
    ann = make_user("ann")
    verify.ask(ann, "ann@example.org")  # waiting, not verified
    deliver()
    assert not notices._mailer(ann, "turn", "talu: your turn", "Your turn.")
    assert deliver() == []


# --- closing an account --------------------------------------------------------------------------

def test_closing_an_account_ends_the_login_and_keeps_the_player(client, players, game):
    alice = players[0]
    alice.email = "alice@example.org"
    alice.save()
    player_id = alice.player.player_id
    open_challenge(alice, opponent="")
    open_challenge(players[1], opponent="alice")
    open_challenge(players[1], opponent="")
    client.force_login(alice)
    page = client.get("/accounts/close/")
    assert page.status_code == 200 and b"Close your account" in page.content
    wrong = client.post("/accounts/close/", {"password": "nope", "understood": "on"})
    assert wrong.status_code == 400 and b"That is not your password." in wrong.content
    unticked = client.post("/accounts/close/", {"password": "pw-alice-x1"})
    assert unticked.status_code == 400
    alice.refresh_from_db()
    assert alice.is_active

    done = client.post("/accounts/close/", {"password": "pw-alice-x1", "understood": "on"})
    assert done.status_code == 200 and b'data-testid="account-closed"' in done.content
    assert client.get("/accounts/settings/").status_code == 302  # signed out
    assert not client.login(username="alice", password="pw-alice-x1")
    login = client.post("/accounts/login/", {"username": "alice", "password": "pw-alice-x1"})
    assert login.status_code == 200 and b"Please enter a correct username" in login.content
    # the name stays taken
    again = sign_up(client, "alice")
    assert again.status_code == 200 and b"A user with that username already exists" in \
        again.content
    # the player and the game stay; the profile says closed
    assert Player.objects.filter(player_id=player_id).exists()
    game.refresh_from_db()
    assert game.player_i_id == alice.pk
    profile = client.get(f"/players/{player_id}/")
    assert profile.status_code == 200 and b'data-testid="account-closed"' in profile.content
    # its challenges, and those naming it, are gone; others' stay
    assert [(c.creator_id, c.opponent_id) for c in Challenge.objects.filter(
        status=Challenge.OPEN)] == [(players[1].pk, None)]
    # no mail of any kind reaches it
    client.post("/accounts/password/reset/", {"email": "alice@example.org"})
    assert not notices._mailer(alice, "turn", "talu: your turn", "Your turn.")
    assert deliver() == []


def test_an_open_profile_does_not_say_closed(client, players):
    response = client.get(f"/players/{players[1].player.player_id}/")
    assert response.status_code == 200 and b"account-closed" not in response.content
