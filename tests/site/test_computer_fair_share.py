"""The computer's search shared fairly between accounts, through the site's path (issue 41,
finding 6): two accounts with three level-8 grand-master games each took a third player's
level-1 replies from 0.04 s to 11.5 s on median, queued behind their searches. Checked by
the order in which the worker claims turns and its pool starts searches, never by the time
they take (``play.computer.fair``; the policy's own tests: tests/computer/test_fair_share.py).
"""

from __future__ import annotations

import asyncio
import threading

import pytest
from channels.db import database_sync_to_async

from play.computer import mover, pool
from play.computer.start import play_the_computer

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("quick_computer")]


def _flood(make_user) -> tuple:
    """mallory and trudy with three level-8 grand-master games each, the computer to move in
    all (it plays light and opens), and vic, who has none yet."""
    mallory, trudy, vic = (make_user(name) for name in ("mallory", "trudy", "vic"))
    for person in (mallory, trudy):
        for _ in range(3):
            play_the_computer(person, "grand-master", 8, "O")
    return mallory, trudy, vic


async def _until(condition, seconds: float = 20.0) -> None:
    """Wait for ``condition`` (the worker's tasks reaching the pool), failing after ``seconds``."""
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.01)


@pytest.mark.asyncio
async def test_a_level_1_reply_starts_before_other_accounts_queued_level_8_searches(
        make_user, monkeypatch):
    *_, vic = await database_sync_to_async(_flood)(make_user)
    started: list[int] = []  # the level of each search, in the order the pool started them
    entered, release = threading.Event(), threading.Event()

    def thinking(variant, position, level, seconds=None, **clock):
        started.append(level)
        if len(started) == 1:  # the first search holds the pool while the others queue
            entered.set()
            release.wait(30)
        return {"steps": [], "resign": False, "nodes": 1, "side": None, "score": 0}

    monkeypatch.setattr(pool, "think", thinking)
    worker = mover.Mover("w")
    try:
        assert await worker.round() == 6
        await asyncio.to_thread(entered.wait, 20)
        await _until(lambda: pool.executor().scheduler.waiting == 5)
        await database_sync_to_async(play_the_computer)(vic, "standard", 1, "O")
        assert await worker.round() == 1
        await _until(lambda: pool.executor().scheduler.waiting == 6)
    finally:
        release.set()
    await worker.drain()
    assert sorted(started) == [1] + [8] * 6
    assert started.index(1) == 1  # vic's reply the next search started, not the seventh


def test_every_account_s_first_waiting_turn_is_claimed_before_anyone_s_second(make_user):
    """A worker holds at most ``TALU_COMPUTER_QUEUE`` turns at once: two accounts' older games
    must not fill it while a third person's turn waits unclaimed."""
    *_, vic = _flood(make_user)
    mine = play_the_computer(vic, "standard", 1, "O")
    claimed = mover.claim("w", 3)
    people = sorted(row.game.player_o.username for row in claimed)
    assert people == ["mallory", "trudy", "vic"]
    assert mine.pk in {row.game_id for row in claimed}
    later = mover.claim("w2", 10)  # the rest are still there for the next claim
    assert len(later) == 4 and mine.pk not in {row.game_id for row in later}
