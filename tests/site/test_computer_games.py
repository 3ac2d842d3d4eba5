"""Playing the computer on the site (issue 25): the lobby starts a freeplay game at once; the
worker plays the computer's turns step by step through the one command path (R40) as an actor
of kind ``computer``, from its pool, never blocking other games; the computer's account is
marked wherever it is shown; its games end and are recorded like any game."""

from __future__ import annotations

import asyncio
import os
import threading
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse
from django.utils import timezone

from play.commands.path import execute, store
from play.commands.submission import Submission
from play.computer import mover, pool
from play.computer.account import computer_user, is_computer
from play.computer.start import ComputerGameError, play_the_computer
from play.games.protocol import PlayStep, computer, player
from play.games.talu.search import choose_turn, clock_seconds, get_level
from play.models import ComputerGame, Game, GameEvent
from play.store import engines
from play.worker import clocks
from play.worker.loop import run_due
from registry.models import GameRecord
from tests.site.wsutil import connect, receive, step

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("quick_computer")]


def _events(game) -> list[tuple]:
    return list(GameEvent.objects.filter(game=game).order_by("version")
                .values_list("version", "kind", "side", "actor", "text"))


def test_the_lobby_starts_a_freeplay_game_against_the_marked_computer(client, make_user):
    alice = make_user("alice")
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert "Play the computer" in page and 'name="level"' in page
    res = client.post(reverse("computer_new"), {"variant": "dynamic", "level": "2",
                                                "side": "I"})
    game = Game.objects.get()
    assert res.status_code == 302 and res["Location"] == reverse("game", args=[game.uuid])
    assert game.variant == "dynamic" and not game.rated  # R47: never rated
    assert game.player_i == alice and is_computer(game.player_o)
    row = ComputerGame.objects.get(game=game)
    assert (row.side, row.level) == ("O", 2)
    # marked wherever it is shown: the lobby's lists, the game page, the players block
    assert "computer opponent (dark)" in client.get("/").content.decode()
    assert "alice vs computer opponent" in client.get(
        reverse("game", args=[game.uuid])).content.decode()
    from play import gameview
    players = gameview.players_block(game)
    assert players["O"]["computer"] == {"level": 2} and players["I"]["computer"] is None


@pytest.mark.parametrize("form", [
    {"variant": "standard", "level": "9", "side": "I"},
    {"variant": "chess", "level": "3", "side": "I"},
    {"variant": "standard", "level": "3", "side": "X"},
    {"variant": "standard", "level": "x", "side": "I"},
])
def test_bad_requests_start_nothing_and_say_why(client, make_user, form):
    client.force_login(make_user("alice"))
    res = client.post(reverse("computer_new"), form, follow=True)
    assert res.status_code == 200 and not Game.objects.exists()
    assert "level from 1 to 8" in res.content.decode()


def test_strangers_must_log_in_and_the_computer_cannot_be_signed_up_over(client, make_user):
    res = client.post(reverse("computer_new"), {"variant": "standard", "level": "3",
                                                "side": "I"})
    assert res.status_code == 302 and "login" in res["Location"] and not Game.objects.exists()
    person = make_user("computer")  # a person took the name first: the computer takes another
    machine = computer_user()
    assert machine != person and machine.username == "computer-1" and is_computer(machine)
    assert not is_computer(person) and not machine.has_usable_password()
    with pytest.raises(ComputerGameError, match="not a time control"):
        play_the_computer(person, time_control="5+3")
    with pytest.raises(ComputerGameError, match="not by correspondence"):  # R36, live only
        play_the_computer(person, time_control="correspondence 3d")
    assert not Game.objects.exists()


