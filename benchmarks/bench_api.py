"""The game list API with 100,000 games (issue 6): time per page, next to a baseline, one run.

    .venv/bin/python benchmarks/bench_api.py               # 100,000 games (about 1-2 min)
    .venv/bin/python benchmarks/bench_api.py --games 20000 # a quicker run
    .venv/bin/python benchmarks/bench_api.py --postgres postgres://postgres@127.0.0.1:5432/test

A throw-away database (SQLite in a temp directory, or with ``--postgres`` a new database on
that server, dropped at the end) is migrated
and filled with ``--players`` players and ``--games`` finished games with bulk inserts. Then,
through Django's test client (the whole stack: URL routing, authentication, throttling,
pagination, serializers, JSON), each request is timed ``--reps`` times (best and median), with
its query count:

* **baseline**: the same endpoint on a database holding only ``--baseline`` games (made first,
  same run, same process), so a growth with the table's size shows as a ratio;
* ``/api/v1/games/`` first page (50), the newest games; a page of 200; a middle page;
* filtered by a player (either side), by status + variant, by body;
* ``/api/v1/games/<id>/`` (detail with records and rating changes).

The list must cost a constant number of queries per page (count + page), whatever the page
size; ``tests/api/test_query_counts.py`` asserts that, this script reports the time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _setup(db_url: str | None) -> None:
    tmp = tempfile.mkdtemp(prefix="talu-bench-api-")
    os.environ["DATABASE_URL"] = db_url or f"sqlite:///{tmp}/bench.sqlite3"
    os.environ.setdefault("TALU_KEYRING", f"{tmp}/keyring")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "talu_site.settings")
    os.environ.setdefault("TALU_API_RATE_ANON", "1000000/minute")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _fill(n_games: int, n_players: int, start_index: int = 0) -> list:
    from registry.models import AffiliatedBody, ArchivedGame, GameRecord, Player

    body, _ = AffiliatedBody.objects.get_or_create(registrar_id="BENCH-BODY-01",
                                                   defaults={"name": "Bench body"})
    other, _ = AffiliatedBody.objects.get_or_create(registrar_id="BENCH-BODY-02",
                                                    defaults={"name": "Other bench body"})
    players = list(Player.objects.filter(display_name__startswith="bench "))
    if len(players) < n_players:
        Player.objects.bulk_create([Player(display_name=f"bench {k}", body=body)
                                    for k in range(len(players), n_players)], batch_size=2000)
        players = list(Player.objects.filter(display_name__startswith="bench "))
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    stgn = "[Variant standard]\n" + "".join(f"{r}. I: a1-a2 O: h8-h7\n" for r in range(1, 27))
    batch: list = []
    made = []
    for k in range(start_index, start_index + n_games):
        pi, po = players[k % len(players)], players[(k * 7 + 1) % len(players)]
        if pi.pk == po.pk:
            po = players[(k + 1) % len(players)]
        batch.append(ArchivedGame(
            body=body if k % 5 else other, variant=("standard", "dynamic")[k % 2], rated=True,
            source="submitted", status="annulled" if k % 97 == 0 else "finished",
            player_i=pi, player_o=po, winner="I" if k % 3 else "O", reason="invasion",
            rounds=26, tally={"winner": "I"}, stgn=stgn,
            played_at=t0 + timedelta(minutes=k)))
        if len(batch) == 5000:
            made += ArchivedGame.objects.bulk_create(batch)
            batch = []
    if batch:
        made += ArchivedGame.objects.bulk_create(batch)
    last = made[-1]
    GameRecord.objects.bulk_create([
        GameRecord(game=last, kind=kind, session=s, content="meta: {}\n", hash="ab" * 32)
        for kind, s in (("STGE", 0), ("STSE", 1), ("STDGS", 0), ("STGN", 0))])
    return players


def _time(client, path: str, params: dict, reps: int) -> tuple[float, float, int]:
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    times = []
    queries = 0
    for _ in range(reps):
        reset_queries()
        with CaptureQueriesContext(connection) as ctx:
            t = time.perf_counter()
            response = client.get(path, params)
            times.append(time.perf_counter() - t)
        assert response.status_code == 200, (path, response.status_code, response.content[:200])
        queries = len(ctx.captured_queries)
    return min(times), statistics.median(times), queries


def _cases(players) -> list[tuple[str, str, dict]]:
    from registry.models import ArchivedGame

    newest = ArchivedGame.objects.order_by("-played_at").first()
    return [
        ("games, first page (50)", "/api/v1/games/", {}),
        ("games, page of 200", "/api/v1/games/", {"page_size": 200}),
        ("games, a middle page (50)", "/api/v1/games/",
         {"page": max(1, ArchivedGame.objects.count() // 100)}),
        ("games of one player", "/api/v1/games/", {"player": players[3].player_id}),
        ("games, status + variant", "/api/v1/games/",
         {"status": "finished", "variant": "dynamic"}),
        ("games of one body", "/api/v1/games/", {"body": "BENCH-BODY-02"}),
        ("game detail", f"/api/v1/games/{newest.game_id}/", {}),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--baseline", type=int, default=1_000)
    ap.add_argument("--players", type=int, default=2_000)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--postgres", metavar="URL",
                    help="a PostgreSQL server URL; a fresh database is made there and dropped")
    args = ap.parse_args()
    db_url, dropper = None, None
    if args.postgres:
        import psycopg

        name = f"talu_bench_api_{os.getpid()}"
        with psycopg.connect(args.postgres, autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{name}"')
        db_url = args.postgres.rsplit("/", 1)[0] + "/" + name

        def dropper() -> None:
            from django.db import connections

            connections.close_all()
            with psycopg.connect(args.postgres, autocommit=True) as c:
                c.execute(f'DROP DATABASE IF EXISTS "{name}"')
    try:
        run(args, db_url)
    finally:
        if dropper:
            dropper()


def run(args, db_url: str | None) -> None:
    _setup(db_url)
    from django.db import connection
    from django.test import Client

    client = Client()
    print(f"database: {connection.vendor}; players: {args.players}")
    t = time.perf_counter()
    players = _fill(args.baseline, args.players)
    print(f"baseline: {args.baseline} games filled in {time.perf_counter() - t:.1f} s")
    cases = _cases(players)
    base = {name: _time(client, path, params, args.reps) for name, path, params in cases}
    t = time.perf_counter()
    _fill(args.games - args.baseline, args.players, start_index=args.baseline)
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute("ANALYZE")
    print(f"full: {args.games} games filled in {time.perf_counter() - t:.1f} s")
    cases = _cases(players)
    full = {name: _time(client, path, params, args.reps) for name, path, params in cases}
    # The same with an index on the list's order (the model has none yet; see BENCHMARKS.md).
    with connection.cursor() as cur:
        cur.execute("CREATE INDEX IF NOT EXISTS bench_played_id "
                    "ON registry_archivedgame (played_at, id)")
        if connection.vendor == "postgresql":
            cur.execute("ANALYZE registry_archivedgame")
    indexed = {name: _time(client, path, params, args.reps) for name, path, params in cases}
    print(f"\n| request | {args.baseline:,} games | {args.games:,} games | {args.games:,} games "
          "+ index (played_at, id) | queries |")
    print("|---|---|---|---|---|")
    for name, _, _ in cases:
        cells = [f"{r[0] * 1000:.1f} / {r[1] * 1000:.1f} ms"
                 for r in (base[name], full[name], indexed[name])]
        print(f"| {name} | {' | '.join(cells)} | {full[name][2]} |")
    print("\n(best / median of --reps requests each)")

if __name__ == "__main__":
    main()
