"""Migrated test databases, made once and copied (issue 35).

Every migration runs once per set of migrations, not once per test process, module or site:
the first process that needs a database migrates a *template* (a SQLite file under ``var/``,
or a PostgreSQL database ``test_talu_tpl_<hash>``), named by a hash of every migration file
and Django's version, and kept for later runs; every test database after it is a copy (a file
copy, or ``CREATE DATABASE ... TEMPLATE``, a few tens of milliseconds). A lock file serialises
the making of a template between the processes of a run (xdist's workers, the cluster
harness, the browser tests' site).

Used by ``tests/conftest.py``'s ``django_db_setup`` (the Django test database of a test
process), ``tests/site/livesite.py`` (the browser tests' site) and
``tests/cluster/harness.py`` (the cluster's database). No Django is configured here: the
template is migrated by ``manage.py migrate`` in a child process, so the cluster harness can use
this without setting Django up in the calling process.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parents[1]
VAR = ROOT / "var"


def migrations_hash() -> str:
    """A short hash of every migration file of the project and of Django's version: a new
    migration, an edited one or another Django makes a new template."""
    import django

    h = hashlib.sha256(django.get_version().encode())
    files = [*ROOT.glob("*/migrations/*.py"), *ROOT.glob("*/*/migrations/*.py")]
    for path in sorted(p for p in files if ".venv" not in p.parts):
        h.update(str(path.relative_to(ROOT)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:12]


@contextlib.contextmanager
def _lock() -> Iterator[None]:
    """One maker of templates at a time on this machine (every process of every run)."""
    path = Path(tempfile.gettempdir()) / "talu-test-template.lock"
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _migrate(database_url: str) -> None:
    """``manage.py migrate`` of the database at ``database_url``, in a child process with the
    settings' own environment (no REDIS_URL: migrations need no channel layer)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("REDIS_URL", "TALU_TEST_DB_NAME", "DJANGO_SETTINGS_MODULE")}
    env.update(DATABASE_URL=database_url, DJANGO_SETTINGS_MODULE="talu_site.settings")
    proc = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"migrating the test template failed:\n{proc.stdout}{proc.stderr}")


# --- SQLite ----------------------------------------------------------------------------------


def sqlite_template() -> Path:
    """The migrated SQLite template of this set of migrations (made when missing)."""
    path = VAR / f"test-template-{migrations_hash()}.sqlite3"
    if path.exists():
        return path
    VAR.mkdir(parents=True, exist_ok=True)
    with _lock():
        if path.exists():
            return path
        for old in VAR.glob("test-template-*.sqlite3*"):  # an older set of migrations
            old.unlink(missing_ok=True)
        partial = path.with_suffix(".partial")
        partial.unlink(missing_ok=True)
        _migrate(f"sqlite:///{partial}")
        _checkpoint(partial)
        partial.rename(path)
    return path


def _checkpoint(path: Path) -> None:
    """Fold the WAL into the file (the settings open SQLite in WAL mode), so the one file is
    the whole database and can be copied alone."""
    import sqlite3

    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("PRAGMA journal_mode=DELETE")
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def copy_sqlite(target: str | Path) -> Path:
    """A migrated SQLite database at ``target`` (replacing what was there)."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(sqlite_template(), target)
    return target


# --- PostgreSQL ------------------------------------------------------------------------------


def admin(admin_url: str, sql: str) -> None:
    """Run ``sql`` on the server of ``admin_url``, outside a transaction (CREATE DATABASE)."""
    import psycopg

    with psycopg.connect(admin_url, autocommit=True, connect_timeout=10) as conn:
        conn.execute(sql)


def _exists(admin_url: str, name: str) -> bool:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True, connect_timeout=10) as conn:
        return conn.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                            (name,)).fetchone() is not None


def with_name(url: str, name: str) -> str:
    """``url`` naming the database ``name`` instead."""
    return urlunparse(urlparse(url)._replace(path="/" + name))


def postgresql_template(admin_url: str) -> str:
    """The name of the migrated PostgreSQL template of this set of migrations, on the server
    of ``admin_url`` (made when missing: migrated under another name, then renamed, so a
    half-made template is never copied)."""
    name = f"test_talu_tpl_{migrations_hash()}"
    if _exists(admin_url, name):
        return name
    with _lock():
        if _exists(admin_url, name):
            return name
        partial = f"{name}_partial"
        admin(admin_url, f'DROP DATABASE IF EXISTS "{partial}" WITH (FORCE)')
        admin(admin_url, f'CREATE DATABASE "{partial}"')
        _migrate(with_name(admin_url, partial))
        admin(admin_url, f'ALTER DATABASE "{partial}" RENAME TO "{name}"')
        _drop_old_templates(admin_url, keep=name)
    return name


def _drop_old_templates(admin_url: str, keep: str) -> None:
    """Templates of older sets of migrations go (one in use right now stays: no FORCE)."""
    import psycopg

    with psycopg.connect(admin_url, autocommit=True, connect_timeout=10) as conn:
        old = [row[0] for row in conn.execute(
            "SELECT datname FROM pg_database WHERE datname LIKE 'test\\_talu\\_tpl\\_%%' "
            "AND datname <> %s AND datname NOT LIKE '%%\\_partial'", (keep,))]
        for name in old:
            with contextlib.suppress(psycopg.Error):
                conn.execute(f'DROP DATABASE IF EXISTS "{name}"')


def create_postgresql(admin_url: str, name: str) -> str:
    """A migrated PostgreSQL database called ``name`` (replacing one of that name); its URL."""
    template = postgresql_template(admin_url)
    admin(admin_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin(admin_url, f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    return with_name(admin_url, name)


def drop_postgresql(admin_url: str, name: str) -> None:
    """Drop ``name`` (its sessions ended first); a failure is reported, not raised."""
    try:
        admin(admin_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    except Exception as err:  # a leftover database is not worth failing a run over
        print(f"could not drop {name}: {err}", file=sys.stderr)


# --- the Django test database of this process --------------------------------------------------


def setup_django_database() -> Callable[[], None]:
    """Make this process's Django test database a copy of the template and point Django's
    default connection at it (what Django's ``create_test_db`` does, without migrating).
    Returns the function that drops it at the end of the session."""
    from django.conf import settings
    from django.db import connections

    conn = connections["default"]
    vendor = conn.vendor
    # The settings' TEST NAME (talu_site/settings.py sets one; pytest-django adds xdist's
    # suffix), else Django's own rule for a test database's name.
    test_name = (conn.settings_dict.get("TEST", {}).get("NAME")
                 or f"test_{conn.settings_dict['NAME']}")
    admin = "" if vendor == "sqlite" else _url_of(conn.settings_dict)
    conn.close()
    if vendor == "sqlite":
        copy_sqlite(test_name)
    else:
        create_postgresql(admin, test_name)
    settings.DATABASES["default"]["NAME"] = test_name
    conn.settings_dict["NAME"] = test_name
    conn.ensure_connection()

    def teardown() -> None:
        for each in connections.all():
            each.close()
        if vendor == "sqlite":
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(f"{test_name}{suffix}").unlink(missing_ok=True)
        else:
            drop_postgresql(admin, test_name)

    return teardown


def _url_of(settings_dict: dict) -> str:
    """A postgres:// URL of a Django database's settings (user, host, port, name)."""
    user = settings_dict.get("USER") or ""
    password = settings_dict.get("PASSWORD") or ""
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{settings_dict['NAME']}"
