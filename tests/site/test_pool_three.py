"""The quick-pairing pool for three (issue 37): three compatible players waiting in the same
variant and time control start a table; a rated pool seats only players within each other's
range (R47's); after the wait a player chose, the empty seats are filled with the computer
(casual, A9); a player leaves at any time; refusals in words. The tiny three-seat race stands
in for Talat (tests/match/tinygame.py), with the tests' computer (tests/site/tinycomputer.py).
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from play.commands.player import submit_as
from play.lobby import pool, pool_three
from play.lobby.pool_three import PoolThreeError
from play.models import ComputerGame, Game, GameEvent, PoolEntry, Seat, ThreeEntry
from tests.site.tinycomputer import tiny_computer  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

TC = "fischer 600+5"


@pytest.fixture
def people(make_user):
    return [make_user(n) for n in ("ana", "ben", "cyd", "dee")]


def _backdate(user, minutes: float) -> None:
    ThreeEntry.objects.filter(user=user).update(
        joined=timezone.now() - timedelta(minutes=minutes))


def test_three_waiting_players_start_a_table(tiny, people):
    ana, ben, cyd, dee = people
    for u in (ana, ben):
        pool_three.join(u, "tiny/race", TC, rated=True)
    assert pool_three.run_due() == []  # two wait: no table yet
    assert pool_three.state(ana)["players_waiting"] == 2
    pool_three.join(cyd, "tiny/race", TC, rated=True)
    pool_three.join(dee, "tiny/race", "fischer 180+2", rated=True)  # another pool
    started = pool_three.run_due()  # as the worker runs it (rounds.three_in_thread)
    assert len(started) == 1 and not started[0].computer
    game = Game.objects.get(uuid=started[0].game)
    assert game.rated and game.time_control == TC and game.variant_key == "tiny/race"
    assert set(Seat.objects.filter(game=game).values_list("user_id", flat=True)) == {
        ana.pk, ben.pk, cyd.pk}
    assert set(started[0].users) == {ana.pk, ben.pk, cyd.pk}
    assert pool_three.state(ben)["game"]["id"] == str(game.uuid)
    assert pool_three.state(dee)["status"] == "waiting"


def test_a_rated_pool_seats_only_players_within_each_others_range(tiny, people):
    ana, ben, cyd, _ = people
    for u in (ana, ben, cyd):
        pool_three.join(u, "tiny/race", TC, rated=True)
    ThreeEntry.objects.filter(user=cyd).update(rating=1900)  # far above the others
    assert pool_three.run_due() == []
    # a casual pool seats them whatever their ratings
    for u in (ana, ben, cyd):
        pool_three.join(u, "tiny/race", TC, rated=False)
    ThreeEntry.objects.filter(user=cyd).update(rating=1900)
    assert len(pool_three.run_due()) == 1


@pytest.mark.usefixtures("tiny_computer")
def test_the_computer_fills_the_empty_seats_after_the_chosen_wait(people):
    ana, ben, cyd, _ = people
    pool_three.join(ana, "tiny/race", TC, rated=True, fill_after=2)
    pool_three.join(cyd, "tiny/race", TC, rated=True)  # waits for people only
    assert pool_three.state(ana)["fill_in_seconds"] > 100
    _backdate(ana, 1)
    assert pool_three.run_due() == []  # a minute of the two chosen: still waiting
    _backdate(ana, 2.1)
    started = pool_three.run_due(rng=random.Random(3))
    assert len(started) == 1 and started[0].computer and started[0].users == (ana.pk,)
    game = Game.objects.get(uuid=started[0].game)
    assert not game.rated  # A9: a computer seat
    kinds = list(Seat.objects.filter(game=game).values_list("kind", flat=True))
    assert sorted(kinds) == ["computer", "computer", "person"]
    assert ComputerGame.objects.filter(game=game).count() == 2
    assert set(ComputerGame.objects.filter(game=game).values_list("level", flat=True)) == {2}
    assert pool_three.state(cyd)["status"] == "waiting"  # never given to the computer
    # two whose fill is due play together, the computer in the seat left
    pool_three.join(ben, "tiny/race", TC, rated=False, fill_after=1)
    pool_three.join(cyd, "tiny/race", TC, rated=True, fill_after=5)
    _backdate(ben, 2)
    _backdate(cyd, 6)
    started = pool_three.run_due()
    assert len(started) == 1 and set(started[0].users) == {ben.pk, cyd.pk}
    assert ComputerGame.objects.filter(game__uuid=started[0].game).count() == 1


def test_leave_at_any_time_and_one_pool_at_a_time(tiny, people):
    ana, ben, cyd, _ = people
    pool.join(ana, "standard", TC, rated=True)
    pool_three.join(ana, "tiny/race", TC, rated=True)
    assert not PoolEntry.objects.filter(user=ana).exists()  # out of the pool for two
    assert pool_three.leave(ana) is True
    assert pool_three.leave(ana) is False
    pool_three.join(ben, "tiny/race", TC)
    pool_three.join(cyd, "tiny/race", TC)
    assert pool_three.run_due() == [] and pool_three.state(ana) == {"status": "idle"}


def test_refusals_are_in_words(tiny, people):
    ana = people[0]
    with pytest.raises(PoolThreeError, match="unknown variant"):
        pool_three.join(ana, "tiny/nothing", TC)
    with pytest.raises(PoolThreeError, match="played by 2"):
        pool_three.join(ana, "tiny/duel", TC)
    with pytest.raises(PoolThreeError, match="no pool for"):
        pool_three.join(ana, "tiny/race", "correspondence 3d")
    with pytest.raises(PoolThreeError, match="1, 2 or 5 minutes"):
        pool_three.join(ana, "tiny/race", TC, fill_after=3)
    with pytest.raises(PoolThreeError, match="does not play"):  # no computer for the race
        pool_three.join(ana, "tiny/race", TC, fill_after=1)
    assert not ThreeEntry.objects.exists()


def test_the_worker_starts_a_table_for_three(tiny, people, client):
    """The lobby's views: join, the state in the lobby's poll, and the worker's round seats
    them."""
    ana, ben, cyd, _ = people
    for u in (ana, ben, cyd):
        client.force_login(u)
        res = client.post("/pool/three/join/", {"variant": "tiny/race", "pool": f"{TC}|1",
                                                "fill_after": "0"},
                          headers={"accept": "application/json"})
        assert res.status_code == 200 and res.json()["ok"], res.content
    state = client.get("/lobby/state.json").json()
    assert state["three"]["status"] == "waiting" and state["three"]["players_waiting"] == 3
    started = pool_three.run_due()
    assert len(started) == 1
    state = client.get("/lobby/state.json").json()
    assert [g["id"] for g in state["my_games"]] == [started[0].game]
    res = client.post("/pool/three/join/", {"variant": "tiny/race", "pool": "untimed|0"},
                      follow=True)
    assert "there is no pool for untimed" in res.content.decode()
    res = client.post("/pool/three/join/", {"variant": "tiny/race", "pool": f"{TC}|0"},
                      follow=True)  # cyd is at the board now: one game at a time
    assert "finish it before joining a pool" in res.content.decode()
    client.force_login(people[3])
    client.post("/pool/three/join/", {"variant": "tiny/race", "pool": f"{TC}|0"})
    res = client.post("/pool/three/leave/", follow=True)
    assert "You left the pool for three." in res.content.decode()
    assert client.post("/pool/three/leave/", {"beacon": "1"}).status_code == 204


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("tiny_computer", "quick_computer")
@pytest.mark.asyncio
async def test_the_worker_fills_with_the_computer_and_the_computer_plays(people, worker):
    """The worker's pool round (beside the waves) seats ana with two computer seats once her
    wait is over, and its computer job plays their turns: the race moves on without her."""
    import asyncio

    from channels.db import database_sync_to_async

    ana = people[0]
    await database_sync_to_async(pool_three.join)(ana, "tiny/race", TC, rated=False,
                                                  fill_after=1)
    await database_sync_to_async(_backdate)(ana, 1.5)
    for _ in range(200):
        entry = await ThreeEntry.objects.select_related("game").aget(user=ana)
        if entry.game is not None:
            break
        await asyncio.sleep(0.05)
    game = entry.game
    assert game is not None and not game.rated
    mine = await Seat.objects.filter(game=game, user=ana).aget()

    async def her_turn(version: int) -> Game:
        for _ in range(200):
            row = await Game.objects.aget(pk=game.pk)
            if row.to_move == mine.seat and row.version >= version:
                return row
            await asyncio.sleep(0.05)
        raise AssertionError(f"the computer's seats did not play (version {row.version})")

    row = await her_turn(mine.order)  # the computer's seats before hers played at once
    outcome = await database_sync_to_async(submit_as)(game.uuid, ana, "step",
                                                      step={"add": 1}, version=row.version)
    assert outcome.ok, outcome.reason
    row = await her_turn(row.version + 3)  # her move, then each computer seat's
    by_computer = await GameEvent.objects.filter(game=game, actor="computer").acount()
    assert by_computer == 2 + mine.order
