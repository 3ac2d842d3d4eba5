"""Chat beside a game (issue 39) over the game's websocket: the players' and the spectators'
channels kept apart, bad text and floods refused with nothing stored, reports (and a report
of what the reporter cannot see refused), mutes, a moderator's hide reaching every socket at
once, restrictions (chat refused; rated play refused wherever a rated game starts), chat off
in an event's game until its arbiters allow it, and who may open the moderation page."""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from play.lobby import challenges, pool
from play.models import ChatMessage, ChatMute, ChatReport, Restriction
from registry.models import AuditEntry
from tests.site.wsutil import connect, receive

pytestmark = [pytest.mark.django_db(transaction=True)]


async def no_chat(comm, wait: float = 0.3) -> None:
    """Nothing of the chat reaches ``comm`` within ``wait`` seconds (other frames, spectator
    counts say, may)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + wait
    # ``receive_nothing``, not a receive with a timeout: that one cancels the application
    while (left := end - loop.time()) > 0:
        if await comm.receive_nothing(timeout=left):
            return
        msg = await comm.receive_json_from()
        assert msg["type"] not in ("chat", "chat_hidden"), msg


async def say(comm, text: str) -> dict:
    """Send a chat message; the answer this socket gets (its own message, or the refusal)."""
    await comm.send_json_to({"type": "chat", "text": text})
    return await receive(comm, "chat", "chat_refused")


def client_of(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def page_chat(user, game) -> dict:
    """The chat panel's start on ``user``'s game page (``#chat-initial``)."""
    c = client_of(user) if user is not None else Client()
    html = c.get(f"/games/{game.uuid}/").content.decode()
    found = re.search(r'<script id="chat-initial" type="application/json">(.*?)</script>',
                      html, re.S)
    assert found, "the game page carries its chat panel's start"
    return json.loads(found.group(1))


async def sockets(game, players, cookies):
    alice, bob, carol = players
    out = []
    for user in (alice, bob, carol):
        comm, _, _ = await connect(game, await database_sync_to_async(cookies)(user))
        out.append(comm)
    return out


@pytest.mark.asyncio
async def test_players_and_spectators_each_read_their_own_channel(game, players, cookies):
    a, b, c = await sockets(game, players, cookies)
    mine = await say(a, "good luck")
    assert mine["type"] == "chat" and mine["message"]["channel"] == "players"
    assert mine["message"]["user"] == "alice" and mine["message"]["text"] == "good luck"
    heard = await receive(b, "chat")
    assert heard["message"] == mine["message"]
    await no_chat(c)  # a spectator never reads the players' channel
    watching = await say(c, "nice opening")
    assert watching["message"]["channel"] == "spectators"
    await no_chat(a)
    await no_chat(b)
    for comm in (a, b, c):
        await comm.disconnect()
    _, bob, carol = players
    # a reload shows the viewer's channel: the players', the spectators', for anyone else
    bob_sees = await database_sync_to_async(page_chat)(bob, game)
    assert [m["text"] for m in bob_sees["messages"]] == ["good luck"]
    carol_sees = await database_sync_to_async(page_chat)(carol, game)
    assert [m["text"] for m in carol_sees["messages"]] == ["nice opening"]
    anonymous = await database_sync_to_async(page_chat)(None, game)
    assert [m["text"] for m in anonymous["messages"]] == ["nice opening"]
    assert anonymous["login"] is True


@pytest.mark.asyncio
async def test_players_chat_stays_private_after_the_game(game, players, cookies):
    """Like lichess, the players' chat is never shown to spectators, not after the end
    either."""
    a, b, c = await sockets(game, players, cookies)
    await say(a, "my secret plan")
    await a.send_json_to({"type": "resign", "seq": "r1"})
    assert (await receive(a, "ack", "rejected"))["type"] == "ack"
    late = await say(a, "well played")  # chat goes on after the end
    assert late["message"]["channel"] == "players"
    await no_chat(c)
    for comm in (a, b, c):
        await comm.disconnect()
    carol_sees = await database_sync_to_async(page_chat)(players[2], game)
    assert carol_sees["messages"] == []


@pytest.mark.asyncio
async def test_bad_text_is_refused_in_words_and_nothing_is_stored(game, players, cookies):
    a, b, c = await sockets(game, players, cookies)
    cases = [("x" * 301, "too_long", "at most 300 characters"),
             ("abc\u202edef", "bad_text", "bidirectional control"),
             ("ring\x07bell", "bad_text", "control character"),
             ("two\nlines", "bad_text", "single line"),
             ("   ", "bad_text", "cannot be empty")]
    for text, code, words in cases:
        refused = await say(a, text)
        assert refused["type"] == "chat_refused" and refused["code"] == code, refused
        assert words in refused["message"] and refused["of"] == "chat"
    await a.send_json_to({"type": "chat", "text": 42})
    assert (await receive(a, "chat_refused"))["code"] == "bad_text"
    await no_chat(b)
    assert await ChatMessage.objects.acount() == 0
    # exactly 300 is fine, and emoji with their joiners are ordinary text
    assert (await say(a, "y" * 300))["type"] == "chat"
    assert (await say(a, "gg \U0001F468\u200d\U0001F469\u200d\U0001F467"))["type"] == "chat"
    for comm in (a, b, c):
        await comm.disconnect()


@pytest.mark.asyncio
async def test_too_many_messages_are_refused_and_not_stored(game, players, cookies, settings):
    settings.TALU_RATES = {**settings.TALU_RATES, "chat": "5/10second"}
    a, b, c = await sockets(game, players, cookies)
    for i in range(5):
        assert (await say(a, f"message {i}"))["type"] == "chat"
    refused = await say(a, "one too many")
    assert refused["type"] == "chat_refused" and refused["code"] == "rate_limited"
    assert "Too many chat messages" in refused["message"] and "wait" in refused["message"]
    assert await ChatMessage.objects.acount() == 5
    assert not await ChatMessage.objects.filter(text="one too many").aexists()
    # the limit is the account's, not the socket's: another socket of alice's is refused too
    alice = players[0]
    a2, _, _ = await connect(game, await database_sync_to_async(cookies)(alice))
    assert (await say(a2, "from another tab"))["code"] == "rate_limited"
    # and bob is not limited by alice's messages
    assert (await say(b, "hello"))["type"] == "chat"
    for comm in (a, a2, b, c):
        await comm.disconnect()


@pytest.mark.asyncio
async def test_reports_of_what_one_can_see_and_not_of_what_one_cannot(game, players, cookies):
    a, b, c = await sockets(game, players, cookies)
    said = (await say(a, "you play like a potato"))["message"]
    await receive(b, "chat")
    # the spectator cannot see the players' channel: no report of it, and no word of it
    await c.send_json_to({"type": "report", "message": said["id"], "reason": "rude"})
    refused = await receive(c, "chat_refused", "reported")
    assert refused["type"] == "chat_refused" and refused["code"] == "not_visible"
    assert "potato" not in refused["message"] and "cannot report that message" in \
        refused["message"]
    # a message that does not exist is refused in the same words
    await c.send_json_to({"type": "report", "message": said["id"] + 999, "reason": "rude"})
    assert (await receive(c, "chat_refused"))["code"] == "not_visible"
    # bob saw it: reported
    await b.send_json_to({"type": "report", "message": said["id"], "reason": "insulting"})
    assert await receive(b, "reported", "chat_refused") == {"type": "reported",
                                                            "message": said["id"]}
    # a report needs a reason; one's own message is not reported
    await b.send_json_to({"type": "report", "message": said["id"], "reason": " "})
    assert (await receive(b, "chat_refused"))["code"] == "bad_report"
    await a.send_json_to({"type": "report", "message": said["id"], "reason": "oops"})
    assert (await receive(a, "chat_refused"))["code"] == "bad_report"
    # a player of the game may be reported by a spectator; nobody else by that name
    await c.send_json_to({"type": "report", "player": "alice", "reason": "stalling"})
    assert await receive(c, "reported", "chat_refused") == {"type": "reported",
                                                            "player": "alice"}
    await c.send_json_to({"type": "report", "player": "nobody", "reason": "x"})
    assert (await receive(c, "chat_refused"))["code"] == "not_visible"
    reports = [r async for r in ChatReport.objects.order_by("pk")]
    assert [(r.reporter_id, r.message_id, r.reported_id) for r in reports] == [
        (players[1].pk, said["id"], players[0].pk), (players[2].pk, None, players[0].pk)]
    for comm in (a, b, c):
        await comm.disconnect()


@pytest.mark.asyncio
async def test_a_mute_is_kept_and_leaves_the_muted_out_of_the_page(game, players, cookies):
    a, b, c = await sockets(game, players, cookies)
    await say(a, "blah blah")
    await receive(b, "chat")
    await b.send_json_to({"type": "mute", "user": "alice", "muted": True})
    assert await receive(b, "muted", "chat_refused") == {"type": "muted", "user": "alice",
                                                         "muted": True}
    await b.send_json_to({"type": "mute", "user": "bob"})
    assert (await receive(b, "chat_refused"))["code"] == "bad_mute"
    for comm in (a, b, c):
        await comm.disconnect()
    assert await ChatMute.objects.filter(user=players[1], muted=players[0]).aexists()
    bob_sees = await database_sync_to_async(page_chat)(players[1], game)
    assert bob_sees["messages"] == [] and bob_sees["muted"] == ["alice"]
    alice_sees = await database_sync_to_async(page_chat)(players[0], game)
    assert [m["text"] for m in alice_sees["messages"]] == ["blah blah"]


@pytest.mark.asyncio
async def test_a_moderator_hides_a_message_for_everyone_at_once(game, players, cookies,
                                                               make_user):
    a, b, c = await sockets(game, players, cookies)
    said = (await say(a, "buy cheap coins at spam.example"))["message"]
    await receive(b, "chat")
    await b.send_json_to({"type": "report", "message": said["id"], "reason": "spam"})
    await receive(b, "reported")

    @database_sync_to_async
    def hide():
        staff = make_user("mod")
        staff.is_staff = True
        staff.save()
        c = client_of(staff)
        listing = c.get("/moderation/")
        assert listing.status_code == 200
        assert "spam.example" in listing.content.decode()  # moderators read what was said
        return c.post("/moderation/act/", {"action": "hide", "message": said["id"],
                                           "reason": "spam"}), staff

    answer, staff = await hide()
    assert answer.status_code == 302
    assert await receive(a, "chat_hidden") == {"type": "chat_hidden", "id": said["id"]}
    assert await receive(b, "chat_hidden") == {"type": "chat_hidden", "id": said["id"]}
    await no_chat(c)
    message = await ChatMessage.objects.aget(pk=said["id"])
    assert message.hidden and message.hidden_by_id == staff.pk
    report = await ChatReport.objects.aget(message=message)
    assert report.status == ChatReport.DONE and report.handled_by_id == staff.pk
    audit = await AuditEntry.objects.filter(action="moderate").alast()
    assert audit.actor_user_id == staff.pk and audit.reason == "spam"
    assert audit.after["hidden"] is True and audit.after["message"] == said["id"]
    for comm in (a, b, c):
        await comm.disconnect()
    bob_sees = await database_sync_to_async(page_chat)(players[1], game)
    assert bob_sees["messages"] == []
    # hidden: nobody can report it any more
    b2, _, _ = await connect(game, await database_sync_to_async(cookies)(players[1]))
    await b2.send_json_to({"type": "report", "message": said["id"], "reason": "again"})
    assert (await receive(b2, "chat_refused"))["code"] == "not_visible"
    await b2.disconnect()


@pytest.mark.asyncio
async def test_restricted_from_chat_and_from_rated_play(game, players, cookies, make_user):
    _, bob, carol = players

    @database_sync_to_async
    def restrict(kind, days=""):
        staff = make_user(f"mod-{kind}")
        staff.is_staff = True
        staff.save()
        return client_of(staff).post("/moderation/act/", {
            "action": "restrict", "username": "bob", "kind": kind, "days": days,
            "reason": "abuse in chat"})

    assert (await restrict("chat", "3")).status_code == 302
    b, _, _ = await connect(game, await database_sync_to_async(cookies)(bob))
    refused = await say(b, "you cannot stop me")
    assert refused["type"] == "chat_refused" and refused["code"] == "restricted"
    assert "may not chat until" in refused["message"] and "abuse in chat" in refused["message"]
    assert await ChatMessage.objects.acount() == 0
    await b.disconnect()

    # rated play: bob has a rated challenge open and waits in a rated pool when restricted
    @database_sync_to_async
    def before_rated():
        open_one = challenges.open_challenge(bob, rated=True)
        pool.join(bob, time_control="fischer 600+5", rated=True)
        theirs = challenges.open_challenge(carol, rated=True)
        return open_one, theirs

    open_one, carols = await before_rated()
    assert (await restrict("rated")).status_code == 302

    @database_sync_to_async
    def after_rated():
        from play.models import Challenge, PoolEntry
        from registry.events.models import Event
        from registry.events.services import EventError, register
        from registry.models import AffiliatedBody

        open_one.refresh_from_db()
        assert open_one.status == Challenge.CANCELLED  # taken down with the restriction
        assert not PoolEntry.objects.filter(user=bob).exists()  # out of the rated pool
        refusals = []
        for attempt in (lambda: challenges.open_challenge(bob, rated=True),
                        lambda: challenges.accept_challenge(bob, carols.pk),
                        lambda: pool.join(bob, time_control="fischer 600+5", rated=True)):
            with pytest.raises((challenges.ChallengeError, pool.PoolError)) as err:
                attempt()
            refusals.append(str(err.value))
        body = AffiliatedBody.objects.create(registrar_id="CLUB-R", name="Club R")
        event = Event.objects.create(body=body, name="Rated open", rated=True)
        with pytest.raises(EventError) as err:
            register(bob, event)
        refusals.append(str(err.value))
        # casual games stay open to him
        casual = challenges.open_challenge(bob, rated=False)
        pool.join(bob, time_control="fischer 600+5", rated=False)
        return refusals, casual

    refusals, casual = await after_rated()
    for words in refusals:
        assert "may not play rated games" in words and "abuse in chat" in words, words
    assert casual.rated is False
    audits = [a async for a in AuditEntry.objects.filter(action="moderate").order_by("pk")]
    assert [a.after["kind"] for a in audits] == ["chat", "rated"]
    assert audits[1].after["challenges_cancelled"] == 1 and audits[1].after["pool_left"] == 1
    assert await Restriction.objects.filter(user=bob).acount() == 2


@database_sync_to_async
def event_game(make_user, players):
    """An event's game between alice and bob, with an arbiter (R41)."""
    from play.lifecycle import start_game
    from registry.events.models import Entry, Event, Pairing, Round
    from registry.models import AffiliatedBody
    from registry.services import player_of

    alice, bob, _ = players
    arbiter = make_user("arbiter")
    body = AffiliatedBody.objects.create(registrar_id="CLUB-CHAT", name="Chat club")
    event = Event.objects.create(body=body, name="Quiet Swiss", rounds=3)
    event.arbiters.add(arbiter)
    white, black = (Entry.objects.create(event=event, player=player_of(u), key=f"k{u.pk}",
                                         name=u.username) for u in (alice, bob))
    rnd = Round.objects.create(event=event, number=1, state=Round.STARTED)
    game = start_game(alice, bob, in_event=True)
    Pairing.objects.create(round=rnd, board=1, white=white, black=black, game=game)
    return event, arbiter, game


@pytest.mark.asyncio
async def test_chat_is_off_in_an_event_game_until_its_arbiters_allow_it(players, cookies,
                                                                        make_user):
    event, arbiter, game = await event_game(make_user, players)
    alice, _, carol = players
    a, _, _ = await connect(game, await database_sync_to_async(cookies)(alice))
    refused = await say(a, "hello")
    assert refused["code"] == "off" and "arbiters have not allowed it" in refused["message"]
    alice_sees = await database_sync_to_async(page_chat)(alice, game)
    assert "arbiters have not allowed it" in alice_sees["off"]

    @database_sync_to_async
    def allow(on: bool):
        data = {"action": "chat"} | ({"chat": "on"} if on else {})
        stranger = client_of(carol).post(f"/events/{event.pk}/act/", data, follow=True)
        assert "only an arbiter of this event" in stranger.content.decode()
        event.refresh_from_db()
        assert event.chat is not on  # only an arbiter changes it
        r = client_of(arbiter).post(f"/events/{event.pk}/act/", data, follow=True)
        assert ("Chat is on" if on else "Chat is off") in r.content.decode()
        event.refresh_from_db()
        assert event.chat is on

    await allow(True)
    assert (await say(a, "hello"))["type"] == "chat"
    await allow(False)
    assert (await say(a, "again"))["code"] == "off"
    assert await ChatMessage.objects.acount() == 1
    await a.disconnect()


@pytest.mark.asyncio
async def test_event_arbiters_moderate_their_events_games_only(game, players, cookies,
                                                              make_user):
    event, arbiter, ev_game = await event_game(make_user, players)
    alice, bob, _ = players

    @database_sync_to_async
    def setup():
        from registry.events.services import set_chat

        set_chat(arbiter, event, True)
        here = ChatMessage.objects.create(game=ev_game, channel="players", user=alice,
                                          name="alice", text="event insult")
        there = ChatMessage.objects.create(game=game, channel="players", user=alice,
                                           name="alice", text="casual insult")
        for m in (here, there):
            ChatReport.objects.create(game=m.game, reporter=bob, message=m, reported=alice,
                                      reason="rude")
        return here, there

    here, there = await setup()

    @database_sync_to_async
    def arbiter_acts():
        c = client_of(arbiter)
        html = c.get("/moderation/").content.decode()
        assert "event insult" in html and "casual insult" not in html
        other = c.post("/moderation/act/", {"action": "hide", "message": there.pk,
                                            "reason": "rude"})
        restricting = c.post("/moderation/act/", {"action": "restrict", "username": "alice",
                                                  "kind": "chat", "reason": "rude"})
        mine = c.post("/moderation/act/", {"action": "hide", "message": here.pk,
                                           "reason": "rude"})
        return other.status_code, restricting.status_code, mine.status_code

    assert await arbiter_acts() == (403, 403, 302)
    assert (await ChatMessage.objects.aget(pk=here.pk)).hidden
    assert not (await ChatMessage.objects.aget(pk=there.pk)).hidden


@pytest.mark.django_db
def test_the_moderation_page_is_for_staff_and_arbiters_only(players, make_user):
    alice, _, _ = players
    assert Client().get("/moderation/").status_code == 302  # log in first
    refused = client_of(alice).get("/moderation/")
    assert refused.status_code == 403 and "site staff" in refused.content.decode()
    assert client_of(alice).post("/moderation/act/", {
        "action": "restrict", "username": "bob", "kind": "chat",
        "reason": "x"}).status_code == 403
    assert not Restriction.objects.exists()
    staff = make_user("staffer")
    staff.is_staff = True
    staff.save()
    c = client_of(staff)
    page = c.get("/moderation/")
    assert page.status_code == 200 and "No open report" in page.content.decode()
    # bad input: words, nothing changed, no 500
    for data, words in (({"action": "restrict", "username": "bob", "kind": "chat",
                          "reason": ""}, "give a reason"),
                        ({"action": "restrict", "username": "bob", "kind": "chat",
                          "days": "-3", "reason": "x"}, "from 1 to 3650 days"),
                        ({"action": "restrict", "username": "ghost", "kind": "chat",
                          "reason": "x"}, "no account called"),
                        ({"action": "hide", "message": "abc", "reason": "x"}, "not a number"),
                        ({"action": "hide", "message": "999", "reason": "x"},
                         "no such message"),
                        ({"action": "launch"}, "unknown action")):
        r = c.post("/moderation/act/", data)
        assert r.status_code in (400, 404) and words in r.content.decode(), (data, r.status_code)
    assert not Restriction.objects.exists()
    assert not AuditEntry.objects.filter(action="moderate").exists()


@pytest.mark.django_db
def test_the_panel_reloaded_after_a_lost_socket_keeps_to_the_viewers_channel(game, players):
    """``chat.json``: what the panel reloads when its socket comes back (chat.js)."""
    alice, bob, carol = players
    for user, channel, text in ((alice, "players", "for bob"),
                                (carol, "spectators", "for the watchers")):
        ChatMessage.objects.create(game=game, channel=channel, user=user, name=user.username,
                                   text=text)
    url = f"/games/{game.uuid}/chat.json"
    assert [m["text"] for m in client_of(bob).get(url).json()["messages"]] == ["for bob"]
    assert [m["text"] for m in client_of(carol).get(url).json()["messages"]] == [
        "for the watchers"]
    assert [m["text"] for m in Client().get(url).json()["messages"]] == ["for the watchers"]
