"""Timed games on the server (R36, R37, R40): the clock is an actor of the one command path.

Clocks are folded from the times stored in the log, so a test plays turns at chosen times
(``path.store(sub, now)``) on a game whose creation it moved into the past, and the deadline is
then already behind the real clock the worker reads. Checked: the worker flags a game at its
deadline with no socket open, once with two workers racing; a player's early claim is refused
and changes nothing; a side that never completes its opening turn aborts the game (no result,
no rating, no session entry); the deadline reaches a connected socket in time; a time control
out of range is refused with words.
"""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse
from django.utils import timezone

from play.commands.path import store
from play.commands.submission import Submission
from play.games.clock import ms
from play.games.protocol import Flag, PlayStep, player
from play.lifecycle import StartError, start_game
from play.models import Game, GameEvent
from play.store import engines
from play.worker import clocks
from play.worker.loop import run_due
from registry.models import GameRecord, RatingChange, RegistryGame
from tests.site.gameplay import race
from tests.site.wsutil import connect, receive

OPENINGS = [("I", "A1", "B1"), ("O", "A8", "B8")]


def _timed(players, tc: str, age: float) -> Game:
    """A game with ``tc`` created ``age`` seconds ago (its clocks started then)."""
    alice, bob, _ = players
    engines.forget()
    game = start_game(alice, bob, time_control=tc)
    created = timezone.now() - timedelta(seconds=age)
    Game.objects.filter(pk=game.pk).update(created=created,
                                           deadline=created + timedelta(seconds=30))
    engines.forget()
    return Game.objects.get(pk=game.pk)


def _turn(game: Game, side: str, frm: str, to: str, at) -> None:
    """``side`` moves ``frm``-``to`` and ends its turn, both at ``at``."""
    for raw in ({"kind": "move", "from": frm, "to": to}, {"kind": "end"}):
        version = Game.objects.get(pk=game.pk).version
        out = store(Submission(game.uuid, player(side), PlayStep(raw), version), at)
        assert out.ok, out


def _past_openings(game: Game) -> None:
    """Both opening turns played 1 and 2 s after the game began: I's main clock runs from
    then."""
    for n, (side, frm, to) in enumerate(OPENINGS):
        _turn(game, side, frm, to, game.created + timedelta(seconds=1 + n))


@pytest.mark.django_db(transaction=True)
def test_flag_at_deadline_with_no_socket_open(players, client):
    game = _timed(players, "fischer 60+0", age=200)
    _past_openings(game)
    row = Game.objects.get(pk=game.pk)
    # I's 60 s from the end of O's opening turn (ms precision)
    assert abs(ms(row.deadline) - (ms(game.created) + 62_000)) <= 1
    flagged = clocks.flag_due()
    assert [u for u, _ in flagged] == [game.uuid]
    row = Game.objects.get(pk=game.pk)
    assert (row.status, row.winner, row.reason, row.cause) == ("finished", "O", "decision",
                                                               "time")
    assert row.deadline is None
    last = GameEvent.objects.filter(game=game).order_by("-version").first()
    assert (last.kind, last.actor, last.data["cause"]) == ("decide", "clock", "time")
    run_due()  # archived like any decided game: the STGN result line alone (R15)
    assert GameRecord.objects.filter(game__live=game, kind="STSE").exists()
    assert clocks.flag_due() == []  # nothing due any more
    # the pages say why: the game page's result and the players' profiles
    alice = players[0]
    page = client.get(reverse("profile", args=[alice.player.player_id])).content.decode()
    assert "Dark won: light ran out of time" in page


@pytest.mark.django_db(transaction=True)
def test_two_workers_flag_once(players):
    game = _timed(players, "fischer 60+0", age=200)
    _past_openings(game)
    results = race(clocks.flag_due)  # two workers' rounds at once
    assert len(results) == 1
    assert GameEvent.objects.filter(game=game, kind="decide").count() == 1


@pytest.mark.django_db(transaction=True)
def test_early_claim_refused_and_nothing_changes(players):
    game = _timed(players, "fischer 600+0", age=5)
    _past_openings(game)
    version = Game.objects.get(pk=game.pk).version
    out = store(Submission(game.uuid, player("O"), Flag()))
    assert not out.ok and out.code == "too_early"
    assert "has not run out" in out.reason
    row = Game.objects.get(pk=game.pk)
    assert row.is_live and row.version == version
    assert clocks.flag_due() == []  # the worker agrees: not due