def test_the_lobby_offers_the_live_presets_and_starts_the_game_on_that_clock(client,
                                                                            make_user):
    """R36: the computer plays untimed (the default) or on the lobby's live presets; the game
    is created with that clock, its first deadline on the row for the worker's flag."""
    client.force_login(make_user("gus"))
    page = client.get("/").content.decode()
    form = page[page.index('id="computer-form"'):]
    form = form[:form.index("</form>")]
    assert 'name="time_control"' in form and "3+2 blitz" in form and "10+5 rapid" in form
    assert "day" not in form  # no correspondence against the computer
    client.post(reverse("computer_new"), {"variant": "standard", "level": "3", "side": "I"})
    untimed = Game.objects.get()
    assert untimed.time_control == "untimed" and untimed.deadline is None
    client.post(reverse("computer_new"), {"variant": "standard", "level": "3", "side": "O",
                                          "time_control": "fischer 180+2"})
    timed = Game.objects.exclude(pk=untimed.pk).get()
    assert timed.time_control == "fischer 180+2" and timed.deadline is not None
    assert is_computer(timed.player_i) and not timed.rated  # R47: freeplay, on a clock too


@pytest.mark.parametrize("time_control", ["correspondence 3d", "fischer 99999+0", "blitz",
                                          "fischer 300+3"])
def test_a_bad_time_control_starts_nothing_and_says_why(client, make_user, time_control):
    client.force_login(make_user("hal"))
    res = client.post(reverse("computer_new"), {"variant": "standard", "level": "3",
                                                "side": "I", "time_control": time_control},
                      follow=True)
    page = res.content.decode()
    assert res.status_code == 200 and not Game.objects.exists()
    assert "is not a time control the computer plays" in page and "3+2 blitz" in page
    assert "level from 1 to 8" not in page  # the message names what is wrong, and only that


@pytest.mark.asyncio
async def test_the_computer_answers_step_by_step_through_the_command_path(make_user, cookies,
                                                                          worker):
    alice = await database_sync_to_async(make_user)("alice")
    game = await database_sync_to_async(play_the_computer)(alice, "standard", 1, "I")
    comm, _, first = await connect(game, await database_sync_to_async(cookies)(alice))
    assert first["game"]["players"]["O"]["computer"] == {"level": 1}
    try:
        await comm.send_json_to(step("A2", "A3", 0, "a"))
        assert (await receive(comm, "ack"))["version"] == 1
        await comm.send_json_to({"type": "end", "version": 1, "seq": "b"})
        assert (await receive(comm, "ack"))["version"] == 2
        # The end of alice's turn wakes the worker; the computer's steps arrive one by one.
        updates = []
        while True:
            update = await receive(comm, "update", timeout=30)
            if update["version"] <= 2:
                continue
            updates.append(update)
            if update["state"]["side_to_move"] == "I":
                break
        for n, update in enumerate(updates):
            assert update["from_version"] == update["version"] - 1 == 2 + n  # one per update
            [event] = update["events"]
            assert (event["actor"], event["side"], event["kind"]) == ("computer", "O", "step")
        assert updates[-1]["state"]["notation"][-1].startswith("001 O: ")
    finally:
        await comm.disconnect()
    stored = await database_sync_to_async(_events)(game)
    assert [e[3] for e in stored[2:]] == ["computer"] * (len(stored) - 2)


@pytest.mark.asyncio
async def test_the_computer_opens_when_it_plays_light_and_its_claim_is_single(make_user):
    bob = await database_sync_to_async(make_user)("bob")
    game = await database_sync_to_async(play_the_computer)(bob, "grand-master", 1, "O")
    one, two = mover.Mover("worker-one"), mover.Mover("worker-two")
    started = await asyncio.gather(one.round(), two.round())
    assert sorted(started) == [0, 1]  # of two workers exactly one plays the turn (the lease)
    await asyncio.gather(one.drain(), two.drain())
    await database_sync_to_async(game.refresh_from_db)()
    assert game.stgn.startswith("001 I: ") and len(game.stgn.splitlines()) == 1
    row = await ComputerGame.objects.aget(game=game)
    assert row.turns == 1 and row.nodes > 0 and row.claimed_until is None
    assert await one.round() + await two.round() == 0  # bob's turn now: nothing to claim


