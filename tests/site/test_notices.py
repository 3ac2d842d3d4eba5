"""Notifications on the site (issue 39, ``registry.notices``): each of the five sources (your
turn in a correspondence game, R36; a challenge naming you; your event's round started, R41;
an arbiter's decision on your game, R39; the reply to your club application, book 5.3.4)
reaches the right player, on the site and by mail as they chose on their settings; the bell
counts them on every page and hears them live over the lobby's socket; ``/notifications/``
lists them and marks them read."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.core import mail
from django.test import Client
from django.urls import reverse

from play.commands import arbiter as arbiter_commands
from play.lifecycle import start_game
from play.lobby.challenges import open_challenge
from play.store import engines
from play.worker import notices as turn_notices
from registry.accounts.mailqueue import send_due as send_queued
from registry.accounts.models import AccountSettings
from registry.clubs import services as clubs
from registry.events import notify as event_notify
from registry.events import rounds
from registry.notices import services
from registry.notices.models import Notification
from tests.site.test_events_schedule import boards, online_event
from tests.site.wsutil import TIMEOUT, connect, lobby_socket, receive


def notices_of(user) -> list[Notification]:
    return list(Notification.objects.filter(user=user))


def choose(user, **notices: dict[str, bool]) -> None:
    """``user``'s choices on the settings page: ``kind={"site": bool, "email": bool}``."""
    settings = AccountSettings.of(user)
    settings.notices = notices
    settings.save()


def with_address(*users) -> None:
    for u in users:
        u.email = f"{u.username}@example.org"
        u.save()


# --- the five sources ---------------------------------------------------------------------

@pytest.mark.django_db
def test_a_challenge_naming_a_player_tells_that_player_only(players):
    alice, bob, carol = players
    open_challenge(alice, rated=False, time_control="fischer 600+5")  # open to all: no notice
    assert Notification.objects.count() == 0
    open_challenge(alice, rated=True, opponent="bob", time_control="fischer 600+5")
    [notice] = notices_of(bob)
    assert notice.kind == "challenge" and notice.url == reverse("lobby") and not notice.read
    assert notice.text.startswith("alice challenges you to a rated game")
    assert notices_of(alice) == [] and notices_of(carol) == []


@pytest.mark.django_db
def test_your_turn_in_a_correspondence_game_once_on_the_site_and_once_by_mail(players):
    alice, bob, _ = players
    with_address(alice, bob)
    engines.forget()
    game = start_game(alice, bob, time_control="correspondence 3d")  # alice (I) to move
    assert turn_notices.send_due() == 1 and turn_notices.send_due() == 0  # R36: once a turn
    [notice] = notices_of(alice)
    assert notice.kind == "turn" and notice.url == reverse("game", args=[game.uuid])
    assert notice.text.startswith("Your turn in a correspondence game")
    assert notices_of(bob) == []
    assert send_queued() == 1 and send_queued() == 0
    [sent] = mail.outbox  # the turn's own mail, not a second one from the notice
    assert sent.to == ["alice@example.org"] and sent.subject == "talu: your turn"
    assert str(game.uuid) in sent.body


@pytest.mark.django_db
def test_a_started_round_tells_each_player_of_their_game(make_user):
    event, arbiter, _ = online_event(make_user)
    rounds.start_round(arbiter, event, 1)
    assert event_notify.mail_due() == 4  # R41: the mails as before
    for p in boards(event):
        for user, opponent in ((p.white.player.user, p.black), (p.black.player.user, p.white)):
            [notice] = notices_of(user)
            assert notice.kind == "round" and notice.url == reverse("game", args=[p.game.uuid])
            assert notice.text == (f"Evening Swiss, round 1: your game against {opponent.name}"
                                   f" has started.")
    assert notices_of(arbiter) == []


@pytest.mark.django_db
def test_an_arbiters_decision_tells_both_players_not_the_arbiter(players, make_user, game):
    alice, bob, carol = players
    staff = make_user("frank")
    staff.is_staff = True  # R39: staff arbitrate a game outside any event
    staff.save()
    outcome = arbiter_commands.store_action(
        game.uuid, staff, {"type": "null", "reason": "the clock broke"})
    assert outcome.ok, outcome.reason
    for user, other in ((alice, "bob"), (bob, "alice")):
        [notice] = notices_of(user)
        assert notice.kind == "decision" and notice.url == reverse("game", args=[game.uuid])
        assert notice.text == (f"An arbiter's decision on your game against {other}: the game "
                               f"is null (the clock broke).")
    assert notices_of(staff) == [] and notices_of(carol) == []
    refused = arbiter_commands.store_action(game.uuid, staff, {"type": "null", "reason": "x"})
    assert not refused.ok and Notification.objects.count() == 2  # nothing stored: no notice


