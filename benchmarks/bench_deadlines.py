"""Clock deadlines at scale (issue 20): what finding due deadlines costs the worker, and how long
after a deadline the flag reaches the players.

    nice .venv/bin/python benchmarks/bench_deadlines.py                  # ~3 min
    nice .venv/bin/python benchmarks/bench_deadlines.py --corr 1000 --live 100 --idle 10 \\
        --window 20                                                       # smoke run
    nice .venv/bin/python benchmarks/bench_deadlines.py --idle 10 --trace --sockets 100
                                      # where the time goes, and to real websockets (~2.5 min)

Needs PostgreSQL (``TALU_TEST_DATABASE_URL``, default postgres://postgres@127.0.0.1:5432/test;
a throw-away database is made beside it and dropped) and Redis (``--redis``, default
redis://127.0.0.1:6379/13: the production channel layer, through which flags reach sockets).

Seeded: ``--corr`` correspondence games (3 days per turn, deadlines days away) and ``--live``
live timed games (fischer 300+3) whose opening-turn deadlines fall evenly over the ``--window``
seconds after the start: each is aborted at its deadline by the clock's flag (R36/R37), the
same command path as a flag on time. The rows are bulk-inserted as the lobby would leave them
(version 0, deadline on the row); registry archiving is not run here (``bench_endings``
measures game ends): the worker's ``finished`` subscribers are left empty, so the rounds
measured are the clock's job and the outbox's bookkeeping.

Measured, with the worker (``play.worker.loop.Worker``, as ``manage.py play_worker`` runs it)
on this process's event loop:

1. idle: ``--idle`` seconds with all 11,000 games running and none due: the worker's CPU
   (this process's user+system time) per second of wall time, i.e. the cost of finding due
   deadlines (per round one indexed query per job, flags and resumptions, that finds both
   the due games and the next time);
2. flags: the ``--window``: for each live game, the delay from its deadline to its flag's
   ``update`` arriving on a channel subscribed to the game's group through Redis, where its
   players' sockets would get it (p50, p99, max), and the process's CPU per wall second.

``--trace`` also times each flag's way in this process (p50/p99 of each part, ms): ``loop``
the deadline to the worker's clock round beginning (on the worker's loop, in older trees),
``dispatch`` to the round running on its thread, ``query`` the due games found, ``decide``
the flags decided (rows read, states, the pure core), ``append`` the one statement, ``finish``
the outcomes made (the snapshot, the players block) until the announcement begins,
``publish`` the group send, ``deliver`` Redis to the listener. The functions timed are
wrapped by name (``play.worker.loop``, ``play.worker.clock_thread``, ``play.worker.clocks``,
``play.store.log``), so the same script times an older tree's worker the same way.

``--sockets N`` also starts a daphne (``talu_site.asgi``, same database and Redis, no worker)
and a separate client process with one anonymous spectator's websocket on each of N live
games spread over the window: the delay from the deadline to the flag's ``update`` frame on
the socket, i.e. including daphne's delivery (``socket``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def make_database(server_url: str) -> tuple[str, str]:
    import psycopg

    name = f"bench_deadlines_{os.getpid()}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    parts = urlsplit(server_url)
    return name, urlunsplit(parts._replace(path="/" + name))


def drop_database(server_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


PHASES = (("loop", "deadline", "round"), ("dispatch", "round", "thread"),
          ("query", "thread", "found"), ("decide", "found", "append"),
          ("append", "append", "appended"), ("finish", "appended", "publish"),
          ("publish", "publish", "published"), ("deliver", "published", "arrived"))


def install_trace(trace: dict[str, dict[str, float]]) -> None:
    """Wrap the clock's path by name to note when each flag passes each point (epoch s):
    ``trace[uuid][point]``. Rounds of the clock job run one at a time, so the round's own
    points (its start on the worker's loop, when it has one, and on its thread) are kept in
    ``cur`` and given to the games its query found. Works on the trees before and after the
    clock's own thread (``play.worker.clock_thread``): what a tree lacks is not wrapped."""
    import importlib

    from play.store import log as event_log
    from play.worker import clocks
    from play.worker import loop as wl

    cur: dict[str, object] = {}
    if hasattr(wl.Worker, "clock_round"):  # the clock job on the worker's loop
        orig_round = wl.Worker.clock_round

        async def clock_round(self):
            cur.clear()
            cur["round"] = time.time()
            await orig_round(self)

        wl.Worker.clock_round = clock_round
    orig_run = clocks.run_round

    def run_round(*args, **kw):
        cur["thread"] = time.time()
        cur.setdefault("round", cur["thread"])
        try:
            return orig_run(*args, **kw)
        finally:
            cur.clear()

    clocks.run_round = run_round
    due_name = "_due_flag_rows" if hasattr(clocks, "_due_flag_rows") else "_due_flags"
    orig_due = getattr(clocks, due_name)

    def due_flags(now, limit):
        out = orig_due(now, limit)
        t = time.time()
        found = out if due_name == "_due_flag_rows" else out[0]
        cur["uuids"] = [str(getattr(u, "uuid", u)) for u in found]
        for u in cur["uuids"]:
            trace.setdefault(u, {}).update(round=cur.get("round"), thread=cur.get("thread"),
                                           found=t)
        return out

    setattr(clocks, due_name, due_flags)
    orig_many = event_log.append_many

    def append_many(batches):
        t = time.time()
        try:
            return orig_many(batches)
        finally:
            e = time.time()
            for u in cur.get("uuids", []):
                trace.setdefault(u, {}).update(append=t, appended=e)

    event_log.append_many = append_many
    for name in ("play.worker.loop", "play.worker.clock_thread"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(module, "announce"):
            _wrap_announce(module, trace)


def _wrap_announce(module, trace: dict[str, dict[str, float]]) -> None:
    orig = module.announce

    async def announce(game_uuid, outcome, **kw):
        rec = trace.setdefault(str(game_uuid), {})
        rec["publish"] = time.time()
        await orig(game_uuid, outcome, **kw)
        rec["published"] = time.time()

    module.announce = announce


def phases(trace: dict[str, dict[str, float]], live: dict[str, float],
           arrived: dict[str, float]) -> dict[str, dict[str, float | None]]:
    """Each part of the flags' way, p50/p99/max in ms (over the flags that passed both ends)."""
    out = {}
    for name, a, b in PHASES:
        values = []
        for u, rec in trace.items():
            points = {**rec, "deadline": live.get(u), "arrived": arrived.get(u)}
            if points.get(a) is not None and points.get(b) is not None:
                values.append((points[b] - points[a]) * 1000)
        out[name] = {"p50": _r(pct(values, 0.5)), "p99": _r(pct(values, 0.99)),
                     "max": _r(max(values) if values else None), "n": len(values)}
    return out


def _r(v: float | None) -> float | None:
    return None if v is None else round(v, 1)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_daphne(port: int) -> subprocess.Popen:
    """A daphne of the site on ``port`` (this process's environment: the same database and
    Redis), its log in a temporary file; returns once it accepts connections."""
    import socket

    fd, log = tempfile.mkstemp(prefix="bench-deadlines-daphne-", suffix=".log")
    env = dict(os.environ, TALU_RATE_WS_CONNECT="off", TALU_EMBEDDED_WORKER="false")
    proc = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                             "--websocket_connect_timeout", "30", "talu_site.asgi:application"],
                            cwd=ROOT, env=env, stdout=fd, stderr=subprocess.STDOUT)
    os.close(fd)
    deadline = time.time() + 60
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"daphne exited; see {log}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"daphne did not start; see {log}")


