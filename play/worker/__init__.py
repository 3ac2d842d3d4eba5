"""The worker: timed and after-commit work of live games, safe with several copies running.

``play.worker.outbox`` claims due outbox rows (a finished game's subscribers) with conditional
updates, run in the worker's own background process (``play.worker.archiver``);
``play.worker.loop`` is the process's loop that runs the jobs, woken at once through
the channel layer and otherwise every ``TALU_WORKER_POLL`` seconds. It runs as its own process
in production (``manage.py play_worker``, several copies) and inside the server process on the
embedded defaults (``talu_site.serve``), where the in-memory channel layer reaches the sockets
only from the same process.
"""
