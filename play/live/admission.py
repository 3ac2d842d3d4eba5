"""Who may open a websocket, before anything costs a database trip: handshakes per address
(issue 27, ``TALU_RATE_WS_CONNECT``, the game's and the lobby's sockets alike) and, for game
sockets, the process's cap (``TALU_WS_MAX_CONNECTIONS``). The close codes are the protocol's
(docs/protocol.md).
"""

from __future__ import annotations

from typing import Any

from play import conf
from talu_site import clientaddr, ratelimit

RATE_LIMITED = 4429  # close code: too many handshakes from this address (retry_after seconds)
WS_CONNECT = ratelimit.limit("ws_connect")
TRY_AGAIN_LATER = 4013  # close code: full or degraded, reconnect later (daphne allows
#                        1000 and 3000-4999 only; 4013 echoes the standard 1013)

_open_sockets = 0  # game sockets this process holds (for TALU_WS_MAX_CONNECTIONS)


async def rate_limited(scope: dict[str, Any]) -> Any:
    """Count a handshake from the scope's address: the refusal (its words, ``retry_after``)
    when the address has used its share, else None."""
    return await WS_CONNECT.ahit(clientaddr.limit_key(clientaddr.of_scope(scope)))


def take_slot() -> bool:
    """Take one of this process's game-socket slots; False when the process is full."""
    global _open_sockets
    cap = conf.max_connections()
    if cap and _open_sockets >= cap:
        return False
    _open_sockets += 1
    return True


def free_slot() -> None:
    """Give back a slot ``take_slot`` gave (the socket closed)."""
    global _open_sockets
    _open_sockets -= 1
