"""A server process's heartbeat: one beat for all its game sockets.

Every ``conf.heartbeat()`` seconds: one batch of presence queries for every socket of this
process on this loop (``presence.touch``), then each socket's own beat (``GameConsumer.beat``):
the spectator count when it changed, any stored event the socket still lacks after a grace and,
with the core Redis layer, re-joining its group (a restarted Redis forgot every membership; the
pub/sub layer subscribes again by itself).
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

from play import conf
from play.live import presence
from play.live.threads import in_db_pool

log = logging.getLogger(__name__)

_beating: dict[str, Any] = {}  # channel name -> socket (a GameConsumer)
_beat_task: asyncio.Task | None = None


def register(socket: Any) -> None:
    """Beat ``socket`` (it has ``channel_name``, ``game_id``, ``role``, ``loop``, ``spawn`` and
    ``beat``) from now on; starts the process's heartbeat on this loop if needed."""
    global _beat_task
    _beating[socket.channel_name] = socket
    loop = asyncio.get_running_loop()
    if _beat_task is None or _beat_task.done() or _beat_task.get_loop() is not loop:
        _beat_task = loop.create_task(_heartbeat())


def unregister(socket: Any) -> None:
    _beating.pop(socket.channel_name, None)


async def _heartbeat() -> None:
    loop = asyncio.get_running_loop()
    while True:
        await asyncio.sleep(conf.heartbeat() * random.uniform(0.9, 1.1))
        sockets = [c for c in list(_beating.values()) if c.loop is loop]
        if not sockets:
            continue
        try:
            found = await in_db_pool(presence.touch)(
                conf.SERVER_ID, [(c.channel_name, c.game_id, c.role, c.side or "")
                                    for c in sockets])
        except Exception:  # the database may be away: beat again later
            log.warning("websocket heartbeat failed", exc_info=True)
            continue
        for c in sockets:
            c.spawn(c.beat(found.get(c.game_id)))
