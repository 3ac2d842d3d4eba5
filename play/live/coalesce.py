"""Coalescing a broadcast: at most one a second per process, and the last change never lost.

Issue 41, finding 7: every pool join and leave told every lobby page that the lobby changed,
and every page answered with a fetch of its state (22-59 ms each): one account's join/leave
loop made 61 broadcasts in 20 s, each multiplied by the number of open lobby pages. A page
needs to hear *that* something changed, not each change: one "changed" makes it fetch the
state as it is then, which holds every change before it.

So a :class:`Coalescer` sends at once when it has not sent for ``interval`` seconds (an idle
lobby hears a change without delay); a change that comes sooner is covered by one *trailing*
send at the end of the interval (those that come while it waits add nothing), so a page sees
the final state at most about ``interval`` after the last change. Each process coalesces its
own broadcasts: with several server processes behind the proxy a lobby page hears at most one
a second from each, and the channel layer still delivers each to every process's sockets.

The trailing send is a task on the event loop of the change that scheduled it: the server's
own loop (a sync view's ``async_to_sync`` runs there, as does the worker). A loop that ends
before the interval does (``async_to_sync`` outside a server makes one for the call and
cancels what is left of it when the call returns) sends the trailing broadcast as it is
cancelled: early, never lost. A loop closed without cancelling its tasks leaves a task that
never runs: it is seen as gone, and the next change is sent again.
"""

from __future__ import annotations

import asyncio
import logging
import math
import threading
import time
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)


class Coalescer:
    """Calls of ``send`` (a coroutine function), at most one per ``interval`` seconds in this
    process; every call of the coalescer is followed by a send no later than ``interval``."""

    def __init__(self, send: Callable[[], Awaitable[object]], interval: float = 1.0) -> None:
        self._send = send
        self.interval = interval
        # Changes come from the server's loop and from threads with loops of their own: the
        # decision (send now, schedule the trailing send, or nothing) is taken under a lock
        # held for no await.
        self._lock = threading.Lock()
        self._last = -math.inf  # time.monotonic() of the last send (begun)
        self._trailing: asyncio.Task | None = None

    def reset(self) -> None:
        """Forget the last send and any trailing one (a test's fresh start)."""
        with self._lock:
            self._last = -math.inf
            self._trailing = None

    @property
    def trailing(self) -> bool:
        """Whether a trailing send is waiting on a loop that will still run it."""
        task = self._trailing
        if task is None or task.done():
            return False
        loop = task.get_loop()
        return not loop.is_closed() and loop.is_running()

    async def __call__(self) -> None:
        """One change: sent now, or covered by the trailing send (scheduled if need be)."""
        with self._lock:
            if self.trailing:
                return  # the trailing send fetches this change too
            now = time.monotonic()
            wait = self._last + self.interval - now
            if wait > 0:
                self._trailing = asyncio.get_running_loop().create_task(
                    self._later(wait), name="talu coalesced broadcast")
                return
            self._last = now
            self._trailing = None
        await self._send()

    async def _later(self, wait: float) -> None:
        try:
            await asyncio.sleep(wait)
        finally:  # cancelled too (the loop is ending): sent now rather than lost
            with self._lock:
                self._last = time.monotonic()
                if self._trailing is asyncio.current_task():
                    self._trailing = None
            try:
                await self._send()
            except Exception:  # the caller that scheduled it is long gone: logged, not raised
                log.warning("a coalesced broadcast failed", exc_info=True)