@pytest.mark.django_db
def test_the_reply_to_a_club_application_tells_the_applicant(players, make_user):
    alice, bob, _ = players
    staff = make_user("fed")
    staff.is_staff = True
    staff.save()
    first = clubs.apply(alice, name="Alice Club", place="Oslo", contact="a@example.org",
                        stratum=1)
    clubs.refuse(staff, first.pk, "Not an institution.")
    [refused] = notices_of(alice)
    assert refused.kind == "club" and refused.url == reverse("club_apply")
    assert refused.text == "Your club application for Alice Club was refused: Not an institution."
    second = clubs.apply(alice, name="Alice Club", place="Oslo", contact="a@example.org",
                         stratum=1)
    body = clubs.approve(staff, second.pk)
    approved = notices_of(alice)[0]
    assert approved.url == reverse("club", args=[body.registrar_id])
    assert "was approved" in approved.text
    assert notices_of(bob) == [] and notices_of(staff) == []


# --- preferences ----------------------------------------------------------------------------

@pytest.mark.django_db
def test_the_players_choices_decide_site_and_mail(players):
    alice, bob, carol = players
    with_address(bob, carol)
    # bob: challenges by mail only; carol: the defaults (on the site, not by mail)
    choose(bob, challenge={"site": False, "email": True})
    open_challenge(alice, rated=False, opponent="bob", time_control="fischer 600+5")
    open_challenge(alice, rated=False, opponent="carol", time_control="fischer 600+5")
    assert notices_of(bob) == [] and len(notices_of(carol)) == 1
    assert send_queued() == 1
    [sent] = mail.outbox
    assert sent.to == ["bob@example.org"]
    assert sent.subject == "talu: alice challenges you to a casual game of Talu · Standard (10+5)."
    assert "/accounts/unsubscribe/" in sent.body  # the accounts' queue, its footer
    # carol turns challenges off everywhere: nothing at all
    choose(carol, challenge={"site": False, "email": False})
    open_challenge(alice, rated=False, opponent="carol", time_control="fischer 300+3")
    assert len(notices_of(carol)) == 1 and send_queued() == 0


@pytest.mark.django_db
def test_a_turn_the_player_turned_off_on_the_site_still_mails(players):
    alice, bob, _ = players
    with_address(alice)
    choose(alice, turn={"site": False, "email": True})
    engines.forget()
    start_game(alice, bob, time_control="correspondence 3d")
    assert turn_notices.send_due() == 1
    assert notices_of(alice) == [] and send_queued() == 1 and len(mail.outbox) == 1


@pytest.mark.django_db
def test_a_notice_leads_only_to_a_page_of_this_site(players):
    with pytest.raises(ValueError):
        services.notify(players[0], "challenge", "x", "https://elsewhere.example/")
    with pytest.raises(ValueError):
        services.notify(players[0], "challenge", "x", "//elsewhere.example/")
    with pytest.raises(KeyError):  # a kind the settings do not name
        services.notify(players[0], "gossip", "x", "/")
    assert Notification.objects.count() == 0


# --- the bell and the page ------------------------------------------------------------------

def _bell(html: str) -> str:
    start = html.index('data-testid="bell-count"')
    return html[html.index(">", start) + 1:html.index("</span>", start)]


@pytest.mark.django_db
def test_the_bell_counts_unread_notices_on_every_page(client, players):
    alice, bob, _ = players
    for n in range(2):
        services.notify(bob, "challenge", f"notice {n}", "/")
    client.force_login(bob)
    for url in (reverse("lobby"), reverse("rules"), reverse("leaderboard")):
        html = client.get(url).content.decode()
        assert _bell(html) == "2" and 'aria-label="Notifications, 2 unread"' in html
    client.force_login(alice)
    html = client.get(reverse("lobby")).content.decode()
    assert _bell(html) == "0" and 'data-bell-count hidden' in html
    assert 'data-testid="bell"' not in Client().get(reverse("lobby")).content.decode()
    assert client.get(reverse("notifications_unread")).json() == {
        "unread": 0, "text": "", "url": "", "fast": False, "round": None}
    client.force_login(bob)
    assert client.get(reverse("notifications_unread")).json() == {
        "unread": 2, "text": "notice 1", "url": "/", "fast": False, "round": None}


