"""A real multi-process stack for the cluster tests and the load benchmark (issue 7).

Starts, on this machine and without Docker:

- a fresh PostgreSQL database (created on the server named by ``TALU_TEST_DATABASE_URL``,
  migrated once with ``manage.py migrate`` in a subprocess, dropped at the end);
- a private ``redis-server`` on a free port (``--save ""``: it keeps nothing, like a restarted
  production Redis) that can be stopped, killed and restarted on the same port. The system Redis
  on 6379 is never touched;
- N ``daphne talu_site.asgi:application`` processes on free ports with production-like settings
  (``DEBUG=false``, a random ``SECRET_KEY``), each of which can be stopped, killed with SIGKILL
  and restarted on the same port (the benchmarks serve ``benchmarks.relay:application``, the
  site's with their relay in front: ``asgi=``);
- M worker processes (``manage.py play_worker``, default one), as docker-compose runs them, each
  of which can be stopped, killed and restarted too.

Users, a game and session cookies are made by ``tests.cluster.seed`` in a subprocess with the
same environment, so this module never configures Django in the calling process (a pytest
session may already have Django set up on SQLite for tests/site).

Every process of the site (``migrate``, the seed, daphne, the workers) runs the code of one
source tree, ``root`` (by default this checkout), with ``python`` (by default this interpreter;
for another tree, that tree's ``.venv/bin/python`` when it has one, see ``tree_python``): so a
benchmark can start the same stack from two versions of the server side by side
(benchmarks/bench_endings.py).

Use::

    with Cluster(servers=2) as cl:
        seed = cl.seed(players=("alice", "bob"), spectators=("carol",))
        url = cl.ws_url(0, seed.game)          # ws://127.0.0.1:PORT/ws/game/<uuid>/
        headers = cl.headers(0, seed.cookies["alice"])
        cl.servers[0].kill(); cl.servers[0].start()
        cl.redis.stop(kill=True); cl.redis.start()
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

from registry.records import keys
from tests import stack, testdb

ROOT = Path(__file__).resolve().parents[2]
ADMIN_DATABASE_URL = stack.DATABASE_URL  # one place for the test services' addresses
REDIS_SERVER = os.environ.get("TALU_TEST_REDIS_SERVER") or shutil.which("redis-server") \
    or "/usr/bin/redis-server"
START_TIMEOUT = float(os.environ.get("TALU_CLUSTER_START_TIMEOUT", "60"))


class ClusterUnavailable(RuntimeError):
    """PostgreSQL or the redis-server binary is missing: the stack cannot be started."""


def tree_python(root: str | Path) -> str:
    """The interpreter that runs a source tree's code: its own ``.venv/bin/python`` when it
    has one (the dependencies that tree was installed with), else this one. ``PYTHONPATH`` and
    the working directory (``Cluster.env``, the commands below) make the tree's own modules win
    over an editable install of another tree in that interpreter."""
    venv = Path(root) / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_open(port: int, host: str = "127.0.0.1", timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((host, port), timeout):
            return True
    except OSError:
        return False


def problems() -> list[str]:
    """What stops the stack from starting here (empty when it can start)."""
    found = []
    u = urlparse(ADMIN_DATABASE_URL)
    if not port_open(u.port or 5432, u.hostname or "127.0.0.1", 3):
        found.append(f"PostgreSQL unreachable at {u.hostname}:{u.port or 5432}")
    if not Path(REDIS_SERVER).exists():
        found.append(f"redis-server binary not found ({REDIS_SERVER}); apt-get install "
                     "redis-server")
    return found


def require_stack() -> None:
    """Fail (under CI=true) or skip (elsewhere) when the stack cannot start. For pytest."""
    stack.require("PostgreSQL and redis-server (for the cluster tests)", problems())


def _wait(predicate, timeout: float, what: str, interval: float = 0.1) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(interval)
    raise TimeoutError(f"timed out after {timeout:.0f}s waiting for {what}")


# --- PostgreSQL -------------------------------------------------------------------------------


class Database:
    """A throw-away PostgreSQL database on the test server: a copy of the migrated template
    (``tests/testdb.py``) for this checkout's code, migrated in place for another tree's."""

    def __init__(self, admin_url: str = ADMIN_DATABASE_URL, name: str | None = None):
        self.admin_url = admin_url
        self.name = name or f"talu_cluster_{os.getpid()}_{secrets.token_hex(3)}"
        self.url = testdb.with_name(admin_url, self.name)

    def create(self, migrated: bool = False) -> None:
        """Create it: empty, or (``migrated``) a copy of this checkout's migrated template."""
        if migrated:
            testdb.create_postgresql(self.admin_url, self.name)
        else:
            testdb.admin(self.admin_url, f'CREATE DATABASE "{self.name}"')

    def drop(self) -> None:
        testdb.drop_postgresql(self.admin_url, self.name)

    def pending_jobs(self) -> int:
        """Outbox rows due and not yet done (a game ended and not yet archived...)."""
        import psycopg

        with psycopg.connect(self.url, autocommit=True, connect_timeout=10) as conn:
            return conn.execute("SELECT count(*) FROM play_outbox WHERE done IS NULL "
                                "AND due <= now()"
                                ).fetchone()[0]


