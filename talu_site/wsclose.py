"""How long daphne waits for a client to answer a close the server started: 10 s, not 1 s.

daphne speaks websocket through autobahn, whose ``closeHandshakeTimeout`` is one second and
not among the options daphne's command line sets. When the server closes a socket (a full
process refusing a connection: ``busy``, then close 4013; an unknown game: 4404) and the client
has not answered within that second, autobahn *aborts* the connection, and a TCP reset makes
the client's system discard what it had received and not yet read: the refusal, and even the
HTTP 101 before it. A burst of 500 connections from one busy client lost three refusals in
500 that way (``tests/cluster/test_connection_burst.py``): the client saw a connection dropped
during the handshake instead of being told to come back later. Ten seconds lets a loaded or
slow client read what it was told; a client that never answers is still cut off then.
"""

from __future__ import annotations

CLOSE_HANDSHAKE_TIMEOUT = 10.0  # seconds


def lengthen_close_handshake() -> None:
    """Give daphne's websocket factory ``CLOSE_HANDSHAKE_TIMEOUT`` (idempotent).

    autobahn sets its defaults in ``resetProtocolOptions`` (from the factory's constructor);
    daphne's ``setProtocolOptions`` call after that leaves this option alone."""
    from daphne.ws_protocol import WebSocketFactory

    if getattr(WebSocketFactory, "talu_close_handshake", False):
        return
    reset = WebSocketFactory.resetProtocolOptions

    def reset_with_longer_close(self) -> None:
        reset(self)
        self.closeHandshakeTimeout = CLOSE_HANDSHAKE_TIMEOUT

    WebSocketFactory.resetProtocolOptions = reset_with_longer_close
    WebSocketFactory.talu_close_handshake = True