@pytest.mark.asyncio
async def test_a_resigning_computer_ends_the_game_with_the_records_of_any_game(
        make_user, monkeypatch):
    carol = await database_sync_to_async(make_user)("carol")
    game = await database_sync_to_async(play_the_computer)(carol, "standard", 8, "O")

    async def lost(*args, **kwargs):
        return {"steps": [], "resign": True, "nodes": 7, "side": "I", "score": -10**6}

    monkeypatch.setattr(pool, "think_async", lost)
    worker = mover.Mover("w")
    assert await worker.round() == 1
    await worker.drain()
    await database_sync_to_async(run_due)()
    await database_sync_to_async(game.refresh_from_db)()
    assert (game.status, game.winner, game.reason, game.detail) == (
        "finished", "O", "decision", "I resigned")
    last = (await database_sync_to_async(_events)(game))[-1]
    assert last[1:4] == ("decide", "I", "computer")
    kinds = {r.kind async for r in GameRecord.objects.filter(game__live=game)}
    assert kinds == {"STGN", "STGE", "STSE", "STDGS"}


@pytest.mark.asyncio
async def test_a_thinking_computer_blocks_no_other_game(make_user, cookies, game, players,
                                                        monkeypatch):
    """While the computer thinks (held here until released), another game's steps are
    applied and heard: the thinking runs off the event loop."""
    dave = await database_sync_to_async(make_user)("dave")
    await database_sync_to_async(play_the_computer)(dave, "standard", 3, "O")
    release = threading.Event()
    entered = threading.Event()
    real = pool.think

    def held(*args, **kwargs):
        entered.set()
        release.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(pool, "think", held)
    worker = mover.Mover("w")
    assert await worker.round() == 1
    thinking = asyncio.ensure_future(worker.drain())
    await asyncio.to_thread(entered.wait, 10)
    alice = players[0]
    comm, _, _ = await connect(game, await database_sync_to_async(cookies)(alice))
    try:
        await comm.send_json_to(step("A2", "A3", 0, "s1"))
        ack = await receive(comm, "ack")
        assert ack["version"] == 1 and not thinking.done()  # applied while the computer thinks
    finally:
        release.set()
        await comm.disconnect()
    await thinking


@pytest.mark.asyncio
async def test_the_pool_of_processes_thinks_in_a_child_process(settings):
    settings.TALU_COMPUTER_PROCESSES = 1
    # At an ordinary priority: under SCHED_IDLE (the next test's) a search on a machine busy
    # with the rest of the suite may get no CPU within its time and answer with 0 nodes.
    settings.TALU_COMPUTER_IDLE = False
    settings.TALU_COMPUTER_NICE = 0
    pool.shutdown()
    # level 5, which always searches (level 1 walks at random: a walk may count no node), on a
    # small node budget so the test stays quick
    result = await pool.think_async("standard", [("step", {"kind": "move", "from": "A2",
                                                           "to": "A3"})], 5, 5.0, nodes=300)
    assert result["side"] == "I" and result["steps"] and result["nodes"] > 0


@pytest.mark.asyncio
async def test_a_pool_whose_process_died_is_replaced_and_the_search_still_answers(settings):
    """A process of the computer's pool killed (the kernel's out-of-memory killer, an
    operator): the pool is broken for good, and every later search failed until the worker
    restarted. Now the broken pool is dropped and the search runs in a new one."""
    import multiprocessing
    import signal

    settings.TALU_COMPUTER_PROCESSES = 1
    settings.TALU_COMPUTER_IDLE = False  # ordinary priority: the suite keeps the CPU busy
    settings.TALU_COMPUTER_NICE = 0
    pool.shutdown()
    others = set(multiprocessing.active_children())  # another pool's, if any: left alone
    move = [("step", {"kind": "move", "from": "A2", "to": "A3"})]
    first = await pool.think_async("standard", move, 5, 5.0, nodes=300)  # always searches
    assert first["nodes"] > 0
    children = [c for c in multiprocessing.active_children() if c not in others]
    assert children, "the pool's processes"
    for child in children:
        os.kill(child.pid, signal.SIGKILL)
    for child in children:
        child.join(10)
    again = await pool.think_async("standard", move, 5, 5.0, nodes=300)
    assert again["side"] == "I" and again["steps"] and again["nodes"] > 0
    pool.shutdown()