def socket_client(port: int, game_ids: list[str], until: float, conn) -> None:
    """In its own process: one spectator's websocket per game; sends back, through ``conn``,
    how many opened once all have tried, then {game id: epoch s the flag's ``update`` frame
    arrived}."""
    import asyncio as aio

    import websockets

    arrived: dict[str, float] = {}

    gate = aio.Semaphore(4)  # daphne drops a handshake not done in 5 s: a few at a time

    async def open_socket(url: str):
        for _ in range(5):
            async with gate:
                try:
                    return await websockets.connect(url, origin="http://localhost",
                                                    max_size=None, open_timeout=30)
                except (OSError, TimeoutError, websockets.WebSocketException):
                    await aio.sleep(0.5)
        return None

    async def watch(game_id: str, opened: list[int]) -> None:
        url = f"ws://127.0.0.1:{port}/ws/game/{game_id}/"
        ws = await open_socket(url)
        if ws is None:
            opened.append(0)
            return
        async with ws:
            opened.append(1)
            while time.time() < until:
                try:
                    text = await aio.wait_for(ws.recv(), timeout=max(0.1, until - time.time()))
                except TimeoutError:
                    return
                t = time.time()
                frame = json.loads(text)
                # the first update is the game as it stands (version 0); the flag's is 1
                if frame.get("type") == "update" and frame.get("version", 0) >= 1:
                    arrived[game_id] = t
                    return

    async def main() -> None:
        opened: list[int] = []
        tasks = [aio.ensure_future(watch(g, opened)) for g in game_ids]
        while len(opened) < len(game_ids):
            await aio.sleep(0.1)
        conn.send(sum(opened))
        await aio.gather(*tasks, return_exceptions=True)

    aio.run(main())
    conn.send(arrived)