@pytest.mark.django_db(transaction=True)
def test_opening_turn_not_completed_aborts(players):
    game = _timed(players, "fischer 180+2", age=31)  # I's opening turn: 30 s
    flagged = clocks.flag_due()
    assert len(flagged) == 1
    row = Game.objects.get(pk=game.pk)
    assert (row.status, row.winner, row.reason) == ("finished", "", "aborted")
    assert flagged[0][1].state["outcome"]["reason"] == "aborted"
    run_due()
    archived = RegistryGame.objects.get(live=game)
    assert archived.status == RegistryGame.ANNULLED and archived.reason == "aborted"
    assert not GameRecord.objects.filter(game=archived, kind="STSE").exists()
    assert not RatingChange.objects.filter(game=archived).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("tc, words", [("correspondence 30d", "from 1 to 14 days"),
                                       ("fischer 180+999", "increment"),
                                       ("lightning", "not a time control")])
def test_time_control_out_of_range_refused(players, tc, words):
    alice, bob, _ = players
    before = Game.objects.count()
    with pytest.raises(StartError, match=words):
        start_game(alice, bob, time_control=tc)
    assert Game.objects.count() == before


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_flag_reaches_the_players_at_the_deadline(players, cookies, worker):
    """I's opening turn runs out 1.5 s after the test starts: the worker, sleeping until the
    deadline, aborts the game and both sockets hear it well within a second of it."""
    alice, bob, _ = players
    game = await database_sync_to_async(_timed)(players, "fischer 180+2", age=28.5)
    comm_i, _, first = await connect(game, await database_sync_to_async(cookies)(alice))
    comm_o, _, _ = await connect(game, await database_sync_to_async(cookies)(bob))
    clock = first["state"]["clock"]
    assert clock["running"] == "I" and clock["control"] == "fischer 180+2"
    assert isinstance(first["server_time"], int)
    deadline = clock["deadline"]
    assert deadline == ms(game.created) + 30_000
    for comm in (comm_i, comm_o):
        update = await receive(comm, "update", timeout=10)
        while update["state"].get("outcome") is None:
            update = await receive(comm, "update", timeout=10)
        heard = time.time() * 1000
        assert update["state"]["outcome"]["reason"] == "aborted"
        assert update["game"]["result"]["reason"] == "aborted"
        assert 0 <= heard - deadline < 1500, heard - deadline
    for comm in (comm_i, comm_o):
        await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_lag_measured_by_the_server_goes_with_the_step(players, cookies):
    """R36: a timed game's player is probed; half the echo's round trip is the lag the step
    carries (the clock credits at most 1 s of it a turn, 3 s a game)."""
    alice = players[0]
    game = await database_sync_to_async(_timed)(players, "fischer 180+2", age=1)
    comm, _, _ = await connect(game, await database_sync_to_async(cookies)(alice))
    probe = await receive(comm, "probe")
    await asyncio.sleep(0.4)  # a slow network: the echo comes back 0.4 s later
    await comm.send_json_to({"type": "probe", "t": probe["t"]})
    await comm.send_json_to({"type": "step", "version": 0, "seq": "s1",
                             "step": {"kind": "move", "from": "A2", "to": "A3"}})
    assert (await receive(comm, "ack"))["type"] == "ack"
    step = await GameEvent.objects.aget(game_id=game.pk, version=1)
    assert 190 <= step.data["lag"] <= 5000, step.data
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
def test_a_burst_of_deadlines_is_flagged_in_one_statement(players, monkeypatch):
    """The flags due in one round are decided one by one and stored together (one statement
    on PostgreSQL: one round trip and one commit, not one per game). A game that moved after
    the round read it (here its opponent resigned first) is decided again alone and left
    out: every game ends once."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from play.games.protocol import Resign
    from play.store import log as event_log

    due = [_timed(players, "fischer 60+0", age=200) for _ in range(3)]
    for game in due:
        _past_openings(game)
    later = _timed(players, "fischer 600+0", age=5)  # not due
    real = event_log.append_many
    raced: list = []

    def racing(batches):  # O resigns the first game just before the flags are stored
        if not raced:
            raced.append(True)
            assert store(Submission(due[0].uuid, player("O"), Resign())).ok
        return real(batches)

    monkeypatch.setattr(event_log, "append_many", racing)
    with CaptureQueriesContext(connection) as queries:
        flagged = clocks.flag_due()
    assert sorted(str(u) for u, _ in flagged) == sorted(str(g.uuid) for g in due[1:])
    if connection.vendor == "postgresql":
        appends = [q for q in queries.captured_queries if "jsonb_to_recordset" in q["sql"]]
        assert len(appends) == 2  # the resignation's, and ONE for both flags
    rows = {g.pk: Game.objects.get(pk=g.pk) for g in due}
    assert (rows[due[0].pk].cause, rows[due[0].pk].winner) == ("resignation", "I")
    for game in due[1:]:
        assert (rows[game.pk].cause, rows[game.pk].winner) == ("time", "O")
    for game in due:
        assert GameEvent.objects.filter(game=game, kind="decide").count() == 1
    assert Game.objects.get(pk=later.pk).is_live
