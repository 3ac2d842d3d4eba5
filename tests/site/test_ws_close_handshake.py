"""daphne waits ``CLOSE_HANDSHAKE_TIMEOUT`` seconds, not autobahn's one, for a client to answer
a close the server started (``talu_site.wsclose``): a slow client then still reads a refusal
(busy, 4013) instead of losing it, and its HTTP 101, to a TCP reset. The burst of
``tests/cluster/test_connection_burst.py`` is the same behaviour under load."""

from __future__ import annotations

from daphne.ws_protocol import WebSocketFactory

import talu_site.asgi  # noqa: F401  (applies the option, as daphne's import of it does)
from talu_site.wsclose import CLOSE_HANDSHAKE_TIMEOUT, lengthen_close_handshake


def factory() -> WebSocketFactory:
    f = WebSocketFactory(object, server="daphne")
    # What daphne's Server.run sets next: it must leave the close timeout alone.
    f.setProtocolOptions(autoPingTimeout=30, allowNullOrigin=True, openHandshakeTimeout=30)
    return f


def test_daphne_waits_ten_seconds_for_the_client_to_close():
    assert CLOSE_HANDSHAKE_TIMEOUT == 10.0
    assert factory().closeHandshakeTimeout == CLOSE_HANDSHAKE_TIMEOUT


def test_applying_again_changes_nothing():
    """asgi.py has applied it; a second call must not wrap autobahn's reset once more."""
    reset = WebSocketFactory.resetProtocolOptions
    lengthen_close_handshake()
    assert WebSocketFactory.resetProtocolOptions is reset
    f = factory()
    f.closeHandshakeTimeout = 3
    f.resetProtocolOptions()
    assert f.closeHandshakeTimeout == CLOSE_HANDSHAKE_TIMEOUT