@pytest.mark.django_db
def test_the_page_lists_newest_first_and_opening_it_marks_them_read(client, players):
    alice, bob, _ = players
    for n in range(33):  # more than a page (30)
        services.notify(bob, "challenge", f"notice number {n}.", f"/games/?n={n}")
    services.notify(alice, "challenge", "for alice only", "/")
    client.force_login(bob)
    html = client.get(reverse("notifications")).content.decode()
    assert html.index("notice number 32.") < html.index("notice number 3.")
    assert "notice number 2." not in html and "for alice only" not in html  # page 2; alice's
    assert 'href="/games/?n=32"' in html and html.count(">new</strong>") == 30
    assert _bell(html) == "3"  # the 30 shown are read now; the 3 on page 2 are not
    assert "3 more unread on other pages" in html and 'data-testid="mark-all-read"' in html
    again = client.get(reverse("notifications")).content.decode()
    assert ">new</strong>" not in again
    older = client.get(reverse("notifications") + "?page=2").content.decode()
    assert "notice number 0." in older and older.count(">new</strong>") == 3
    for n in range(2):
        services.notify(bob, "challenge", f"later {n}", "/")
    assert client.get(reverse("notifications_read")).status_code == 405  # a POST only
    assert client.post(reverse("notifications_read")).url == reverse("notifications")
    assert services.unread(bob) == 0 and services.unread(alice) == 1


@pytest.mark.django_db
def test_a_visitor_is_sent_to_log_in_and_changes_nothing(client, players):
    services.notify(players[1], "challenge", "hello", "/")
    for response in (client.get(reverse("notifications")),
                     client.post(reverse("notifications_read"))):
        assert response.status_code == 302
        assert response.url.startswith(reverse("login") + "?next=/notifications/")
    assert services.unread(players[1]) == 1
    assert client.get(reverse("notifications_unread")).json()["unread"] == 0


# --- live -----------------------------------------------------------------------------------

async def _next_of(comm, kind: str) -> dict:
    while True:
        msg = await comm.receive_json_from(timeout=TIMEOUT)
        if msg["type"] == kind:
            return msg
        assert msg["type"] == "changed", msg


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_notice_reaches_the_players_lobby_socket_live(players, cookies):
    alice, bob, _ = players
    bobs = await lobby_socket(await database_sync_to_async(cookies)(bob))
    alices = await lobby_socket(await database_sync_to_async(cookies)(alice))
    await database_sync_to_async(open_challenge)(alice, rated=False, opponent="bob",
                                                 time_control="fischer 600+5")
    msg = await _next_of(bobs, "notification")
    assert msg == {"type": "notification", "unread": 1, "url": "/",
                   "text": "alice challenges you to a casual game of Talu · Standard (10+5)."}
    assert await alices.receive_nothing(timeout=0.3)  # not alice's notice
    # marking all read on the page sets bob's other pages' bells to nothing
    client = Client()
    await database_sync_to_async(client.force_login)(bob)
    await database_sync_to_async(client.post)(reverse("notifications_read"))
    assert (await _next_of(bobs, "notification"))["unread"] == 0
    for comm in (alices, bobs):
        await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_notice_reaches_a_game_page_the_player_has_open(players, cookies, game):
    """The socket a game page already holds carries its viewer's notices to the bell (a
    spectator's too: they are the viewer's own), never another account's."""
    alice, bob, carol = players
    bobs, _, _ = await connect(game, await database_sync_to_async(cookies)(bob))
    carols, _, _ = await connect(game, await database_sync_to_async(cookies)(carol))
    await database_sync_to_async(open_challenge)(alice, rated=False, opponent="carol")
    msg = await receive(carols, "notification")
    assert (msg["unread"], msg["url"]) == (1, "/")
    assert msg["text"].startswith("alice challenges you to a casual game")
    while not await bobs.receive_nothing(timeout=0.3):  # bob's socket: his game's frames,
        other = await bobs.receive_json_from()  # never carol's notice
        assert other["type"] != "notification", other
    for comm in (bobs, carols):
        await comm.disconnect()


@pytest.mark.django_db
def test_an_annulment_tells_both_players_once_committed(players, game,
                                                        django_capture_on_commit_callbacks):
    """R30/R39: an annulled game counts for no rating; its players hear of it and why."""
    from play.commands.player import submit_as
    from play.worker.loop import run_due
    from registry.corrections import annul_game
    from registry.models import RegistryGame

    alice, bob, _ = players
    assert submit_as(game.uuid, alice, "resign").ok
    run_due()  # archived: a finished registry game
    with django_capture_on_commit_callbacks(execute=True):
        annul_game(RegistryGame.objects.get(live=game), reason="a fair-play report upheld")
    for user, other in ((alice, "bob"), (bob, "alice")):
        [notice] = notices_of(user)
        assert notice.text == (f"An arbiter's decision on your game against {other}: the game "
                               "is annulled: it counts for no rating (R30) (a fair-play "
                               "report upheld).")