@pytest.mark.asyncio
@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="SCHED_IDLE is Linux's")
async def test_the_pool_thinks_only_on_cpu_nobody_else_wants(settings):
    """A wave of computer games must not slow human games' steps: the pool's processes run
    under SCHED_IDLE, so the kernel runs any server's step before a search."""
    settings.TALU_COMPUTER_PROCESSES = 1
    pool.shutdown()
    loop = asyncio.get_running_loop()
    policy = await loop.run_in_executor(pool.executor(), os.sched_getscheduler, 0)
    assert policy == os.SCHED_IDLE
    assert os.sched_getscheduler(0) != os.SCHED_IDLE  # the worker itself is not


@pytest.mark.asyncio
async def test_without_sched_idle_the_pool_thinks_at_a_lower_priority(settings):
    """The fallback (``TALU_COMPUTER_IDLE=0``, or a system without the policy): the pool runs
    ``TALU_COMPUTER_NICE`` lower than the worker."""
    settings.TALU_COMPUTER_PROCESSES = 1
    settings.TALU_COMPUTER_IDLE = 0
    settings.TALU_COMPUTER_NICE = 5
    pool.shutdown()
    loop = asyncio.get_running_loop()
    child = await loop.run_in_executor(pool.executor(), os.nice, 0)
    assert child == min(19, os.nice(0) + 5)


def test_the_computer_s_profile_says_it_is_the_computer(client, make_user):
    game = play_the_computer(make_user("erin"), "standard", 2, "I")
    machine = game.player_o
    page = client.get(reverse("profile", args=[machine.player.player_id])).content.decode()
    assert "The computer opponent" in page
    human = client.get(reverse("profile", args=[game.player_i.player.player_id])).content.decode()
    assert "The computer opponent" not in human


@pytest.mark.asyncio
async def test_a_failing_search_is_retried_after_its_lease_not_at_once(make_user, monkeypatch):
    fay = await database_sync_to_async(make_user)("fay")
    game = await database_sync_to_async(play_the_computer)(fay, "standard", 1, "O")

    async def broken(*args, **kwargs):
        raise RuntimeError("the pool is gone")

    monkeypatch.setattr(pool, "think_async", broken)
    worker = mover.Mover("w")
    assert await worker.round() == 1
    await worker.drain()  # logged as a warning, the worker goes on
    assert await worker.round() == 0  # still claimed: no retry in a busy loop
    row = await ComputerGame.objects.aget(game=game)
    assert row.claimed_by == "w" and row.claimed_until is not None and row.turns == 0
    assert await database_sync_to_async(lambda: GameEvent.objects.filter(game=game).count())() == 0


def _my_turn(game: Game, side: str) -> None:
    """``side`` (a person) plays a level-1 turn through the command path, in real time."""
    engine = engines.replay(Game.objects.get(pk=game.pk)).engine
    for chosen in choose_turn(engine, 1, seed=len(engine.turns)).steps:
        version = Game.objects.get(pk=game.pk).version
        out = execute(Submission(game.uuid, player(side), PlayStep(chosen.to_dict()), version))
        assert out.ok, out


@pytest.mark.asyncio
async def test_a_timed_computer_moves_within_its_clock(make_user, monkeypatch):
    """R36: on a 20-second clock level 8 (10 s a turn untimed) thinks a small share of the
    time it has left, so turn after turn it moves in time and the worker never flags it."""
    ivy = await database_sync_to_async(make_user)("ivy")
    game = await database_sync_to_async(play_the_computer)(ivy, "standard", 8, "I",
                                                           "fischer 20+0")
    thought: list[dict] = []
    real = pool.think_async

    async def spy(*args, **kwargs):
        thought.append(kwargs)
        result = await real(*args, **kwargs)
        thought[-1] = {**kwargs, "cpu": result["cpu"], "seconds": result["seconds"],
                       "wall": result["wall"]}
        return result

    monkeypatch.setattr(pool, "think_async", spy)
    worker = mover.Mover("w")
    for turn in range(4):
        await database_sync_to_async(_my_turn)(game, "I")
        assert await worker.round() == 1
        await worker.drain()
        await database_sync_to_async(run_due)()  # the worker's other jobs: the flag among them
        row = await Game.objects.aget(pk=game.pk)
        assert row.status == Game.LIVE and len(row.stgn.splitlines()) == 2 * turn + 2
        state = await database_sync_to_async(engines.replay)(row)
        assert state.clock.running == "I"
        if turn:  # the opening turn has its own 30 s, never charged (R36)
            assert state.clock.remaining["O"] >= 20_000 - 1_500 * turn
    # every turn was given its deadline, and thought no more than its share of the clock
    assert len(thought) == 4 and all(t["deadline"] for t in thought)
    # (CPU seconds: on a busy machine the search runs slower, not longer; its real time has
    # a cap of its own, a third of the time left at most)
    assert all(t["cpu"] <= clock_seconds(get_level(8), 30) + 0.3 for t in thought)
    assert max(t["cpu"] for t in thought[1:]) <= clock_seconds(get_level(8), 20) + 0.3
    assert all(t["seconds"] <= t["wall"] + 0.3 and t["wall"] <= 30 / 3 for t in thought)