def seed(n_corr: int, n_live: int, window: float, lead: float) -> tuple[dict[str, float], float]:
    """The games; returns {uuid: deadline (epoch s)} of the live ones and the seeding time."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from play.models import Game

    t0 = time.monotonic()
    User = get_user_model()
    a = User.objects.create(username="bench-i")
    b = User.objects.create(username="bench-o")
    now = timezone.now()
    rows = []
    for k in range(n_corr):
        created = now - timedelta(seconds=(k * 17) % 86_400)
        rows.append(Game(player_i=a, player_o=b, rated=False, time_control="correspondence 3d",
                         created=created, deadline=created + timedelta(days=3)))
    live: dict[str, float] = {}
    for k in range(n_live):
        due = now + timedelta(seconds=lead + window * (k + 0.5) / n_live)
        g = Game(player_i=a, player_o=b, rated=False, time_control="fischer 300+3",
                 uuid=uuid.uuid4(), created=due - timedelta(seconds=30), deadline=due)
        rows.append(g)
        live[str(g.uuid)] = due.timestamp()
    Game.objects.bulk_create(rows, batch_size=1000)
    # auto_now_add overrode ``created``: put it back (the clocks start there)
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("UPDATE play_game SET created = deadline - interval '30 seconds' "
                    "WHERE time_control = 'fischer 300+3'")
        cur.execute("UPDATE play_game SET created = deadline - interval '3 days' "
                    "WHERE time_control = 'correspondence 3d'")
        cur.execute("ANALYZE play_game")
    return live, time.monotonic() - t0


async def measure(live: dict[str, float], idle: float, window: float, lead: float,
                  start_wall: float, trace: dict[str, dict[str, float]] | None = None,
                  sockets: int = 0) -> dict:
    from channels.layers import get_channel_layer

    from play.live.delivery import group_name
    from play.worker.loop import Worker

    layer = get_channel_layer()
    arrived: dict[str, float] = {}
    channel = await layer.new_channel("bench.")
    for game_id in live:
        await layer.group_add(group_name(game_id), channel)

    async def listen() -> None:
        while True:
            msg = await layer.receive(channel)
            if msg.get("type") != "game.update":
                continue
            t = time.time()
            text = msg.get("text")
            update = json.loads(text) if text else msg.get("update") or {}
            game_id = (update.get("game") or {}).get("id")
            if game_id in live and game_id not in arrived:
                arrived[game_id] = t

    listener = asyncio.ensure_future(listen())
    if trace is not None:
        install_trace(trace)
    worker = asyncio.ensure_future(Worker("bench").run())
    daphne = client = conn = None
    if sockets:
        import multiprocessing as mp

        port = free_port()
        daphne = start_daphne(port)
        ordered = sorted(live, key=live.get)
        watched = ordered[::max(1, len(ordered) // sockets)][:sockets]
        conn, child = mp.Pipe()
        client = mp.get_context("spawn").Process(
            target=socket_client, args=(port, watched, start_wall + lead + window + 3, child))
        client.start()
        opened = await asyncio.get_running_loop().run_in_executor(None, conn.recv)
    await asyncio.sleep(2)  # the worker's first rounds (connections, caches)
    # 1. idle: nothing due until ``lead`` seconds after the start
    c0, w0 = cpu(), time.monotonic()
    await asyncio.sleep(max(1.0, min(idle, lead - (time.time() - start_wall) - 1)))
    idle_cpu = (cpu() - c0) / (time.monotonic() - w0)
    idle_wall = time.monotonic() - w0
    # 2. flags over the window
    c1, w1 = cpu(), time.monotonic()
    end = start_wall + lead + window + 3
    while time.time() < end and len(arrived) < len(live):
        await asyncio.sleep(0.5)
    flag_cpu = (cpu() - c1) / (time.monotonic() - w1)
    worker.cancel()
    listener.cancel()
    delays = [(arrived[g] - live[g]) * 1000 for g in arrived]
    extra: dict = {}
    if trace is not None:
        extra["phases_ms"] = phases(trace, live, arrived)
        # the ten latest flags, each point in ms after the deadline (where the time went)
        worst = sorted(arrived, key=lambda g: arrived[g] - live[g])[-10:]
        extra["worst_ms"] = [{p: round((t - live[g]) * 1000, 1) for p, t in
                              {**trace.get(g, {}), "arrived": arrived[g]}.items() if t}
                             for g in worst]
    if client is not None:
        on_socket = await asyncio.get_running_loop().run_in_executor(None, conn.recv)
        client.join(10)
        daphne.terminate()
        daphne.wait(10)
        socket_delays = [(t - live[g]) * 1000 for g, t in on_socket.items()]
        extra.update(sockets_watched=sockets, sockets_opened=opened,
                     sockets_heard=len(on_socket),
                     socket_delay_ms_p50=_r(pct(socket_delays, 0.5)),
                     socket_delay_ms_p99=_r(pct(socket_delays, 0.99)),
                     socket_delay_ms_max=_r(max(socket_delays) if socket_delays else None),
                     # daphne's part: the group message's publication to the frame on the
                     # socket
                     socket_after_publish_ms_p50=None, socket_after_publish_ms_p99=None)
        if trace is not None:
            after = [(t - trace[g]["published"]) * 1000 for g, t in on_socket.items()
                     if trace.get(g, {}).get("published")]
            extra.update(socket_after_publish_ms_p50=_r(pct(after, 0.5)),
                         socket_after_publish_ms_p99=_r(pct(after, 0.99)))
    return {**extra, "idle_seconds": round(idle_wall, 1), "idle_cpu_per_wall": round(idle_cpu, 4),
            "flags_expected": len(live), "flags_heard": len(arrived),
            "delay_ms_p50": pct(delays, 0.5), "delay_ms_p99": pct(delays, 0.99),
            "delay_ms_max": max(delays) if delays else None,
            "delay_ms_worst5": [round(d) for d in sorted(delays)[-5:]],
            "delay_ms_first5": [round((arrived[g] - live[g]) * 1000)
                                for g in sorted(arrived, key=live.get)[:5]],
            "flag_window_cpu_per_wall": round(flag_cpu, 4),
            # this process's CPU per flag (worker and listener): the figure the machine's
            # load does not stretch, unlike the delays
            "cpu_ms_per_flag": round(flag_cpu * (time.monotonic() - w1) * 1000
                                     / max(1, len(arrived)), 2),
            "load_average": os.getloadavg()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corr", type=int, default=10_000)
    ap.add_argument("--live", type=int, default=1_000)
    ap.add_argument("--idle", type=float, default=30.0, help="seconds measured with none due")
    ap.add_argument("--window", type=float, default=60.0, help="seconds the flags spread over")
    ap.add_argument("--redis", default=os.environ.get("BENCH_REDIS_URL",
                                                      "redis://127.0.0.1:6379/13"))
    ap.add_argument("--json", help="write the figures here too")
    ap.add_argument("--trace", action="store_true", help="time each part of the flags' way")
    ap.add_argument("--sockets", type=int, default=0,
                    help="spectators' websockets on a daphne, one per game on N games")
    args = ap.parse_args()
    server = os.environ.get("TALU_TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
    name, url = make_database(server)
    keyring = tempfile.mkdtemp(prefix="bench-deadlines-keyring-")
    os.environ.update(DATABASE_URL=url, REDIS_URL=args.redis, TALU_KEYRING=keyring,
                      DJANGO_SETTINGS_MODULE="talu_site.settings", DEBUG="false",
                      SECRET_KEY=os.environ.get("SECRET_KEY") or "bench-" + uuid.uuid4().hex,
                      ALLOWED_HOSTS="localhost", LOG_LEVEL="WARNING")
    try:
        import django

        django.setup()
        from django.core.management import call_command

        from play import lifecycle

        call_command("migrate", verbosity=0)
        # the first live deadline, after seeding, the spectators' sockets and the idle phase
        lead = args.idle + 20.0 + 0.3 * args.sockets
        start_wall = time.time()
        live, seeded = seed(args.corr, args.live, args.window, lead)
        lifecycle._finished.clear()  # archiving is bench_endings' subject, not this one's
        figures = asyncio.run(measure(live, args.idle, args.window, lead, start_wall,
                                      {} if args.trace else None, args.sockets))
        figures.update(corr_games=args.corr, live_games=args.live, seed_seconds=round(seeded, 1))
    finally:
        from django.db import connections

        connections.close_all()
        drop_database(server, name)
    text = json.dumps(figures, indent=2)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n")


if __name__ == "__main__":
    main()