# --- Redis ------------------------------------------------------------------------------------


class RedisServer:
    """A private redis-server that keeps nothing on disk; restartable on the same port."""

    def __init__(self, workdir: Path, port: int | None = None):
        self.port = port or free_port()
        self.workdir = workdir
        self.proc: subprocess.Popen | None = None
        self.log = workdir / f"redis-{self.port}.log"

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        assert self.proc is None or self.proc.poll() is not None, "redis already running"
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--dir", str(self.workdir), "--protected-mode", "no",
                 "--maxclients", "10000"],
                stdout=log, stderr=subprocess.STDOUT, cwd=self.workdir)
        _wait(lambda: self.ping(), START_TIMEOUT, f"redis-server on port {self.port}")

    def ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), 0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self, kill: bool = False) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(15)


# --- daphne and the worker ---------------------------------------------------------------------


def _log_path(workdir: Path, name: str) -> Path:
    """A log of its own for each process object (its restarts append to it): one stack serves
    a whole test session, and a test reading its processes' logs must not read an earlier
    module's processes' (a worker of the Redis restart test logged its lost connections)."""
    return workdir / f"{name}-{secrets.token_hex(3)}.log"


class _SiteProcess:
    """A process of the site (a daphne server or a worker) with its log in ``workdir``, run
    from source tree ``root`` with interpreter ``python``."""

    def __init__(self, index: int, env: dict[str, str], log: Path, root: Path = ROOT,
                 python: str = sys.executable):
        self.index = index
        self.env = env
        self.proc: subprocess.Popen | None = None
        self.log = log
        self.root = root
        self.python = python

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def _spawn(self, args: list[str]) -> None:
        assert not self.running, f"{self!r} already running"
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT,
                                         cwd=self.root, env=self.env)

    def stop(self) -> None:
        """SIGTERM, and SIGKILL if it has not gone within 20 s."""
        if not self.running:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(15)

    def kill(self) -> None:
        """SIGKILL: no close frames, no cleanup, like a crashed machine."""
        if self.running:
            self.proc.kill()
            self.proc.wait(15)

    def tail(self, chars: int = 4000) -> str:
        try:
            return self.log.read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.index})"


class ServerProcess(_SiteProcess):
    """One daphne process of the site on a fixed port."""

    def __init__(self, index: int, env: dict[str, str], workdir: Path, port: int | None = None,
                 asgi: str = "talu_site.asgi:application", root: Path = ROOT,
                 python: str = sys.executable):
        self.port = port or free_port()
        super().__init__(index, env, _log_path(workdir, f"daphne-{index}-{self.port}"), root,
                         python)
        self.asgi = asgi
        self.workdir = workdir

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, wait: bool = True) -> None:
        self._spawn([self.python, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port),
                     "--websocket_connect_timeout", "30", self.asgi])
        if wait:
            self.wait_healthy()

    def health(self) -> tuple[int, dict] | None:
        """(status, JSON body) of GET /healthz, or None when nothing answers."""
        try:
            with urllib.request.urlopen(self.base_url + "/healthz", timeout=3) as resp:
                return resp.status, json.loads(resp.read() or b"{}")
        except urllib.error.HTTPError as err:
            try:
                body = json.loads(err.read() or b"{}")
            except ValueError:
                body = {}
            return err.code, body
        except (OSError, ValueError):
            return None

    def wait_healthy(self, timeout: float = START_TIMEOUT) -> None:
        def ok() -> bool:
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"server {self.index} exited with {self.proc.returncode}; "
                                   f"log:\n{self.tail()}")
            h = self.health()
            return h is not None and h[0] == 200

        _wait(ok, timeout, f"server {self.index} on port {self.port} to be healthy", 0.2)


