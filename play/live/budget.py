"""What one game socket may ask of its server process (issue 41, finding 9): a token bucket for
its messages (``TALU_RATE_WS_MESSAGE``) and a stricter one for its resyncs
(``TALU_RATE_WS_SYNC``).

Why per socket and in the process: a resync (``hello``/``sync``) reads the game, its events
after the version named and a snapshot of the state, on a database thread; an anonymous
spectator that sent ``sync`` from version 0 as fast as it could got a full resync each time
(eight such sockets took 0.72 of a core and doubled everyone else's median). A count in the
cache (``talu_site.ratelimit``'s fixed windows) would cost a Redis round trip per message; the
socket's own bucket costs nothing, and a process holds each socket itself. The rates are
written and read as every rate limit's are (``ratelimit.DEFAULTS``, docs/deployment.md):
``60/10second`` is a bucket of 60 refilled at 60 per 10 seconds, ``off`` no bucket.

A resync that asks again for more than ``FULL_BEHIND`` versions this socket was already sent
(a resync from version 0 of a long game) costs ``FULL_COST`` tokens of the resync bucket: a
real client asks from the version it has, at most a few updates behind what is on its way
(``static/play/board.js``: on a gap, a ``stale`` refusal or coming back online). A client over
a budget is told (``error`` ``slow_down``, the message not handled); one that goes on
(``STRIKES`` refusals within ``STRIKE_WINDOW`` seconds) is closed (``rate_limited``, 4429).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from talu_site import ratelimit

MESSAGE = ratelimit.limit("ws_message")
SYNC = ratelimit.limit("ws_sync")
RESYNC_TYPES = ("hello", "sync")
FULL_BEHIND = 16  # versions a resync may ask again for at the price of one
FULL_COST = 5  # tokens of the resync bucket a full resync costs
STRIKES = 20  # refusals within STRIKE_WINDOW seconds that close the socket
STRIKE_WINDOW = 10.0


@dataclass
class Bucket:
    """``capacity`` tokens, refilled at ``per_second``; a message takes its cost or waits."""

    capacity: float
    per_second: float
    tokens: float
    at: float

    @classmethod
    def of(cls, rate: ratelimit.Rate | None, now: float) -> Bucket | None:
        if rate is None:
            return None
        return cls(rate.count, rate.count / rate.seconds, rate.count, now)

    def take(self, cost: float, now: float) -> float:
        """0 when ``cost`` tokens were taken; else the seconds until they are there (nothing
        taken). A cost above the capacity takes the whole bucket when it is full."""
        self.tokens = min(self.capacity, self.tokens + (now - self.at) * self.per_second)
        self.at = now
        cost = min(cost, self.capacity)
        if self.tokens >= cost:
            self.tokens -= cost
            return 0.0
        return (cost - self.tokens) / self.per_second


@dataclass(frozen=True)
class Refused:
    """A message over a budget: which (``messages`` or ``resyncs``), and the seconds until
    it would have been taken."""

    what: str
    wait: float

    @property
    def retry_after(self) -> int:
        """Whole seconds to tell the client (at least one)."""
        return max(1, math.ceil(self.wait))


class SocketBudget:
    """One socket's buckets, read from the settings when it opens, and its refusals."""

    def __init__(self, clock=time.monotonic) -> None:
        self.clock = clock
        now = clock()
        self.messages = Bucket.of(MESSAGE.rate(), now)
        self.resyncs = Bucket.of(SYNC.rate(), now)
        self.strikes: list[float] = []  # times of the refusals within STRIKE_WINDOW

    def admit(self, kind: str | None, last_version: object,
              sent_version: int) -> Refused | None:
        """None when the message may be handled; else what it is over and for how long (it
        is not handled, and counts as a strike). ``kind`` is its type (None: not a readable
        message), ``last_version`` a resync's, ``sent_version`` the last this socket sent."""
        if self.messages is None and self.resyncs is None:
            return None
        now = self.clock()
        refused = None
        if self.messages is not None and (wait := self.messages.take(1, now)):
            refused = Refused("messages", wait)
        elif kind in RESYNC_TYPES and self.resyncs is not None:
            full = isinstance(last_version, int) and not isinstance(last_version, bool) \
                and sent_version - last_version > FULL_BEHIND
            if wait := self.resyncs.take(FULL_COST if full else 1, now):
                refused = Refused("resyncs", wait)
        if refused is not None:
            self.strikes = [t for t in self.strikes if now - t < STRIKE_WINDOW]
            self.strikes.append(now)
        return refused

    def persisting(self) -> bool:
        """Whether the refusals go on: ``STRIKES`` of them within ``STRIKE_WINDOW`` seconds."""
        now = self.clock()
        return sum(1 for t in self.strikes if now - t < STRIKE_WINDOW) >= STRIKES

    def close_for(self) -> int:
        """Seconds a client closed for persisting should wait before it connects again: until
        its buckets are full again."""
        periods = [b.capacity / b.per_second for b in (self.messages, self.resyncs)
                   if b is not None]
        return max(1, math.ceil(max(periods, default=1)))
