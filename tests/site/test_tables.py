"""Tables of more than two seats in the lobby (issue 37): a person opens a table, others take
its seats, the creator gives seats to the computer (and takes them back), a seated person
leaves, the creator closes it; the game starts when every seat is held, once, however the
last seat is raced for; a game with computer seats is casual (A9) and the worker plays each
computer seat when it is to act, two in a row as well. Played with the match's tiny
three-seat game (tests/match/tinygame.py) and a computer for it from the tests
(tests/site/tinycomputer.py): Talat is not in the catalogue yet."""

from __future__ import annotations

import threading

import pytest
from channels.db import database_sync_to_async
from django.db import close_old_connections
from django.urls import reverse

from play import gameview
from play.commands.player import submit_as
from play.computer import mover
from play.computer.account import computer_user
from play.lobby import tables
from play.lobby.tables import TableError
from play.models import ComputerGame, Game, GameEvent, Seat, Table, TableSeat
from play.worker.loop import run_due
from registry.models import SignedGameRecord
from tests.site.tinycomputer import tiny_computer  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(make_user):
    return [make_user(n) for n in ("ana", "ben", "cyd", "dee")]


def test_open_take_and_the_full_table_starts_its_game(tiny, people, client):
    ana, ben, cyd, _ = people
    table = tables.open_table(ana, "tiny/race", seat="2", rated=True,
                              time_control="fischer 300+3")
    seats = {s.seat: s.user_id for s in table.seats.all()}
    assert seats == {"1": None, "2": ana.pk, "3": None}
    assert tables.take_seat(ben, table.pk, "1") is None  # one seat still open
    game = tables.take_seat(cyd, table.pk, "3")
    assert game is not None and game.rated and game.time_control == "fischer 300+3"
    assert list(Seat.objects.filter(game=game).values_list("seat", "user_id", "kind")) == [
        ("1", ben.pk, "person"), ("2", ana.pk, "person"), ("3", cyd.pk, "person")]
    table.refresh_from_db()
    assert (table.status, table.game_id) == (Table.STARTED, game.pk)
    with pytest.raises(TableError, match="started"):
        tables.take_seat(people[3], table.pk, "1")
    # each seated person's lobby lists the game among theirs, which its script opens
    client.force_login(ben)
    mine = client.get(reverse("lobby_state")).json()["my_games"]
    assert [g["id"] for g in mine] == [str(game.uuid)]


def test_refusals_are_in_words(tiny, people):
    ana, ben, cyd, _ = people
    with pytest.raises(TableError, match="unknown variant"):
        tables.open_table(ana, "tiny/nothing")
    with pytest.raises(TableError, match="challenge a player"):
        tables.open_table(ana, "tiny/duel")  # two seats: a challenge's
    with pytest.raises(TableError, match="no seat"):
        tables.open_table(ana, "tiny/race", seat="9")
    table = tables.open_table(ana, "tiny/race")
    with pytest.raises(TableError, match="one seat a person"):
        tables.take_seat(ana, table.pk, "2")
    tables.take_seat(ben, table.pk, "2")
    with pytest.raises(TableError, match="seat 2 is taken"):
        tables.take_seat(cyd, table.pk, "2")
    with pytest.raises(TableError, match="does not play"):  # the race has no computer here
        tables.give_to_computer(ana, table.pk, "3")
    with pytest.raises(TableError, match="only the table's creator"):
        tables.close(ben, table.pk)
    tables.close(ana, table.pk)
    with pytest.raises(TableError, match="no longer open"):
        tables.take_seat(cyd, table.pk, "3")
    assert not Game.objects.exists()


@pytest.mark.usefixtures("tiny_computer")
def test_leave_take_back_and_close(people):
    ana, ben, cyd, _ = people
    table = tables.open_table(ana, "tiny/race", rated=False)
    tables.take_seat(ben, table.pk, "2")
    with pytest.raises(TableError, match="close it instead"):
        tables.leave(ana, table.pk)
    tables.leave(ben, table.pk)
    assert TableSeat.objects.get(table=table, seat="2").is_open
    with pytest.raises(TableError, match="do not sit"):
        tables.leave(ben, table.pk)
    with pytest.raises(TableError, match="only the table's creator"):
        tables.give_to_computer(ben, table.pk, "2", 1)
    with pytest.raises(TableError, match="level is a number from 1 to 3"):
        tables.give_to_computer(ana, table.pk, "2", 9)
    assert tables.give_to_computer(ana, table.pk, "2", 2) is None
    with pytest.raises(TableError, match="taken"):
        tables.take_seat(cyd, table.pk, "2")
    tables.take_back(ana, table.pk, "2")
    assert TableSeat.objects.get(table=table, seat="2").is_open
    with pytest.raises(TableError, match="does not hold"):
        tables.take_back(ana, table.pk, "2")
    tables.close(ana, table.pk)
    assert Table.objects.get().status == Table.CLOSED and not Game.objects.exists()


