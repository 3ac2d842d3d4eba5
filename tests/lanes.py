"""The test lanes: what ``./dev test`` runs, and how (issue 35).

Django reads its settings once per process, so the suite is two pytest runs over one tree:

- the **embedded lane** (``TALU_TEST_LANE=embedded``): every test, on the embedded defaults
  (SQLite, the in-memory channel layer), the browser tests on one live site and the cluster
  tests on one stack of their own (PostgreSQL, a private Redis, several daphne processes);
- the **services lane** (``TALU_TEST_LANE=services``): the tests of the API, the registry's
  ledger and the websocket path again on PostgreSQL and Redis, as production runs them
  (``SERVICES_LANE``).

Both run in parallel workers (pytest-xdist, ``--dist loadgroup``: the browser tests share one
worker and its site, the cluster tests another and their stack). ``--fast`` is the embedded
lane without the browser and cluster tests, for every change. CI runs ``./dev test``: both
lanes, and an unreachable PostgreSQL or Redis fails it (``tests/stack.py``).

Usage (through ``./dev test``)::

    ./dev test                       both lanes, every test
    ./dev test --fast                the fast lane
    ./dev test tests/rules -k pass   pytest's own arguments, on the embedded lane
    ./dev test --services [ARGS]     the services lane (its modules, or ARGS)

``TALU_TEST_WORKERS`` sets the workers per lane (default: ``auto``, one per core; ``0`` runs in
one process).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The modules the services lane runs: the whole API (its schema test needs no database), the
#: ledger's PostgreSQL paths (COPY, compare-in-database, advisory lock, DISTINCT ON), and the
#: websocket path with its row locks and the Redis layer.
SERVICES_LANE: tuple[str, ...] = (
    "tests/api",
    *(f"tests/registry/{m}.py" for m in (
        "test_annul_cascade", "test_archiving", "test_correct", "test_recompute",
        "test_submission", "test_submission_rejected", "test_promotion_threshold",
        "test_live_rating_matches_recompute", "test_commands", "test_profile_page",
        "test_leaderboard", "test_large_ratings", "test_phase_ratings",
        # issue 36: another game's record kept once by two workers at once (unique insert)
        "test_game_records",
        # issue 36: the other games' ratings, two writers racing on their rows' locks
        "test_game_ratings_service", "test_game_ratings_race")),
    *(f"tests/site/{m}.py" for m in (
        "test_arbiter_and_resign", "test_sync_consistency", "test_steplog",
        "test_steplog_batch", "test_presence_heartbeat", "test_presence_counts",
        "test_hardening_pages", "test_rate_limits",
        # issue 22: row locks of an unplayed decision and of the co-champions' follow
        "test_hettlandic_corrections", "test_services_lane",
        # a round's start claimed by a conditional update, raced by two workers (docs/events.md)
        "test_events_schedule",
        # issue 40: a round asked to pair, claimed by a conditional update (two workers)
        "test_events_pairing_job",
        # issue 36: a game of three seats end to end, its ranks and seats written by the one
        # statement of the append on PostgreSQL
        "test_many_seats",
        # issue 37: a whole Talat game over the websocket, its seats' ranks and scores
        # written by that statement; a table's last seat raced by two people (a row lock)
        "test_talat_ws", "test_tables",
        # the computer's claim, each account's first turn first (a window function; issue 41)
        "test_computer_fair_share",
        # the pool's join/leave storms: conditional flips and the coalesced lobby over Redis
        "test_pool_fuzz")),
    "tests/site/test_ws_*.py",
)
SERVICES_DESELECT = ("tests/api/test_schema.py",)  # the schema is database-free

FAST = "not browser and not cluster"


def _expand(patterns: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for pattern in patterns:
        out += sorted(str(p.relative_to(ROOT)) for p in ROOT.glob(pattern)) if "*" in pattern \
            else [pattern]
    return out


def _workers() -> list[str]:
    value = os.environ.get("TALU_TEST_WORKERS", "auto").strip() or "auto"
    if value == "0":
        return []
    return ["-n", value, "--dist", "loadgroup"]


def run(lane: str, args: list[str]) -> int:
    """One pytest run of ``lane`` with ``args``; its exit status."""
    env = dict(os.environ, TALU_TEST_LANE=lane)
    env.pop("TALU_TEST_RUN", None)  # each lane is a run of its own
    command = [sys.executable, "-m", "pytest", *_workers(), *args]
    print(f"\n=== {lane} lane: {' '.join(command[2:])}", flush=True)
    started = time.monotonic()
    status = subprocess.run(command, cwd=ROOT, env=env).returncode
    print(f"=== {lane} lane: exit {status} in {time.monotonic() - started:.0f} s", flush=True)
    return status


def _names_tests(arg: str) -> bool:
    """Whether a pytest argument names tests (a path, a node id), not an option's value."""
    return not arg.startswith("-") and (ROOT / arg.split("::")[0]).exists()


def services_args(args: list[str]) -> list[str]:
    """The services lane's modules, unless ``args`` names tests of its own."""
    if any(_names_tests(a) for a in args):
        return args
    deselect = [x for path in SERVICES_DESELECT for x in ("--ignore", path)]
    return [*_expand(SERVICES_LANE), *deselect, *args]


def main(argv: list[str]) -> int:
    if argv[:1] == ["--fast"]:
        return run("embedded", ["-m", FAST, *argv[1:]])
    if argv[:1] == ["--services"]:
        return run("services", services_args(argv[1:]))
    if argv[:1] == ["--embedded"]:
        return run("embedded", argv[1:])
    if argv:
        return run("embedded", argv)
    started = time.monotonic()
    statuses = {"embedded": run("embedded", []), "services": run("services", services_args([]))}
    failed = [lane for lane, status in statuses.items() if status != 0]
    print(f"\n=== every test: {'failed in ' + ', '.join(failed) if failed else 'passed'} "
          f"({time.monotonic() - started:.0f} s)", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
