"""Resumption at the time the arbiter sets (R38, R39, R40).

An arbiter adjourns a timed game; the side to move seals its turn; the arbiter sets the time
play resumes. The time is stored (the log's ``schedule`` event and the game's row) and shown
to the players on the game page; the worker's clock job resumes the game at that time and
not before (times forced: ``resume_due(now)``), the new session's clock starting then; two
workers racing for the same resumption store it once; a worker that claimed it and died
leaves it to another when its lease runs out. Bad input changes nothing. End to end, a
running worker resumes a game at a time set 1.5 s ahead and the players' sockets hear it.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from play.commands import arbiter as arbiter_commands
from play.commands.path import store
from play.commands.submission import Submission
from play.games.clock import ms
from play.games.protocol import PlayStep, Resume, player
from play.lifecycle import start_game
from play.lobby import mygames
from play.models import Game, GameEvent
from play.store import engines
from play.worker import clocks
from registry.events.models import Entry, Event, Pairing, Round
from registry.models import AffiliatedBody
from registry.services import player_of
from tests.site.gameplay import race
from tests.site.wsutil import connect, receive

pytestmark = pytest.mark.django_db(transaction=True)


def _turn(game: Game, side: str, frm: str, to: str) -> None:
    for raw in ({"kind": "move", "from": frm, "to": to}, {"kind": "end"}):
        version = Game.objects.get(pk=game.pk).version
        out = store(Submission(game.uuid, player(side), PlayStep(raw), version))
        assert out.ok, out


def _adjourned(players, make_user, resume_in: float):
    """alice (I) and bob (O) play a turn each; the staff arbiter adjourns; alice seals A2-A3;
    the arbiter sets play to resume ``resume_in`` seconds from now. The game, the arbiter
    and the time set."""
    alice, bob, _ = players
    arbiter = make_user("arbiter-ann")
    arbiter.is_staff = True  # R39: staff arbitrate games outside any event
    arbiter.save()
    engines.forget()
    game = start_game(alice, bob, time_control="fischer 600+0")
    _turn(game, "I", "A1", "B1")
    _turn(game, "O", "A8", "B8")
    out = arbiter_commands.act(game.uuid, arbiter, {"type": "adjourn",
                                                    "reason": "the hall closes"})
    assert out.ok, out
    _turn(game, "I", "A2", "A3")  # sealed: the session ends
    when = timezone.now() + timedelta(seconds=resume_in)
    out = arbiter_commands.act(game.uuid, arbiter, {"type": "resume", "at": ms(when),
                                                    "reason": "tomorrow morning"})
    assert out.ok, out
    assert out.events[-1]["kind"] == "schedule"
    return Game.objects.get(pk=game.pk), arbiter, when


def test_the_time_is_stored_shown_and_the_worker_resumes_then(players, make_user):
    game, _arbiter, when = _adjourned(players, make_user, 3600)
    assert game.resume_at is not None and abs(ms(game.resume_at) - ms(when)) <= 1
    assert (game.to_move, game.deadline) == ("", None)  # sealed: nobody moves, no clock
    for user in players[:2]:  # both players see it on the game page
        c = Client()
        c.force_login(user)
        page = c.get(f"/games/{game.uuid}/").content.decode()
        assert f"play resumes at <time datetime=\"{game.resume_at.isoformat()}" in page
        assert f"{when:%Y-%m-%d %H:%M} UTC" in page
    version = game.version
    assert clocks.resume_due(when - timedelta(seconds=1)) == []  # not yet
    assert Game.objects.get(pk=game.pk).version == version
    resumed = clocks.resume_due(when + timedelta(milliseconds=200))
    assert [u for u, _ in resumed] == [game.uuid]
    update = resumed[0][1].update()
    event = update["events"][-1]
    assert (event["kind"], event["actor"], event["data"]["by"]) == ("resume", "clock",
                                                                    "arbiter")
    assert event["data"]["text"].endswith("A2-A3")  # the sealed turn revealed to all
    row = Game.objects.get(pk=game.pk)
    assert (row.resume_at, row.to_move) == (None, "O")
    # dark's clock restarts at the resumption: its 600 s from then (R36, R38)
    start = ms(when + timedelta(milliseconds=200))
    assert abs(ms(row.deadline) - (start + 600_000)) <= 1
    assert update["state"]["clock"]["running"] == "O"
    assert update["state"]["clock"]["since"] == start
    assert "adjournment" not in update["state"]
    assert clocks.resume_due(when + timedelta(seconds=5)) == []  # once
    page = Client().get(f"/games/{game.uuid}/").content.decode()
    assert "play resumes at" not in page


def _page(user, url: str) -> str:
    c = Client()
    c.force_login(user)
    return c.get(url).content.decode()


def test_every_list_of_a_players_games_shows_the_resumption_time(players, make_user):
    """R38: an adjourned game's resumption time, set by the arbiter, is in every list where a
    player finds their games: My games (in play, with how long until then, and the list of
    all games), the lobby's "Your games" and, for an event's game, My pairings. The list in
    play keeps a running clock first, then adjourned games by their time, untimed last."""
    alice, bob, carol = players
    game, _arbiter, when = _adjourned(players, make_user, 2 * 3600 + 300)
    running = start_game(bob, alice, time_control="fischer 600+0")  # bob (I) to move
    untimed = start_game(carol, alice)  # carol to move
    shown = f'resumes at <time datetime="{game.resume_at.isoformat()}">{when:%Y-%m-%d %H:%M} UTC'
    for user in (alice, bob):
        rows = mygames.my_games(user)
        mine = next(m for m in rows if m.game.pk == game.pk)
        assert (mine.adjourned, mine.your_turn, mine.left) == (True, False, None)
        assert mine.resumes_in_text in ("2 h 4 min", "2 h 5 min")
        page = _page(user, reverse("my_games"))
        in_play = page[page.index('id="my-games-in-play"'):page.index('id="h-all"')]
        row = next(r for r in in_play.split('data-testid="my-game"')[1:]
                   if str(game.uuid) in r)
        assert "adjourned · " in row and shown in row and "<td>in 2 h" in row
        everything = page[page.index('id="h-all"'):]
        assert everything.count(shown) == 1  # the list of all games, on the game's line
        assert shown in _page(user, reverse("lobby"))
    assert [m.game.pk for m in mygames.my_games(alice)] == [running.pk, game.pk, untimed.pk]
    # nobody else's list shows it, and a game with no time set shows none
    assert "resumes at" not in _page(carol, reverse("my_games"))
    # an event's game: My pairings shows it beside the link to the game
    body = AffiliatedBody.objects.create(registrar_id="CLUB-ADJ", name="Adjourning club")
    event = Event.objects.create(body=body, name="Club night", time_control="fischer 600+0")
    rnd = Round.objects.create(event=event, number=1, state=Round.STARTED)
    white, black = (Entry.objects.create(event=event, player=player_of(u),
                                         key=player_of(u).player_id, name=u.username)
                    for u in (alice, bob))
    Pairing.objects.create(round=rnd, board=1, white=white, black=black, game=game)
    for user in (alice, bob):
        assert shown in _page(user, reverse("my_pairings"))
    # resumed: the time is gone from every list
    clocks.resume_due(when + timedelta(seconds=1))
    for url in (reverse("my_games"), reverse("lobby"), reverse("my_pairings")):
        assert "resumes at" not in _page(alice, url)
    assert next(m for m in mygames.my_games(bob) if m.game.pk == game.pk).your_turn


def test_two_workers_racing_resume_once(players, make_user):
    game, _arbiter, when = _adjourned(players, make_user, 60)
    at = when + timedelta(seconds=1)
    results = race(lambda: clocks.resume_due(at))  # two workers' rounds at once
    assert [u for u, _ in results] == [game.uuid]
    assert GameEvent.objects.filter(game=game, kind="resume").count() == 1
    assert Game.objects.get(pk=game.pk).resume_at is None


def test_a_dead_workers_claim_runs_out(players, make_user):
    """A worker that claimed the resumption and died before storing it: nobody else may take
    it during the lease, anyone after it."""
    game, _arbiter, when = _adjourned(players, make_user, 60)
    at = when + timedelta(seconds=1)
    assert clocks.claim_resumptions(at) == [game.uuid]  # ... and the worker dies here
    assert clocks.resume_due(at + timedelta(seconds=clocks.RESUME_LEASE - 2)) == []
    assert Game.objects.get(pk=game.pk).to_move == ""  # still adjourned
    later = at + timedelta(seconds=clocks.RESUME_LEASE + 1)
    assert [u for u, _ in clocks.resume_due(later)] == [game.uuid]
    assert GameEvent.objects.filter(game=game, kind="resume").count() == 1


def test_bad_resumption_times_change_nothing(players, make_user):
    game, arbiter, when = _adjourned(players, make_user, 3600)
    version = game.version
    carol = players[2]
    for user, message, code in (
            (carol, {"type": "resume", "at": ms(when), "reason": "x"}, "forbidden"),
            (arbiter, {"type": "resume", "at": ms(timezone.now()) - 5000, "reason": "x"},
             "illegal"),
            (arbiter, {"type": "resume", "at": "next tuesday", "reason": "x"}, "bad_step")):
        out = arbiter_commands.act(game.uuid, user, message)
        assert not out.ok and out.code == code, out
    row = Game.objects.get(pk=game.pk)
    assert row.version == version and abs(ms(row.resume_at) - ms(when)) <= 1
    # a player may not set a time, only agree to resume now (R38)
    out = store(Submission(game.uuid, player("O"), _resume_at(ms(when))))
    assert not out.ok and out.code == "forbidden" and "only an arbiter" in out.reason


def _resume_at(at: int) -> Resume:
    return Resume("", at)


@pytest.mark.asyncio
async def test_a_running_worker_resumes_at_the_time_set(players, make_user, cookies, worker):
    bob = players[1]
    game, _arbiter, when = await database_sync_to_async(_adjourned)(players, make_user, 1.5)
    comm_o, _, first = await connect(game, await database_sync_to_async(cookies)(bob))
    assert first["state"]["adjournment"]["resume_at"] == ms(when)
    update = await receive(comm_o, "update", timeout=10)
    heard = time.time() * 1000
    assert update["events"][-1]["kind"] == "resume"
    assert 0 <= heard - ms(when) < 1500, heard - ms(when)
    assert update["state"]["side_to_move"] == "O" and "A3" in update["state"]["board"]["I"]
    await comm_o.disconnect()
