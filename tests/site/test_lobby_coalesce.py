"""The coalescing of a broadcast (``play.live.coalesce``, issue 41, finding 7): the lobby's
``changed`` goes at once after a quiet second, and the changes of a busy second go as one at
its end, after the last of them; none is lost, also when the loop that was to send it ends
early (``async_to_sync`` outside a server). End to end, through the lobby's socket:
tests/site/test_lobby_socket.py."""

from __future__ import annotations

import asyncio
import time

import pytest

from play.live.coalesce import Coalescer


@pytest.mark.asyncio
async def test_coalescing_sends_an_idle_change_at_once_and_the_last_within_the_interval():
    """The coalescer itself: a change after a quiet interval goes at once; the changes of the
    next interval go as one, at its end, after the last of them; none is lost."""
    sent: list[float] = []

    async def send():
        sent.append(time.monotonic())

    changes = Coalescer(send, 0.3)
    start = time.monotonic()
    await changes()
    assert len(sent) == 1 and sent[0] - start < 0.1  # at once
    for _ in range(20):
        await changes()
    last = time.monotonic()
    assert len(sent) == 1 and changes.trailing  # twenty changes, one trailing send
    await asyncio.sleep(0.6)
    assert len(sent) == 2 and not changes.trailing
    assert sent[1] >= last and 0.25 <= sent[1] - sent[0] <= 0.6
    await asyncio.sleep(0.4)
    await changes()  # quiet for longer than the interval: at once again
    assert len(sent) == 3


def test_a_trailing_change_is_sent_when_its_loop_ends_early():
    """Outside a server (``async_to_sync`` with no server loop makes a loop for the call and
    ends it) the trailing change goes as its loop ends: early, never lost; and a loop that
    ended holds back no later change."""
    sent: list[int] = []

    async def send():
        sent.append(1)

    changes = Coalescer(send, 60)
    asyncio.run(changes())
    assert sent == [1]
    asyncio.run(changes())  # within the interval: a trailing change, sent as the loop ends
    assert sent == [1, 1] and not changes.trailing
    asyncio.run(changes())  # and again: the ended loop holds nothing back
    assert sent == [1, 1, 1]