@pytest.mark.asyncio
async def test_a_starved_pool_does_not_make_the_computer_lose_on_time(make_user, monkeypatch):
    """R36: should the pool not answer (a wave queued before it, or its SCHED_IDLE processes
    starved by a busy machine), the worker's guard plays a quick turn of its own before the
    computer's time runs out."""
    kim = await database_sync_to_async(make_user)("kim")
    game = await database_sync_to_async(play_the_computer)(kim, "standard", 8, "I",
                                                           "fischer 60+0")

    async def starved(*args, **kwargs):
        await asyncio.sleep(60)

    monkeypatch.setattr(pool, "think_async", starved)
    await database_sync_to_async(_my_turn)(game, "I")
    left = 3.0  # the computer's time, made short
    await Game.objects.filter(pk=game.pk).aupdate(
        deadline=timezone.now() + timedelta(seconds=left))
    worker = mover.Mover("w")
    started = asyncio.get_running_loop().time()
    assert await worker.round() == 1
    await asyncio.wait_for(worker.drain(), 10)
    spent = asyncio.get_running_loop().time() - started
    row = await Game.objects.aget(pk=game.pk)
    assert row.status == Game.LIVE and len(row.stgn.splitlines()) == 2  # its turn was played
    assert spent < left - 1.0, spent
    cg = await ComputerGame.objects.aget(game=game)
    assert 0 < cg.nodes <= mover.QUICK_NODES and cg.turns == 1


def test_the_worker_flags_the_computer_like_anyone(make_user):
    """R36/R37: nothing exempts the computer from its clock. A computer whose time ran out
    (its turns stored at chosen times, as tests/site/test_clocks.py does) loses on time by the
    worker's flag job, with the result of any flag."""
    game = play_the_computer(make_user("jon"), "standard", 1, "O", "fischer 60+0")
    created = timezone.now() - timedelta(seconds=200)
    Game.objects.filter(pk=game.pk).update(created=created,
                                           deadline=created + timedelta(seconds=30))
    engines.forget()
    for n, (actor, frm, to) in enumerate([(computer("I"), "A1", "B1"), (player("O"), "A8", "B8")]):
        for raw in ({"kind": "move", "from": frm, "to": to}, {"kind": "end"}):
            version = Game.objects.get(pk=game.pk).version
            out = store(Submission(game.uuid, actor, PlayStep(raw), version),
                        created + timedelta(seconds=1 + n))
            assert out.ok, out
    flagged = clocks.flag_due()
    assert [u for u, _ in flagged] == [game.uuid]
    row = Game.objects.get(pk=game.pk)
    assert (row.status, row.winner, row.cause) == ("finished", "O", "time")


