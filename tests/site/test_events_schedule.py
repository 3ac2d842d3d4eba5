"""Rounds started by the worker at their scheduled time, and the players told (R41).

The arbiter gives a paired round a start time (page and API); the worker starts it then through
the start button's own code (the event's settings, the event's model for rating, R25/R41),
exactly once even with two workers and the arbiter's button racing; both players of each game
hear it on the lobby's socket (``started``) and get one mail each, never a second one."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.core import mail
from django.db import OperationalError, connection
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from play.models import Game
from play.worker.loop import Worker
from registry.accounts.mailqueue import send_due as send_queued  # issue 39: mail is queued
from registry.events import notify, rounds, schedule, services
from registry.events.models import Event, Pairing, Round
from registry.models import AffiliatedBody, RegistryGame
from tests.site.wsutil import TIMEOUT, application


def api(user=None) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


def online_event(make_user, players: int = 4) -> tuple[Event, object, list]:
    """An online Swiss of ``players`` players with addresses, round 1 paired, not started."""
    body = AffiliatedBody.objects.create(registrar_id="CLUB-TIMED", name="Timed club")
    arbiter = make_user("arbiter")
    body.registrars.add(arbiter)
    event = services.create_event(arbiter, body, name="Evening Swiss", rounds=3,
                                  venue="online", scoring_model="S2", variant="standard")
    users = []
    for i in range(players):
        u = make_user(f"p{i}")
        u.email = f"p{i}@example.org"
        u.save()
        services.register(u, event)
        users.append(u)
    rounds.pair_round(arbiter, event)
    return Event.objects.get(pk=event.pk), arbiter, users


def boards(event) -> list[Pairing]:
    return list(Pairing.objects.filter(round__event=event, round__number=1, black__isnull=False)
                .select_related("game", "white__player__user", "black__player__user")
                .order_by("board"))


@pytest.mark.django_db
def test_the_worker_starts_a_round_at_its_time_as_the_button_does(make_user):
    event, arbiter, users = online_event(make_user)
    at = (timezone.now() + timedelta(hours=1)).replace(microsecond=0)
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/1/schedule/",
                          {"at": at.isoformat()}, format="json")
    assert r.status_code == 200, r.json()
    assert r.json()["rounds"][0]["scheduled"].startswith(at.strftime("%Y-%m-%dT%H:%M:%S"))
    page = Client().get(f"/events/{event.pk}/").content.decode()
    assert f"starts at <time datetime=\"{at.isoformat()}\">{at:%Y-%m-%d %H:%M} UTC" in page
    mine = Client()
    mine.force_login(users[0])
    assert f"starts at {at:%Y-%m-%d %H:%M} UTC" in mine.get("/events/mine/").content.decode()

    # not yet: nothing starts, nobody is mailed
    assert schedule.start_due(timezone.now()) == 0 and notify.mail_due() == 0
    assert Round.objects.get(event=event).state == "paired" and not Game.objects.exists()

    # its time: started once, with the event's settings, as the button would
    assert schedule.start_due(at + timedelta(seconds=1)) == 1
    assert schedule.start_due(at + timedelta(seconds=2)) == 0
    rnd = Round.objects.get(event=event)
    assert rnd.state == "started" and rnd.started is not None
    games = boards(event)
    assert len(games) == 2 and Game.objects.count() == 2
    for p in games:
        g = p.game
        assert (g.status, g.variant, g.rated) == ("live", "standard", True)
        assert (g.player_i_id, g.player_o_id) == (p.white.player.user_id,
                                                  p.black.player.user_id)
    assert set(RegistryGame.objects.filter(live__event_pairing__round=rnd)
               .values_list("scoring_model", flat=True)) == {"S2"}  # the event's model (R41)
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/1/start/")
    assert r.status_code == 409 and "already started" in r.json()["detail"]
    page = Client().get(f"/events/{event.pk}/").content.decode()
    assert "starts at" not in page and f"started {rnd.started:%Y-%m-%d %H:%M} UTC" in page

    # one mail to each player of each game, and a second worker sends nothing
    assert notify.mail_due() == 4 and notify.mail_due() == 0
    send_queued()
    assert sorted(m.to[0] for m in mail.outbox) == [f"p{i}@example.org" for i in range(4)]
    first = games[0]
    to_white = next(m for m in mail.outbox if m.to == [first.white.player.user.email])
    assert "Evening Swiss, round 1: your game has started" in to_white.subject
    assert f"against {first.black.name}" in to_white.body and "you play light" in to_white.body
    assert f"/games/{first.game.uuid}/" in to_white.body
    to_black = next(m for m in mail.outbox if m.to == [first.black.player.user.email])
    assert "you play dark" in to_black.body and f"against {first.white.name}" in to_black.body


@pytest.mark.django_db
def test_the_arbiters_start_mails_once_too_and_a_player_without_an_address_is_skipped(
        make_user):
    event, arbiter, users = online_event(make_user)
    users[0].email = ""
    users[0].save()
    rounds.start_round(arbiter, event, 1)
    assert notify.mail_due() == 3 and notify.mail_due() == 0
    send_queued()
    assert len(mail.outbox) == 3 and "p0@example.org" not in [m.to[0] for m in mail.outbox]


@pytest.mark.django_db
def test_bad_schedules_are_refused_in_words_and_change_nothing(make_user):
    event, arbiter, users = online_event(make_user)
    url = f"/api/v1/events/{event.pk}/rounds/1/schedule/"
    soon = (timezone.now() + timedelta(hours=2)).isoformat()
    r = api(users[0]).post(url, {"at": soon}, format="json")
    assert r.status_code == 403 and "only an arbiter" in r.json()["detail"]
    r = api(arbiter).post(url, {"at": "2020-01-01T10:00:00Z"}, format="json")
    assert r.status_code == 400 and "2020-01-01 10:00 UTC has passed" in r.json()["detail"]
    r = api(arbiter).post(url, {"at": (timezone.now() + timedelta(days=400)).isoformat()},
                          format="json")
    assert r.status_code == 400 and "at most a year ahead" in r.json()["detail"]
    r = api(arbiter).post(url, {"at": "tomorrow at seven"}, format="json")
    assert r.status_code == 400 and "Datetime has wrong format" in r.json()["errors"]["at"][0]
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/2/schedule/", {"at": soon},
                          format="json")
    assert r.status_code == 409 and "round 2 is not paired" in r.json()["detail"]
    c = Client()
    c.force_login(arbiter)
    page = c.post(f"/events/{event.pk}/act/", {"action": "schedule", "at": soon[:16]},
                  follow=True).content.decode()
    assert "name the round to start at that time" in page
    assert Round.objects.get(event=event).scheduled is None
    revision = Event.objects.get(pk=event.pk).revision

    # the page's form: a time in words is refused; a set time can be taken away again
    page = c.post(f"/events/{event.pk}/act/", {"action": "schedule", "round": "1",
                                                "at": "2026-02-30T19:00"}, follow=True)
    assert "is not a date and time" in page.content.decode()
    assert Event.objects.get(pk=event.pk).revision == revision
    page = c.post(f"/events/{event.pk}/act/", {"action": "schedule", "round": "1",
                                                "at": "2099-01-01T19:00"}, follow=True)
    assert "at most a year ahead" in page.content.decode()
    at = (timezone.now() + timedelta(hours=3)).replace(second=0, microsecond=0)
    page = c.post(f"/events/{event.pk}/act/", {"action": "schedule", "round": "1",
                                                "at": at.strftime("%Y-%m-%dT%H:%M")},
                  follow=True).content.decode()
    assert f"Round 1 starts at {at:%Y-%m-%d %H:%M} UTC" in page
    assert Round.objects.get(event=event).scheduled == at
    page = c.post(f"/events/{event.pk}/act/", {"action": "schedule", "round": "1", "at": ""},
                  follow=True).content.decode()
    assert "Round 1 has no start time" in page
    assert Round.objects.get(event=event).scheduled is None

    # a started round keeps its start
    rounds.start_round(arbiter, event, 1)
    r = api(arbiter).post(url, {"at": soon}, format="json")
    assert r.status_code == 409 and "round 1 has already started" in r.json()["detail"]


@pytest.mark.django_db
def test_a_round_that_cannot_start_loses_its_time_with_a_warning(make_user, caplog):
    """A guest entered while the event was over the board, then the venue set online: its game
    cannot be created. The worker leaves the round unstarted and unscheduled (the arbiter sees
    it) instead of failing at every round."""
    caplog.set_level(logging.WARNING)
    body = AffiliatedBody.objects.create(registrar_id="CLUB-MIXED", name="Mixed club")
    arbiter = make_user("arbiter")
    body.registrars.add(arbiter)
    event = services.create_event(arbiter, body, name="Mixed", rounds=2, venue="board")
    services.enter_player(arbiter, event, "Walk-in", 1200)
    services.enter_player(arbiter, event, "Other walk-in", 1100)
    services.change_settings(arbiter, event, venue="online")
    rounds.pair_round(arbiter, event)
    schedule.schedule_round(arbiter, event, 1, timezone.now() + timedelta(minutes=5))
    assert schedule.start_due(timezone.now() + timedelta(minutes=6)) == 0
    rnd = Round.objects.get(event=event)
    assert (rnd.state, rnd.scheduled) == ("paired", None) and not Game.objects.exists()
    assert "round 1 of event" in caplog.text and "not started at its time" in caplog.text
    assert "has no account, so board 1 cannot be played online" in caplog.text
    with pytest.raises(services.EventError, match="cannot be played online"):
        rounds.start_round(arbiter, event, 1)  # the button says so too, in words
    assert schedule.start_due(timezone.now() + timedelta(minutes=7)) == 0  # no retry


@pytest.mark.django_db(transaction=True)
def test_two_workers_and_the_button_racing_start_the_round_once(make_user):
    event, arbiter, _ = online_event(make_user, players=6)
    at = timezone.now() + timedelta(minutes=10)
    schedule.schedule_round(arbiter, event, 1, at)
    started: list[str] = []
    refused: list[str] = []
    barrier = threading.Barrier(3)

    def again(attempt) -> None:
        """Until the attempt is answered: on SQLite (one writer) a busy database fails the
        attempt, as a worker's round fails, and it is tried again, as the next round does;
        PostgreSQL runs all three at once for real."""
        barrier.wait()
        try:
            for _ in range(200):
                try:
                    attempt()
                    return
                except OperationalError:
                    time.sleep(0.01)
        finally:
            connection.close()

    def worker(name: str) -> None:
        if schedule.start_due(at + timedelta(seconds=1)):
            started.append(name)
        else:
            refused.append(f"{name}: nothing due")

    def button() -> None:
        try:
            rounds.start_round(arbiter, Event.objects.get(pk=event.pk), 1)
            started.append("button")
        except services.EventError as exc:
            refused.append(str(exc))

    threads = [threading.Thread(target=again, args=(lambda i=i: worker(f"w{i}"),))
               for i in range(2)]
    threads.append(threading.Thread(target=again, args=(button,)))
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(started) == 1 and len(refused) == 2, (started, refused)
    assert all("already started" in words or "nothing due" in words for words in refused)
    # one game per board, none twice
    assert Game.objects.count() == 3
    assert Pairing.objects.filter(round__event=event, game__isnull=False).count() == 3
    assert schedule.start_due(at + timedelta(seconds=5)) == 0
    assert notify.mail_due() == 6 and notify.mail_due() == 0
    assert send_queued() == 6 and len(mail.outbox) == 6


async def lobby_socket(cookie: bytes):
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie)]
    comm = WebsocketCommunicator(application(), "/ws/lobby/", headers=headers)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    assert (await comm.receive_json_from(timeout=TIMEOUT))["type"] == "welcome"
    return comm


async def started_message(comm) -> dict:
    while True:
        msg = await comm.receive_json_from(timeout=TIMEOUT)
        if msg["type"] != "changed":
            return msg


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_players_lobby_sockets_hear_their_game_started_by_the_worker(
        make_user, cookies):
    event, arbiter, users = await database_sync_to_async(online_event)(make_user)
    sockets = {u.pk: await lobby_socket(await database_sync_to_async(cookies)(u))
               for u in users}
    at = timezone.now() + timedelta(seconds=1)
    await database_sync_to_async(schedule.schedule_round)(arbiter, event, 1, at)
    await asyncio.sleep((at - timezone.now()).total_seconds() + 0.05)
    await Worker("test-worker").apps_round()  # the apps' jobs' first round after the time
    games = await database_sync_to_async(boards)(event)
    assert len(games) == 2 and all(p.game_id for p in games)
    for p in games:
        for user in (p.white.player.user, p.black.player.user):
            assert await started_message(sockets[user.pk]) == {
                "type": "started", "game": str(p.game.uuid), "url": f"/games/{p.game.uuid}/",
                "event": "Evening Swiss", "round": 1}
    for comm in sockets.values():
        await comm.disconnect()
    assert await Round.objects.filter(event=event, notified__isnull=False).acount() == 1
    assert len(mail.outbox) == 4
