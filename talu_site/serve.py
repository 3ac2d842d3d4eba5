"""``python -m talu_site.serve [daphne options] talu_site.asgi:application``: daphne, with the
worker (``play.worker``) running inside the server process.

On the embedded defaults (``./dev serve``: SQLite, Channels' in-memory layer) there is no Redis
through which a separate worker process could reach the sockets, so the worker runs on the
server's own event loop: it is started when daphne is ready (daphne runs no ASGI lifespan, so
its ``ready_callable`` is the hook), before any request, so a due job runs whether or not anyone
is connected. With ``REDIS_URL`` set, production runs ``manage.py play_worker`` processes
instead (docker-compose.yml), and this launcher starts no worker unless
``TALU_EMBEDDED_WORKER=true`` says so.
"""

from __future__ import annotations

import asyncio
import os
import sys

from daphne.cli import CommandLineInterface
from daphne.server import Server


def _start_worker() -> None:
    from play.worker.loop import start_embedded

    start_embedded()


class ServerWithWorker(Server):
    """daphne's server that, once ready, schedules the worker on its event loop."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs["ready_callable"] = self._ready
        super().__init__(*args, **kwargs)

    def _ready(self) -> None:
        asyncio.get_event_loop().call_soon(_start_worker)


class CommandLineWithWorker(CommandLineInterface):
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
    cli = CommandLineWithWorker() if embedded_worker_wanted() else CommandLineInterface()
    cli.run(with_defaults(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    main()