@pytest.mark.asyncio
async def test_the_computer_s_steps_all_take_the_fast_road(make_user, monkeypatch):
    """R40, issue 25's wave: the worker brings its held state up to the game as it reads it
    for the search (``mover.hold_state``), so every step of the computer's turn, the first
    included, is decided on that state and appended on the loop's own connection, never the
    slow road's thread (the row and the events read again, an append of its own)."""
    from play.commands import path

    dora = await database_sync_to_async(make_user)("dora")
    game = await database_sync_to_async(play_the_computer)(dora, "standard", 1, "O")
    engines.forget()  # as a worker that holds nothing of the game (its players on servers)
    slow: list[Submission] = []
    real_store = path.store

    def counted(sub, now=None):
        slow.append(sub)
        return real_store(sub, now)

    monkeypatch.setattr(path, "store", counted)
    worker = mover.Mover("w")
    assert await worker.round() == 1
    await worker.drain()
    stored = await database_sync_to_async(_events)(game)
    assert len(stored) >= 2 and all(e[3] == "computer" for e in stored)  # its turn, played
    assert slow == []


@pytest.mark.asyncio
async def test_a_turn_passed_to_the_computer_wakes_only_the_computer_s_job(make_user):
    """The end of a person's turn against the computer wakes the workers' computer job alone
    (``delivery.wake_computer``); a game's end still wakes every job (its archive)."""
    from channels.layers import get_channel_layer

    from play.live import delivery
    from play.worker.loop import Worker

    erin = await database_sync_to_async(make_user)("erin")
    game = await database_sync_to_async(play_the_computer)(erin, "standard", 1, "I")
    layer = get_channel_layer()
    channel = await layer.new_channel("worker.")
    await layer.group_add(delivery.WORKER_GROUP, channel)
    you = player("I")
    outcome = await database_sync_to_async(store)(
        Submission(game.uuid, you, PlayStep({"kind": "move", "from": "A2", "to": "A3"}),
                   version=0))
    assert outcome.ok
    await delivery.announce(game.uuid, outcome)  # mid-turn: nobody woken
    outcome = await database_sync_to_async(store)(
        Submission(game.uuid, you, PlayStep({"kind": "end"}), version=1))
    await delivery.announce(game.uuid, outcome)
    async with asyncio.timeout(5):
        wake = await layer.receive(channel)
    assert wake == {"type": "worker.wake", "clock": False, "jobs": ["computer"]}

    worker = Worker("w")
    inbox: asyncio.Queue = asyncio.Queue()

    class Layer:
        """A layer whose one channel ("c", in the worker's group) receives from ``inbox``."""

        async def new_channel(self, _prefix):
            return "c"

        async def group_add(self, _group, _channel):
            return None

        async def receive(self, _channel):
            return await inbox.get()

    listening = asyncio.ensure_future(worker._listen(Layer()))
    try:
        await inbox.put(wake)
        await asyncio.sleep(0.01)
        assert worker.computer_wake.is_set()
        assert not worker.wake.is_set() and not worker.pool_wake.is_set()  # no other round
        worker.computer_wake.clear()
        await inbox.put({"type": "worker.wake"})
        await asyncio.sleep(0.01)
        assert worker.wake.is_set() and worker.pool_wake.is_set()  # a full wake: every job
        assert worker.computer_wake.is_set()
    finally:
        listening.cancel()



@pytest.mark.asyncio
async def test_the_computer_opens_a_tafl_game_through_the_lobby_form(make_user, client):
    """Issue 42: the lobby's "Play the computer" plays tafl and Tablut: "Play as" O is the
    second seat (the defenders in tafl), so the computer (the attackers, T2) moves first, its
    move an OTN move of the rules, answered through the same command path as talu's."""
    bob = await database_sync_to_async(make_user)("bob")
    await database_sync_to_async(client.force_login)(bob)
    answer = await database_sync_to_async(client.post)(
        "/computer/new/", {"variant": "tafl/7x7", "level": "2", "side": "O",
                           "time_control": "untimed"})
    assert answer.status_code == 302
    game = await Game.objects.aget(game="tafl")
    assert game.variant == "7x7" and not game.rated
    assert await database_sync_to_async(game.side_of)(bob) == "defenders"
    worker = mover.Mover("w")
    assert await worker.round() == 1
    await worker.drain()
    moves = await database_sync_to_async(
        lambda: list(GameEvent.objects.filter(game=game, kind="move")
                     .values_list("side", flat=True)))()
    assert moves == ["attackers"]
    await database_sync_to_async(game.refresh_from_db)()
    assert game.to_move == "defenders"
