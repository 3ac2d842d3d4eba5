"""``manage.py play_worker``: the worker process (``play.worker``), any number of copies.

Each copy claims due work with conditional updates, so several run safely side by side
(docker-compose.yml runs two). Stops cleanly on SIGTERM or SIGINT; a job it was running when
killed harder is taken again once its claim runs out (``TALU_WORKER_LEASE``).
"""

from __future__ import annotations

import asyncio
import signal

from django.core.management.base import BaseCommand

from play.worker.loop import Worker, run_due


class Command(BaseCommand):
    help = "Run the live-play worker: archiving finished games and, later, clocks and pools."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--once", action="store_true",
                            help="run the due jobs once and exit (no loop)")

    def handle(self, *args, **options) -> None:
        if options["once"]:
            self.stdout.write(f"{run_due()} job(s) done")
            return
        asyncio.run(self._run())

    async def _run(self) -> None:
        worker = Worker()
        task = asyncio.ensure_future(worker.run())
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, task.cancel)
        self.stdout.write(f"worker {worker.name} started", ending="\n")
        self.stdout.flush()
        try:
            await task
        except asyncio.CancelledError:
            self.stdout.write(f"worker {worker.name} stopped")