class WorkerProcess(_SiteProcess):
    """One ``manage.py play_worker`` process (play/worker/): archives finished games."""

    def __init__(self, index: int, env: dict[str, str], workdir: Path, root: Path = ROOT,
                 python: str = sys.executable):
        super().__init__(index, env, _log_path(workdir, f"worker-{index}"), root, python)

    def start(self) -> None:
        self._spawn([self.python, "manage.py", "play_worker"])
        _wait(lambda: "started" in self.tail() or not self.running, START_TIMEOUT,
              f"worker {self.index} to start")
        if not self.running:
            raise RuntimeError(f"worker {self.index} exited:\n{self.tail()}")


# --- the whole stack --------------------------------------------------------------------------


@dataclass
class Seed:
    """What ``Cluster.seed`` made: the game's uuid and a session cookie per user name."""

    game: str
    cookies: dict[str, str]


class Cluster:
    """PostgreSQL database + private Redis + N daphne processes + M workers (a context
    manager). ``root``: the source tree whose code every process runs (default: this
    checkout); ``python``: its interpreter (default: ``tree_python(root)`` for another tree,
    this interpreter for this checkout)."""

    def __init__(self, servers: int = 2, env: dict[str, str] | None = None,
                 workdir: str | Path | None = None, workers: int = 1,
                 asgi: str = "talu_site.asgi:application", root: str | Path | None = None,
                 python: str | None = None):
        self.n = servers
        self.root = Path(root).resolve() if root is not None else ROOT
        self.python = python or (tree_python(self.root) if root is not None else sys.executable)
        self.n_workers = workers
        self.asgi = asgi
        self.workers: list[WorkerProcess] = []
        self._own_workdir = workdir is None
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="talu-cluster-"))
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.database = Database()
        self.redis = RedisServer(self.workdir)
        self.extra_env = dict(env or {})
        self.servers: list[ServerProcess] = []
        self._db_created = False
        self.secret_key = secrets.token_urlsafe(40)  # one per cluster: sessions stay valid

    def env(self) -> dict[str, str]:
        """The environment of every server process (and of the seed subprocess); the same on
        every call, so a caller can configure Django like the servers (same database, keyring
        and SECRET_KEY, hence valid session cookies)."""
        env = dict(os.environ)
        for name in ("DJANGO_SETTINGS_MODULE", "TALU_TEST_LANE", "TALU_TEST_DB_NAME"):
            env.pop(name, None)
        env.update({
            "DJANGO_SETTINGS_MODULE": "talu_site.settings",
            "DEBUG": "false",
            "SECRET_KEY": self.secret_key,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_COOKIES": "false",
            "DATABASE_URL": self.database.url,
            "REDIS_URL": self.redis.url,
            "TALU_KEYRING": str(self.workdir / "keyring"),
            "TALU_CHANNEL_PREFIX": f"talu-cluster-{os.getpid()}",
            "TALU_WS_HEARTBEAT": "1",
            # Load and burst tests open thousands of sockets, and hundreds of players join pools
            # and open challenges, from this one address: the limits per address
            # (talu_site/ratelimit.py) would refuse them; their tests are their own.
            "TALU_RATE_WS_CONNECT": "off",
            "TALU_RATE_POOL_JOIN_ADDRESS": "off",
            "TALU_RATE_CHALLENGE_ADDRESS": "off",
            "LOG_LEVEL": "WARNING",
            "PYTHONPATH": str(self.root),
            "PYTHONUNBUFFERED": "1",
        })
        env.update(self.extra_env)
        return env

    def start(self) -> Cluster:
        found = problems()
        if found:
            raise ClusterUnavailable("; ".join(found))
        self.redis.start()
        own_tree = self.root == ROOT
        self.database.create(migrated=own_tree)
        self._db_created = True
        self._env = self.env()
        if not own_tree:  # another version's migrations: not this checkout's template
            self.manage("migrate", "--noinput", "-v", "0")
        self._start_processes()
        return self

    def _start_processes(self) -> None:
        self.servers = [ServerProcess(i, self._env, self.workdir, asgi=self.asgi,
                                      root=self.root, python=self.python)
                        for i in range(self.n)]
        for s in self.servers:
            s.start(wait=False)
        self.workers = [WorkerProcess(i, self._env, self.workdir, self.root, self.python)
                        for i in range(self.n_workers)]
        for w in self.workers:
            w.start()
        for s in self.servers:
            s.wait_healthy()

    def _stop_processes(self) -> None:
        for p in [*self.workers, *self.servers]:
            try:
                p.stop()
            except Exception as err:  # keep stopping the others
                print(f"stopping {p!r}: {err}", file=sys.stderr)

    def configure(self, servers: int, workers: int, env: dict[str, str]) -> Cluster:
        """The running stack with ``servers`` daphne processes, ``workers`` workers and
        ``env`` on top of the base environment: the same processes when they already are (a
        killed one started again), else new ones, on the same database and Redis. One stack
        serves a whole test session (tests/cluster/conftest.py); each module states what it
        needs, and isolation between modules is by data (each test seeds its own game).
        Work left by the previous configuration is finished first (its workers archive every
        game that ended), so no module inherits another's jobs."""
        if not self.redis.ping():
            self.redis.start()
        same = (servers, workers, dict(env)) == (self.n, self.n_workers, self.extra_env)
        if same:
            for p in [*self.servers, *self.workers]:
                if not p.running:
                    p.start()
            for s in self.servers:
                s.wait_healthy()
            return self
        if self.workers:
            _wait(lambda: self.database.pending_jobs() == 0, START_TIMEOUT,
                  "the workers to finish the jobs of the previous tests")
        self._stop_processes()
        self.n, self.n_workers, self.extra_env = servers, workers, dict(env)
        self._env = self.env()
        self._start_processes()
        return self

    def stop(self) -> None:
        self._stop_processes()
        self.redis.stop()
        if self._db_created:
            self.database.drop()
        keys.stop_agent(self.workdir / "keyring")  # signing started one; it outlived runs
        if self._own_workdir and not os.environ.get("TALU_CLUSTER_KEEP"):
            shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self) -> Cluster:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc) -> None:
        self.stop()

    # --- helpers ------------------------------------------------------------------------------

    def manage(self, *args: str, timeout: float = 300) -> str:
        proc = subprocess.run([self.python, "manage.py", *args], cwd=self.root, env=self._env,
                              capture_output=True, text=True, timeout=timeout)
        if proc.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{proc.stdout}{proc.stderr}")
        return proc.stdout

    def seed(self, players: tuple[str, str] = ("alice", "bob"),
             spectators: tuple[str, ...] = (), variant: str = "standard",
             rated: bool = True) -> Seed:
        """Users (players[0] plays I, players[1] O), a live game, a session cookie each."""
        args = ["--variant", variant, "--players", *players]
        if spectators:
            args += ["--spectators", *spectators]
        if not rated:
            args.append("--unrated")
        data = self._seed(args)
        return Seed(game=data["game"], cookies=data["cookies"])

    def accounts(self, names: list[str] | tuple[str, ...]) -> dict[str, str]:
        """Logged-in accounts and no game (the pool's players): a session cookie per name."""
        return self._seed(["--accounts", *names])["cookies"]

    def _seed(self, args: list[str]) -> dict:
        proc = subprocess.run([self.python, "-m", "tests.cluster.seed", *args], cwd=self.root,
                              env=self._env, capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            raise RuntimeError(f"seeding failed:\n{proc.stdout}{proc.stderr}")
        return json.loads(proc.stdout.strip().splitlines()[-1])

    def ws_url(self, server: int, game: str, last_version: int | None = None) -> str:
        url = f"ws://127.0.0.1:{self.servers[server].port}/ws/game/{game}/"
        if last_version is not None:
            url += f"?last_version={last_version}"
        return url

    def headers(self, server: int, cookie: str = "") -> dict[str, str]:
        """Handshake headers: an allowed Origin, and the session cookie when given."""
        headers = {"Origin": f"http://127.0.0.1:{self.servers[server].port}"}
        if cookie:
            headers["Cookie"] = cookie
        return headers
