"""``python -m talu_site.serve [daphne options] talu_site.asgi:application``: daphne, with the
worker (``play.worker``) running inside the server process.

On the embedded defaults (``./dev serve``: SQLite, Channels' in-memory layer) there is no Redis
through which a separate worker process could reach the sockets, so the worker runs on the
server's own event loop: it is started when daphne is ready (daphne runs no ASGI lifespan, so
its ``ready_callable`` is the hook), before any request, so a due job runs whether or not anyone
is connected. With ``REDIS_URL`` set, production runs ``manage.py play_worker`` processes
instead (docker-compose.yml), and this launcher starts no worker unless
``TALU_EMBEDDED_WORKER=true`` says so.

Either way its HTTP connections answer a request line (the address) too long to read with a
414 in words, and a header line too long with a 431 (``LongLineChannel``), where Twisted drops
the connection without a word (issue 41, finding 11).
"""

from __future__ import annotations

import asyncio
import os
import re
import sys

from daphne.cli import CommandLineInterface
from daphne.server import Server
from twisted.web import http


def _start_worker() -> None:
    from play.worker.loop import start_embedded

    start_embedded()


_REQUEST_LINE = re.compile(rb"[A-Za-z]+ ")  # a method, then the address (a header: "Name:")
REFUSED_TIMEOUT = 10  # seconds a refused client has to read the answer and close


class LongLineChannel(http.HTTPChannel):
    """Twisted's HTTP/1.1 connection, answering a line longer than it reads (``MAX_LENGTH``,
    16 KiB) in words instead of dropping the connection unanswered.

    Twisted's ``LineReceiver`` calls ``lineLengthExceeded`` (its documented hook for this:
    "Override if it needs to be dealt with in some special way") and by default just closes:
    a 20 KB address got no answer at all. Here a request line gets 414 and a header line 431,
    the server stops writing (a half close) and reads and drops the rest of the request until
    the client closes or ``REFUSED_TIMEOUT`` passes: closing at once, with the request's unread
    bytes still arriving, would reset the connection and could lose the answer on the way.
    (Behind nginx the proxy answers 414 itself first: ``deploy/nginx.conf``.)"""

    refused = False

    def lineLengthExceeded(self, line: bytes) -> None:
        if _REQUEST_LINE.match(line):
            status, words = b"414 URI Too Long", (
                f"That address is too long: this server reads at most {self.MAX_LENGTH} "
                "bytes of a request line.\n")
        else:
            status, words = b"431 Request Header Fields Too Large", (
                f"A header of that request is too long: this server reads at most "
                f"{self.MAX_LENGTH} bytes of a header line.\n")
        body = words.encode()
        self.transport.write(b"HTTP/1.1 " + status + b"\r\nContent-Type: text/plain; "
                             b"charset=utf-8\r\nContent-Length: " + str(len(body)).encode()
                             + b"\r\nConnection: close\r\n\r\n" + body)
        self.refused = True
        self.setTimeout(REFUSED_TIMEOUT)
        half_close = getattr(self.transport, "loseWriteConnection", None)
        if half_close is not None:
            half_close()
        else:
            self.transport.loseConnection()

    def dataReceived(self, data: bytes) -> None:
        if self.refused:
            return  # the rest of a refused request: read and dropped
        super().dataReceived(data)


class SiteServer(Server):
    """daphne's server, its HTTP/1.1 connections ``LongLineChannel``s.

    daphne makes its HTTP factory in ``run``; the factory's ``protocol`` (Twisted's
    ``Factory`` API: what ``buildProtocol`` makes a connection of) is set as it is stored.
    With HTTP/2 installed (Twisted's ``http2`` extra, negotiated over TLS) the factory is left
    as it is: its default protocol chooses between the two."""

    @property
    def http_factory(self):
        return self._http_factory

    @http_factory.setter
    def http_factory(self, factory) -> None:
        if not http.H2_ENABLED:
            factory.protocol = LongLineChannel
        self._http_factory = factory


class CommandLine(CommandLineInterface):
    server_class = SiteServer


class ServerWithWorker(SiteServer):
    """daphne's server that, once ready, schedules the worker on its event loop."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs["ready_callable"] = self._ready
        super().__init__(*args, **kwargs)

    def _ready(self) -> None:
        asyncio.get_event_loop().call_soon(_start_worker)


class CommandLineWithWorker(CommandLine):
    server_class = ServerWithWorker


def embedded_worker_wanted() -> bool:
    """The worker runs in the server process unless real services carry it elsewhere
    (``TALU_EMBEDDED_WORKER``, by default true without ``REDIS_URL``). Read from the Django
    settings, which this loads: a bad value of any variable stops the launcher before daphne
    listens, as it stops ``manage.py`` commands."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "talu_site.settings")
    from django.conf import settings

    return bool(settings.TALU_EMBEDDED_WORKER)


#: Seconds daphne waits for a websocket handshake (issue 27, finding 7: with daphne's 5 s a
#: burst of 900 sockets to one process lost 329 handshakes unanswered and unlogged).
WEBSOCKET_CONNECT_TIMEOUT = 30


def with_defaults(argv: list[str]) -> list[str]:
    """daphne's options, with the site's handshake timeout unless the caller gave one: every
    way of starting the site through this launcher waits as long as the container does."""
    if any(a.startswith("--websocket_connect_timeout") for a in argv):
        return argv
    return ["--websocket_connect_timeout", str(WEBSOCKET_CONNECT_TIMEOUT), *argv]


def main(argv: list[str] | None = None) -> None:
    cli = CommandLineWithWorker() if embedded_worker_wanted() else CommandLine()
    cli.run(with_defaults(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    main()
