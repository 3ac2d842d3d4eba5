"""A request line or header longer than daphne reads (issue 41, finding 11): a 20 KB URL used to
drop the connection with no answer at all (Twisted's ``LineReceiver`` closes on a line over
16 KiB); the launcher's connections (``talu_site.serve.LongLineChannel``) answer 414 for the
address and 431 for a header, in words. Production's nginx answers 414 itself before
(``deploy/nginx.conf``, ``large_client_header_buffers``).

The connection is tried alone here (Twisted's in-memory transport); the live site (the one
``python -m talu_site.serve`` of the browser tests, hence marked with them) is asked over TCP.
"""

from __future__ import annotations

import socket
from urllib.parse import urlparse

import pytest
from daphne.http_protocol import HTTPFactory
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport

from talu_site.serve import LongLineChannel, SiteServer

LONG_PATH = "/games/?q=" + "a" * 20_000


class HalfClosable(StringTransport):
    """A TCP connection's transport as the channel sees it, its half close recorded."""

    write_closed = False

    def loseWriteConnection(self) -> None:
        self.write_closed = True


def _connection():
    """A connection of the launcher's server, built as daphne builds one in ``run``."""
    server = SiteServer(application=None, endpoints=["tcp:port=0:interface=127.0.0.1"])
    server.connections = {}  # what ``run`` sets up before the factory
    server.http_factory = HTTPFactory(server)
    server.http_factory.reactor = Clock()
    channel = server.http_factory.buildProtocol(None)
    assert isinstance(channel, LongLineChannel)
    transport = HalfClosable()
    channel.makeConnection(transport)
    return channel, transport


def test_a_20_kb_address_is_answered_414_in_words():
    channel, transport = _connection()
    channel.dataReceived(f"GET {LONG_PATH} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    answer = transport.value().decode()
    assert answer.startswith("HTTP/1.1 414 URI Too Long\r\n"), answer[:200]
    assert "That address is too long" in answer and "Connection: close" in answer
    assert transport.write_closed  # the answer, then the end of what the server writes
    channel.dataReceived(b"x" * 50_000)  # the rest of the request: read and dropped
    assert transport.value().decode() == answer


def test_a_line_still_arriving_past_the_limit_is_answered_too():
    """The address arrives in pieces and passes 16 KiB before its end: the same answer."""
    channel, transport = _connection()
    channel.dataReceived(b"GET /" + b"b" * 10_000)
    assert transport.value() == b""
    channel.dataReceived(b"b" * 10_000)
    assert transport.value().startswith(b"HTTP/1.1 414 ")


def test_a_20_kb_header_is_answered_431_in_words():
    channel, transport = _connection()
    channel.dataReceived(b"GET / HTTP/1.1\r\nHost: x\r\nCookie: " + b"c" * 20_000 + b"\r\n\r\n")
    answer = transport.value().decode()
    assert answer.startswith("HTTP/1.1 431 Request Header Fields Too Large\r\n"), answer[:200]
    assert "A header of that request is too long" in answer


def _ask(base: str, request: bytes) -> bytes:
    """Send ``request`` to the live site and read its whole answer (until it closes)."""
    url = urlparse(base)
    with socket.create_connection((url.hostname, url.port), timeout=10) as conn:
        conn.sendall(request)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
            if b"\r\n\r\n" in answer and b"HTTP/1.1 101" in answer:
                break  # a websocket: it stays open
    return answer


@pytest.mark.browser
def test_the_live_site_answers_a_20_kb_address_and_still_serves(live_site):
    host = urlparse(live_site.base).netloc
    answer = _ask(live_site.base, f"GET {LONG_PATH} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    assert answer.startswith(b"HTTP/1.1 414 "), answer[:200]
    assert b"That address is too long" in answer
    ok = _ask(live_site.base, f"GET /healthz HTTP/1.1\r\nHost: {host}\r\nConnection: close"
                              "\r\n\r\n".encode())
    assert ok.startswith(b"HTTP/1.1 200"), ok[:200]
    # Websockets still open through the launcher's connections (daphne's upgrade).
    upgraded = _ask(live_site.base, (
        f"GET /ws/lobby/ HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n").encode())
    assert upgraded.startswith(b"HTTP/1.1 101"), upgraded[:200]
