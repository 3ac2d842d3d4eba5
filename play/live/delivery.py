"""Getting a game's stored events to every socket on it, exactly once and in order.

Two halves:

- **Publishing** (any source, any process): ``announce`` sends a command's ``update`` to the
  game's group through the channel layer, the sender's own socket first when there is one, and
  wakes the worker when the command ended the game; ``announce_archived`` tells the game's
  sockets that its records and rating changes are written. Every update is encoded once for
  every socket of the game: the layer carries the text and the version range, and a receiver
  decodes it only to trim what it already has; the events ride beside it for the other
  processes' held states (``play.store.engines.advance``). An update holding an event not every
  viewer may see (a sealed turn, R38) carries no shared text: each socket words its own.
- **Ordered delivery** (per socket, ``OrderedDelivery``): every update says which versions it
  covers; a socket remembers the last version it delivered, drops what it already sent, holds an
  update that starts past a gap for ``GAP_WAIT`` (the one before it is usually already queued)
  and fills a gap that stays open from the database. So a message lost or reordered by the
  channel layer is never a lost or repeated step.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from channels.layers import get_channel_layer

from play import conf
from play.games.protocol import EVERYONE, viewer_state
from play.gameview import visible
from play.live.wire import encode, with_member
from talu_site.pubsub_layer import EXCEPT

log = logging.getLogger(__name__)

LAYER_TIMEOUT = 5.0  # seconds a channel-layer call may take before it is given up
GAP_WAIT = 1.0  # seconds an update past a gap waits for the ones before it, then: a sync
WORKER_GROUP = "talu.worker"  # every worker's channel: woken when a game ends


def group_name(game_id: Any) -> str:
    return f"game.{game_id}"


async def layer_call(call: Callable[..., Awaitable[Any]], *args: Any) -> bool:
    """One channel-layer call that may fail (Redis restarting) without failing its caller."""
    try:
        async with asyncio.timeout(LAYER_TIMEOUT):  # no extra task, unlike wait_for
            await call(*args)
        return True
    except Exception as err:
        log.warning("channel layer %s failed: %s", getattr(call, "__name__", call), err)
        return False


def layer_event(update: dict[str, Any], except_channel: str | None = None) -> dict[str, Any]:
    """The group message that carries ``update`` to every socket of its game."""
    event: dict[str, Any] = {"type": "game.update", "from_version": update["from_version"],
                             "version": update["version"], "events": update["events"]}
    if all(e.get("visibility", EVERYONE) == EVERYONE for e in update["events"]) and \
            "sealed" not in (update.get("state") or {}):
        event["text"] = encode(update)
    else:
        event["update"] = update  # each socket words its own (``OrderedDelivery``)
    if except_channel is not None:
        event[EXCEPT] = except_channel
    return event


async def announce(game_id: Any, outcome: Any, *, sender: Any = None,
                   ack: dict[str, Any] | None = None, wake: bool = True) -> None:
    """Tell everyone on the game what ``outcome`` (``play.commands.submission.Outcome``) stored: the
    ``sender`` socket first (``ack`` inside, for a client that asked), then everyone else on
    every process (the pub/sub layer leaves the sender out, ``EXCEPT``; a layer that does not
    brings its copy back and the socket drops it as already sent). Then, if the command ended
    the game, the worker is woken to archive it, and if it passed the turn to the computer
    opponent, to play its turn (``wake`` false: the caller wakes it once for many, as the
    worker's clock round does, ``needs_worker``)."""
    update = outcome.update()
    if update is None:
        return
    layer = get_channel_layer()
    event = layer_event(update, sender.channel_name if sender is not None else None)
    if sender is not None:
        await sender.delivery.deliver(event, ack=ack)
    await layer_call(layer.group_send, group_name(game_id), event)
    if wake and needs_worker(outcome, update):
        if computer_only(outcome, update):
            await wake_computer()
        else:
            await wake_worker()


def needs_worker(outcome: Any, update: dict[str, Any] | None = None) -> bool:
    """Whether the workers should look now at what ``outcome`` stored (``update``: its
    broadcast, when made already): the game ended (to archive), a clock now runs out before
    their next poll, or the computer is to move."""
    update = update if update is not None else outcome.update()
    return update is not None and bool(outcome.finished
                                       or soon(getattr(outcome, "deadline", None))
                                       or computer_to_move(update))


def soon(deadline: int | None) -> bool:
    """Whether a clock's new deadline (ms since the epoch) may come before a worker's next
    poll: the workers are woken to sleep until it instead (R37: flags at the deadline)."""
    return deadline is not None and deadline - time.time() * 1000 < 2000 * conf.worker_poll()


def computer_to_move(update: dict[str, Any]) -> bool:
    """A turn has just ended and a computer seat is to act (marked in the players block): the
    worker should play its turn now rather than at its next poll. The seats to act are read
    as the client reads them, for any game (``to_act``, else ``to_move``, else talu's
    ``side_to_move``); a talu turn under way (``steps_used``) is the computer's own, whose
    next steps the mover sends itself."""
    state = update.get("state") or {}
    if state.get("steps_used"):
        return False
    acting = state.get("to_act") or [state.get("to_move") or state.get("side_to_move")]
    players = (update.get("game") or {}).get("players") or {}
    return any(isinstance(seat, str) and (players.get(seat) or {}).get("computer")
               for seat in acting)


def computer_only(outcome: Any, update: dict[str, Any]) -> bool:
    """Whether only the computer's job needs to look at what ``outcome`` stored (its turn
    now; no game ended, no clock running out before the next poll): ``wake_computer``."""
    return not outcome.finished and not soon(getattr(outcome, "deadline", None)) \
        and computer_to_move(update)


async def wake_computer() -> None:
    """Ask the workers' computer job (``play.computer.mover``) to claim the turns waiting for
    it now, and nothing else: a wave of computer games passes the turn to the computer a few
    times a second, and a full ``wake_worker`` made every worker run each of its jobs' rounds
    (the outbox, the sessions, the jobs, the clock's, the pools') for each, a dozen statements
    and thread hops beside the human games' steps (BENCHMARKS.md, issue 25). A worker that
    does not know ``jobs`` takes it as a wake of all but its clock."""
    layer = get_channel_layer()
    await layer_call(layer.group_send, WORKER_GROUP,
                     {"type": "worker.wake", "clock": False, "jobs": ["computer"]})


async def wake_worker(clock: bool = True) -> None:
    """Ask the workers to look at the outbox now rather than at their next poll; ``clock``
    false: not their clock's jobs (a round of flags that woke them for its games' archives
    only: each clock loop already knows its next deadline, and would run a round for
    nothing)."""
    layer = get_channel_layer()
    message = {"type": "worker.wake"} if clock else {"type": "worker.wake", "clock": False}
    await layer_call(layer.group_send, WORKER_GROUP, message)


def user_group(user_id: Any) -> str:
    """The group of one account's lobby sockets (its pairings)."""
    return f"talu.user.{user_id}"


def notice_group(user_id: Any) -> str:
    """The group of one account's game sockets, for its notices only (issue 39: the bell is
    live over the socket a game page already holds; the lobby's own messages stay the
    lobby's)."""
    return f"talu.notice.{user_id}"


async def announce_notice(user_id: Any, unread: int, text: str, url: str) -> None:
    """Tell one account's game sockets, on every process, its unread count and newest notice:
    ``{"type": "notification", ...}`` as the lobby's socket says it (docs/protocol.md)."""
    layer = get_channel_layer()
    if layer is None:
        return
    await layer_call(layer.group_send, notice_group(user_id), {
        "type": "notice.frame", "unread": unread, "text": text, "url": url})


async def announce_pairing(pairing: Any) -> None:
    """Tell both players' lobby sockets a pool paired them (R47): ``{"type": "paired",
    "game": uuid}``; the lobby's poll of the pairing state is the fallback."""
    layer = get_channel_layer()
    for user_id in pairing.users:
        await layer_call(layer.group_send, user_group(user_id),
                         {"type": "lobby.paired", "game": pairing.game})


async def announce_archived(game_id: Any, meta: dict[str, Any]) -> None:
    """Tell the game's sockets its metadata after archiving (records, rating changes):
    ``{"type": "game", "game": ...}`` (docs/protocol.md)."""
    layer = get_channel_layer()
    await layer_call(layer.group_send, group_name(game_id),
                     {"type": "game.meta", "text": encode({"type": "game", "game": meta})})


class OrderedDelivery:
    """One socket's delivery of its game's updates: each exactly once, in version order.

    ``send_text`` sends a frame to the client; ``resync(last_version)`` reads from the database
    what follows ``last_version`` and hands it to ``deliver_synced``. ``side`` is the socket's
    side (None: a spectator), for events not everyone may see. All sends happen with ``lock``
    held: the heartbeat and the gap timer run beside the socket's own messages.
    """

    def __init__(self, send_text: Callable[[str], Awaitable[None]],
                 resync: Callable[[int | None], Awaitable[None]], spawn: Callable[..., None],
                 side: str | None = None) -> None:
        self.send_text = send_text
        self.resync = resync
        self.spawn = spawn
        self.side = side
        self.sent_version = -1  # the last version this client has been given
        self.lock = asyncio.Lock()
        self.waiting: dict[int, dict[str, Any]] = {}  # updates past a gap, by from_version
        self.gap_timer: asyncio.TimerHandle | None = None

    def close(self) -> None:
        if self.gap_timer is not None:
            self.gap_timer.cancel()

    async def deliver(self, event: dict[str, Any], ack: dict[str, Any] | None = None) -> None:
        async with self.lock:
            await self._deliver_locked(event, ack)

    async def _deliver_locked(self, event: dict[str, Any],
                              ack: dict[str, Any] | None = None) -> None:
        """Send an update exactly once, in order: one that starts past what the client has
        waits (``GAP_WAIT``) for the updates before it, which are usually already queued for
        this socket (a player whose opponent's update is still in its queue when its own step
        is applied); only a gap that stays open is filled from the database.

        ``ack`` (the sender's own step, for a client that asked for it inline) rides inside the
        update when the update goes now; when it cannot (the update must wait for one before
        it, or a sync already gave the client this version), the ack goes alone, so it is never
        held back with a waiting update."""
        if ack is not None and not event["from_version"] <= self.sent_version < event["version"]:
            await self.send_text(encode({"type": "ack", **ack}))
            ack = None
        if event["version"] <= self.sent_version:
            return  # already delivered (our own broadcast, or a late duplicate)
        if event["from_version"] > self.sent_version:
            self.waiting[event["from_version"]] = event
            if self.gap_timer is None:
                self.gap_timer = asyncio.get_running_loop().call_later(
                    GAP_WAIT, lambda: self.spawn(self._close_gap()))
            return
        await self._send_update(event, ack)
        await self._drain_waiting()

    async def _drain_waiting(self) -> None:
        """Send the waiting updates that now follow on; drop those already covered."""
        while self.waiting:
            nxt = min(self.waiting)
            if nxt > self.sent_version:
                return  # still a gap before the rest
            later = self.waiting.pop(nxt)
            if later["version"] > self.sent_version:
                await self._send_update(later)
        if self.gap_timer is not None:
            self.gap_timer.cancel()
            self.gap_timer = None

    def _text_of(self, event: dict[str, Any]) -> str:
        text = event.get("text")
        if text is not None:
            return text
        update = dict(event["update"])
        update["events"] = [visible(e, self.side) for e in update["events"]]
        update["state"] = viewer_state(update.get("state"), self.side)  # a sealed turn, R38
        return encode(update)

    async def _send_update(self, event: dict[str, Any], ack: dict[str, Any] | None = None) -> None:
        text = self._text_of(event)
        if event["from_version"] < self.sent_version:
            update = json.loads(text)
            update["events"] = [e for e in update["events"] if e["version"] > self.sent_version]
            update["from_version"] = self.sent_version
            text = encode(update)
        if ack is not None:
            text = with_member(text, "ack", ack)
        self.sent_version = event["version"]
        await self.send_text(text)

    async def _close_gap(self) -> None:
        """``GAP_WAIT`` has passed with updates still waiting: fill the gap from the database."""
        async with self.lock:
            self.gap_timer = None
            if self.waiting:
                await self.resync(self.sent_version)

    async def sync(self, last_version: int | None) -> None:
        """The client asked for what follows ``last_version`` (``hello``/``sync``)."""
        async with self.lock:
            await self.resync(last_version)

    async def catch_up(self, version: int) -> None:
        """Send what the database has beyond what this client was given (none lost)."""
        async with self.lock:
            if version > self.sent_version:
                await self.resync(self.sent_version)

    async def deliver_synced(self, data: dict[str, Any]) -> None:
        """Send an update read from the database (with ``lock`` held), then what waited."""
        self.sent_version = data["version"]
        await self.send_text(encode(data))
        await self._drain_waiting()
