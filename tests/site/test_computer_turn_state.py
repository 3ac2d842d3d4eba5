"""The worker thinks for the computer on the state it holds (issue 25's wave): the claim reads the
row's side to move (``Game.to_move``, kept by the append), and the pool gets a snapshot of the
worker's engine instead of the game's whole log, read and decoded every turn before. What a
person would notice if this were wrong: the computer playing from a wrong position (an illegal
or nonsensical turn, a half-played turn restarted), or moving in a game nobody is to move in."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from play.commands.path import store
from play.commands.submission import Submission
from play.computer import mover, pool
from play.computer.start import play_the_computer
from play.computer.think import position_of
from play.games.protocol import PlayStep, Resign, computer, player
from play.games.talu import TaluGame
from play.games.talu.search import choose_turn
from play.models import ComputerGame, Game
from play.store import engines

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("quick_computer")]


def _step(game: Game, actor, raw: dict) -> None:
    version = Game.objects.get(pk=game.pk).version
    out = store(Submission(game.uuid, actor, PlayStep(raw), version))
    assert out.ok, out


def _resign(game: Game, actor) -> None:
    assert store(Submission(game.uuid, actor, Resign())).ok


def _picture(engine) -> tuple:
    """What a position is to the search: the board, whose turn, what is spent of it, the
    finished turns."""
    t = engine.turn
    return (t.side, t.me, t.op, t.used, t.chain, [(r.side, r.after) for r in engine.turns],
            engine.stgn_lines())


@pytest.mark.asyncio
async def test_a_half_played_turn_is_finished_from_the_worker_s_snapshot(make_user,
                                                                         monkeypatch):
    """A worker killed after two of the computer's steps: the next claim's search starts from
    the turn in progress, on a snapshot equal to the log's replay, and completes that turn."""
    ada = await database_sync_to_async(make_user)("ada")
    game = await database_sync_to_async(play_the_computer)(ada, "standard", 1, "O")
    # the computer (light, I) made two steps of its opening turn, then its worker died
    opening = next(c.steps for seed in range(50)
                   if len((c := choose_turn(TaluGame("standard"), 1, seed=seed)).steps) > 2)
    for chosen in opening[:2]:
        await database_sync_to_async(_step)(game, computer("I"), chosen.to_dict())
    engines.forget()  # a new worker holds nothing of the game
    seen: list = []
    real = pool.think_async

    async def spy(variant, position, *args, **kwargs):
        seen.append(position)
        return await real(variant, position, *args, **kwargs)

    monkeypatch.setattr(pool, "think_async", spy)
    worker = mover.Mover("w")
    assert await worker.round() == 1
    await worker.drain()
    [position] = seen
    assert isinstance(position, bytes)  # the worker's engine, not the log read again
    row = await Game.objects.aget(pk=game.pk)
    logged = await database_sync_to_async(engines.replay)(row, 2)
    assert _picture(position_of("standard", position)) == _picture(logged.engine)
    # the turn was finished, not restarted: one line, its first steps the two stored ones
    assert row.to_move == "O" and len(row.stgn.splitlines()) == 1
    whole = await database_sync_to_async(engines.replay)(row)
    [first] = whole.engine.turns
    assert first.steps[:2] == list(opening[:2]) and len(first.steps) > 2, row.stgn


@pytest.mark.asyncio
async def test_the_claim_takes_only_games_where_the_computer_is_to_move(make_user):
    """The claim reads ``to_move``: not the person's turn, not an adjourned game (R38: the
    append keeps "" there, nobody is to move), not a finished game."""
    bea = await database_sync_to_async(make_user)("bea")
    mine = await database_sync_to_async(play_the_computer)(bea, "standard", 1, "I")
    adjourned = await database_sync_to_async(play_the_computer)(bea, "standard", 1, "O")
    finished = await database_sync_to_async(play_the_computer)(bea, "standard", 1, "O")
    cal = await database_sync_to_async(make_user)("cal")  # three games at once each at most
    due = await database_sync_to_async(play_the_computer)(cal, "standard", 1, "O")
    await Game.objects.filter(pk=adjourned.pk).aupdate(to_move="")
    await database_sync_to_async(_resign)(finished, player("O"))
    claimed = await database_sync_to_async(mover.claim)("w", 10)
    assert [row.pk for row in claimed] == [(await ComputerGame.objects.aget(game=due)).pk]
    assert mine.to_move == "I"  # bea's own turn: nothing for the computer
