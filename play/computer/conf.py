"""The computer opponent's settings: read from the environment when the Django settings load
(``talu_site/settings.py``, where the defaults live), and from the Django settings here, like
``play.conf``."""

from __future__ import annotations

from django.conf import settings


def processes() -> int:
    """Processes of a worker's pool that think for the computer (0: a thread of the worker's
    own process, for tests and tiny installations). Bounded so that computer games never take
    the cores the server's steps need (a wave of them queues, it does not spread); the pool
    has one process more that only the cheap levels may take (``pool.QUICK_PROCESSES``)."""
    return int(settings.TALU_COMPUTER_PROCESSES)


def step_delay() -> float:
    """Seconds between two of the computer's steps, so the board animates its turn."""
    return float(settings.TALU_COMPUTER_STEP_DELAY)


def queue() -> int:
    """Computer turns one worker holds claimed at once (thinking or queued for the pool)."""
    return int(settings.TALU_COMPUTER_QUEUE)


def niceness() -> int:
    """How much lower the pool's processes run than the worker (``os.nice``): a search is
    CPU-bound for seconds, a person's step needs a few milliseconds of a server's CPU now, so
    on a busy machine the kernel gives the servers the core first (a wave of computer games
    thinks more slowly; it never makes human games wait). 0 keeps the worker's priority."""
    return int(settings.TALU_COMPUTER_NICE)


def idle() -> bool:
    """Whether the pool's processes run under ``SCHED_IDLE`` (Linux): they get only the CPU
    that nothing else wants, so a search never delays a server's step however busy the
    machine (``niceness`` is the fallback where the policy is missing). True by default."""
    return bool(settings.TALU_COMPUTER_IDLE)