@pytest.mark.usefixtures("tiny_computer")
def test_a_computer_seat_makes_the_game_casual(people):
    ana, ben, _, _ = people
    table = tables.open_table(ana, "tiny/race", rated=True)
    tables.give_to_computer(ana, table.pk, "3", 1)
    game = tables.take_seat(ben, table.pk, "2")
    assert game is not None and not game.rated  # A9
    assert list(ComputerGame.objects.filter(game=game).values_list("side", "level")) == [
        ("3", 1)]
    assert Seat.objects.get(game=game, seat="3").kind == Seat.COMPUTER
    players = gameview.players_block(game)
    assert players["3"]["computer"] == {"level": 1}
    assert players["1"]["computer"] is None and players["2"]["computer"] is None


@pytest.mark.usefixtures("tiny_computer")
def test_a_computer_seat_is_refused_by_correspondence(people):
    table = tables.open_table(people[0], "tiny/race", time_control="correspondence 3d")
    with pytest.raises(TableError, match="not by correspondence"):
        tables.give_to_computer(people[0], table.pk, "2", 1)


@pytest.mark.django_db(transaction=True)
def test_two_people_racing_for_the_last_seats_start_one_game(tiny, people):
    """Two at the last two seats, and two at the same last seat: one game, never two, and
    nobody seated twice."""
    ana, ben, cyd, dee = people
    for seats in (("2", "3"), ("3", "3")):
        table = tables.open_table(ana, "tiny/race", rated=False)
        if seats == ("3", "3"):
            tables.take_seat(ben, table.pk, "2")
        barrier = threading.Barrier(2)
        results: list[object] = []

        def take(user, seat, table_pk=table.pk, barrier=barrier, results=results):
            barrier.wait()
            try:
                results.append(tables.take_seat(user, table_pk, seat))
            except TableError as err:
                results.append(str(err))
            finally:
                close_old_connections()

        racers = (cyd, dee) if seats == ("3", "3") else (ben, cyd)
        threads = [threading.Thread(target=take, args=(u, s))
                   for u, s in zip(racers, seats, strict=True)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        games = [r for r in results if isinstance(r, Game)]
        assert len(games) == 1, results
        refused = [r for r in results if isinstance(r, str)]
        assert refused in ([], ["seat 3 is taken"], ["that table's game has started"])
        assert seats == ("2", "3") or refused  # the same seat: the second was refused
        assert Game.objects.filter(pk=games[0].pk).count() == 1
        table.refresh_from_db()
        assert table.game_id == games[0].pk
        assert Seat.objects.filter(game=games[0]).count() == 3
    assert Game.objects.count() == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("quick_computer")
@pytest.mark.asyncio
@pytest.mark.usefixtures("tiny_computer")
async def test_one_person_plays_two_computer_seats_to_the_end(people):
    """Seats 2 and 3 the computer's: after ana's turn the worker plays seat 2 and then seat 3,
    two computer turns in a row, each as its own seat; the race goes on to its end."""
    ana = people[0]

    @database_sync_to_async
    def set_up():
        table = tables.open_table(ana, "tiny/race", rated=True)
        tables.give_to_computer(ana, table.pk, "2", 1)
        return tables.give_to_computer(ana, table.pk, "3", 3)

    game = await set_up()
    assert game is not None and not game.rated
    worker = mover.Mover("w")
    for _ in range(20):
        game = await Game.objects.aget(pk=game.pk)
        if not game.is_live:
            break
        if game.to_move == "1":
            outcome = await database_sync_to_async(submit_as)(
                game.uuid, ana, "step", step={"add": 1}, version=game.version)
            assert outcome.ok, outcome.reason
            continue
        assert await worker.round() == 1  # the one seat to act, of the two
        await worker.drain()
    game = await Game.objects.aget(pk=game.pk)
    assert game.status == Game.FINISHED and game.winner == "2"  # +2 a turn beats +1
    acts = [(side, actor) async for side, actor in GameEvent.objects.filter(
        game=game, kind="add").order_by("version").values_list("side", "actor")]
    assert acts[:3] == [("1", "player"), ("2", "computer"), ("3", "computer")]
    turns = {row.side: row.turns async for row in ComputerGame.objects.filter(game=game)}
    assert turns == {"2": 5, "3": 4}
    robot = await database_sync_to_async(computer_user)()
    assert await Seat.objects.filter(game=game, user=robot).acount() == 2
    # archived like any game: its signed record names the computer in both of its seats
    await database_sync_to_async(run_due)()
    record = await SignedGameRecord.objects.aget(game=game)
    assert record is not None


def test_a_deactivated_account_leaves_its_tables(tiny, people):
    ana, ben, _, _ = people
    mine = tables.open_table(ana, "tiny/race")
    theirs = tables.open_table(ben, "tiny/race")
    tables.take_seat(ana, theirs.pk, "2")
    ana.is_active = False
    ana.save()  # the admin's form saves it (play.lobby.deactivation)
    mine.refresh_from_db()
    assert mine.status == Table.CLOSED
    assert TableSeat.objects.get(table=theirs, seat="2").is_open


def test_the_lobby_page_shows_tables_only_when_a_game_has_more_seats(client, people):
    """The live site does not change until a game of more seats (Talat) is registered."""
    client.force_login(people[0])
    page = client.get("/").content.decode()
    offered = bool(tables.table_variants())
    assert ("Open a table" in page) == offered and ("Pool for three" in page) == offered
    assert ("tables" in client.get(reverse("lobby_state")).json()) == offered


@pytest.mark.usefixtures("tiny_computer")
def test_the_lobby_page_opens_and_fills_a_table(people, client):
    """The lobby's forms: open a table, see it with its seats, give a seat to the computer,
    take the last one; the taker goes to the game, and refusals come back in words."""
    ana, ben, _, _ = people
    client.force_login(ana)
    page = client.get("/").content.decode()
    assert "Open a table" in page and "Pool for three" in page and "<script>" not in page
    res = client.post(reverse("table_open"), {"variant": "tiny/race", "seat": "2",
                                              "rated": "1", "time": "fischer 180+2"})
    assert res.status_code == 302
    table = Table.objects.get()
    page = client.get("/").content.decode()
    assert f'data-testid="give-{table.pk}-3"' in page and f'data-testid="close-{table.pk}"' in page
    state = client.get(reverse("lobby_state")).json()
    [shown] = state["tables"]
    assert [(s["seat"], s["who"], s["open"]) for s in shown["seats"]] == [
        ("1", None, True), ("2", "ana", False), ("3", None, True)]
    res = client.post(reverse("table_give", args=[table.pk]), {"seat": "3", "level": "3"},
                      follow=True)
    assert "The computer sits in that seat." in res.content.decode()
    client.force_login(ben)
    res = client.post(reverse("table_take", args=[table.pk]), {"seat": "2"}, follow=True)
    assert "Seat 2 is taken." in res.content.decode()
    res = client.post(reverse("table_take", args=[table.pk]), {"seat": "1"})
    game = Game.objects.get()
    assert res.status_code == 302 and res["Location"] == reverse("game", args=[game.uuid])
    assert not game.rated and game.time_control == "fischer 180+2"
    assert client.get(reverse("lobby_state")).json()["tables"] == []
    res = client.post(reverse("table_open"), {"variant": "tiny/nothing"}, follow=True)
    assert "The table was not opened: unknown variant" in res.content.decode()
    client.logout()  # a visitor sees the tables, and is asked to log in to sit
    page = client.get("/").content.decode()
    assert "to open or join a table" in page and 'data-testid="open-table"' not in page


@pytest.mark.usefixtures("tiny_computer")
def test_a_rematch_of_a_table_game_seats_the_computer_again_or_opens_a_table(people, client):
    """Issue 37: 'Rematch' after a game of more than two seats. Against two computer seats the
    new game starts at once with the computer at the same levels; with another person in it,
    a table opens in the lobby with the asker in the same seat and the computer's seat given."""
    ana, ben, _, _ = people
    table = tables.open_table(ana, "tiny/race", rated=False)
    tables.give_to_computer(ana, table.pk, "2", 1)
    solo = tables.give_to_computer(ana, table.pk, "3", 2)
    assert submit_as(solo.uuid, ana, "resign").ok  # ana leaves: the game ends for her
    client.force_login(ana)
    solo.refresh_from_db()
    if solo.is_live:  # the tiny race goes on between the computer's seats: end it
        Game.objects.filter(pk=solo.pk).update(status=Game.FINISHED)
    answer = client.post(reverse("rematch", args=[solo.uuid]))
    again = Game.objects.exclude(pk=solo.pk).latest("pk")
    assert answer.status_code == 302 and answer.url == f"/games/{again.uuid}/"
    assert dict(ComputerGame.objects.filter(game=again).values_list("side", "level")) == {
        "2": 1, "3": 2}
    assert again.side_of(ana) == "1" and not again.rated

    table = tables.open_table(ana, "tiny/race", rated=False)
    tables.give_to_computer(ana, table.pk, "3", 1)
    mixed = tables.take_seat(ben, table.pk, "2")
    Game.objects.filter(pk=mixed.pk).update(status=Game.FINISHED)
    answer = client.post(reverse("rematch", args=[mixed.uuid]))
    assert answer.status_code == 302 and answer.url == "/"
    rematch = Table.objects.filter(creator=ana, status=Table.OPEN).latest("pk")
    seats = {s.seat: (s.user_id, s.level) for s in rematch.seats.all()}
    assert seats == {"1": (ana.pk, None), "2": (None, None), "3": (None, 1)}
