"""The embedded default's SQLite holds concurrent writers (issue 27, finding 11): WAL, a busy
timeout and transactions that take the write lock when they begin, so a writer waits for the
one before it instead of failing with "database is locked" (a 500 on
``/challenges/N/accept/``, a ``busy`` step). The figures of a club night are
``benchmarks/bench_club_night.py``'s (BENCHMARKS.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Several threads, each in a transaction that reads, waits a moment and then writes: the
# pattern of accepting a challenge or storing a step on the slow road. With SQLite's default
# deferred transactions the second writer cannot wait for the first (it already holds a read
# snapshot) and fails at once, whatever the busy timeout.
SCRIPT = r"""
import os, threading, time
import django
os.environ["DJANGO_SETTINGS_MODULE"] = "talu_site.settings"
django.setup()
from django.db import connection, connections, transaction

with connection.cursor() as c:
    c.execute("CREATE TABLE t (n integer)")
    c.execute("PRAGMA journal_mode")
    print("journal", c.fetchone()[0])
    c.execute("PRAGMA busy_timeout")
    print("busy_timeout", c.fetchone()[0])
connection.close()
errors = []

def writer(k):
    try:
        for _ in range(5):
            with transaction.atomic():
                with connection.cursor() as c:
                    c.execute("SELECT count(*) FROM t")
                    time.sleep(0.02)
                    c.execute("INSERT INTO t VALUES (%s)", [k])
    except Exception as err:
        errors.append(repr(err))
    finally:
        connections.close_all()

threads = [threading.Thread(target=writer, args=(k,)) for k in range(6)]
[t.start() for t in threads]
[t.join() for t in threads]
with connection.cursor() as c:
    c.execute("SELECT count(*) FROM t")
    print("rows", c.fetchone()[0])
print("errors", errors)
"""


def test_concurrent_writers_wait_instead_of_failing(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}", PYTHONPATH=str(ROOT),
               TALU_KEYRING=str(tmp_path / "keyring"), DJANGO_SETTINGS_MODULE="")
    proc = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "journal wal" in out
    assert "busy_timeout 20000" in out
    assert "rows 30" in out and "errors []" in out, out
