"""Events (issue 21): pairing one round of a 500-player Swiss in round 7, and the standings
API and event page of a 500-player, 9-round event next to ``--games`` other games.

    .venv/bin/python benchmarks/bench_events.py                       # SQLite file, ~2-4 min
    .venv/bin/python benchmarks/bench_events.py --games 100000        # + 100,000 games
    .venv/bin/python benchmarks/bench_events.py --server postgres://postgres@127.0.0.1:5432
    nice -n 10 .venv/bin/python benchmarks/bench_events.py --no-pairing --games 100000 \
        --server postgres://postgres@127.0.0.1:5432         # issue 21's page target
    .venv/bin/python benchmarks/bench_events.py --exact 150 7  # the exact engine's cost
    .venv/bin/python benchmarks/bench_events.py --compare 500 7 --bbp /tmp/bbp/bbpPairings.exe

1. Pure pairing (``registry.events.pairing.swiss``): rounds 1-6 of a 500-player Swiss paired
   and given random results, then round 7 paired ``--reps`` times; the median is reported (the
   field is above ``dutch_large.LARGE_FIELD``, so this is the large fields' engine).
2. The same event through the services on a throw-away database (an over-the-board event, the
   arbiter's pairings and results), beside ``--games`` finished games of other players
   (``benchmarks.synthetic.populate``); then ``/api/v1/events/<id>/standings/`` and
   ``/events/<id>/`` through Django's test client, median of ``--reps`` requests after the
   first (which computes the standings; later requests read them from the cache until the
   event changes). Also the crosstable page, the event page seen by a signed-in player (the
   event banner's query on every page), and the API's whole event; ``--no-pairing`` skips
   part 1. The load average is printed: figures taken above 4 are *loaded* (BENCHMARKS.md).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def pure_pairing(players: int, reps: int) -> list[float]:
    from registry.events.pairing import swiss
    from registry.events.pairing.model import Entrant, Tournament

    rng = random.Random(7)
    t = Tournament([Entrant(f"K{i:04d}", rating=rng.randint(800, 2600))
                    for i in range(players)], total_rounds=9)
    for _ in range(6):
        rnd = swiss.pair_round(t)
        for g in rnd.games:
            g.result = rng.choices(["1-0", "0-1", "="], [45, 40, 15])[0]
        t.rounds.append(rnd)
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        swiss.pair_round(t)
        times.append(time.perf_counter() - start)
    return times


def _swiss(players: int, rounds: int, large: bool | None = True):
    """A ``players`` Swiss with ``rounds`` rounds paired (by the large fields' engine unless
    ``large`` says otherwise) and given random results."""
    from registry.events.pairing import swiss
    from registry.events.pairing.model import Entrant, Tournament

    rng = random.Random(7)
    t = Tournament([Entrant(f"K{i:04d}", rating=rng.randint(800, 2600))
                    for i in range(players)], total_rounds=9)
    for _ in range(rounds):
        paired = swiss.pair_round(t, large=large)
        for g in paired.games:
            g.result = rng.choices(["1-0", "0-1", "="], [45, 40, 15])[0]
        t.rounds.append(paired)
    return t


def exact_profile(players: int, rnd: int) -> None:
    """Round ``rnd`` of a ``players`` Swiss (the rounds before paired by ``dutch_large``) paired
    by the exact engine (caissify-pairings with bbpPairings' incremental matching): its CPU
    time, and how many matchings it asked for and their share (docs/events.md)."""
    from registry.events.pairing import incremental_matching, swiss

    seen = {"calls": 0, "cpu": 0.0}
    solve = incremental_matching.Weights.matching

    def counted(self):
        seen["calls"] += 1
        start = time.process_time()
        try:
            return solve(self)
        finally:
            seen["cpu"] += time.process_time() - start

    t = _swiss(players, rnd - 1)
    incremental_matching.Weights.matching = counted
    try:
        start = time.process_time()
        swiss.pair_round(t, large=False)
        cpu = time.process_time() - start
    finally:
        incremental_matching.Weights.matching = solve
    print(f"exact engine, round {rnd} of {players} players: {cpu:.2f} s CPU, "
          f"{seen['calls']} matchings ({seen['cpu'] / cpu:.0%} of it)")


def compare_engines(players: int, rnd: int, bbp: str | None) -> None:
    """Round ``rnd`` of one ``players`` Swiss paired side by side, in one run: the large
    fields' engine (``dutch_large``), the exact engine, py4swiss's own Dutch engine (the rules
    in force until 2026) on our TRF export, and bbpPairings (``--bbp``, a binary built from
    source) on the same file. Wall and CPU seconds (bbpPairings': its user time), and whether
    each agrees with bbpPairings."""
    import resource
    import subprocess

    from registry.events.pairing import swiss, trf

    t = _swiss(players, rnd - 1)
    numbers = t.numbers()

    def as_pairs(paired) -> set[tuple[int, int]]:
        out = {(numbers[g.white], numbers[g.black]) for g in paired.games}
        return out | {(numbers[b.player], 0) for b in paired.byes if b.kind == "U"}

    def clocked(run):
        wall, cpu = time.perf_counter(), time.process_time()
        out = run()
        return out, time.perf_counter() - wall, time.process_time() - cpu

    results = {}
    results["dutch_large"] = clocked(lambda: as_pairs(swiss.pair_round(t, large=True)))
    results["exact engine"] = clocked(lambda: as_pairs(swiss.pair_round(t, large=False)))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "round.trf"
        path.write_text(trf.export(t))

        def py4swiss_own():
            from py4swiss.engines import DutchEngine
            from py4swiss.trf import TrfParser

            return {(p.white, p.black) for p in DutchEngine.generate_pairings(
                TrfParser.parse(path))}

        results["py4swiss's own engine"] = clocked(py4swiss_own)
        if bbp:
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
            start = time.perf_counter()
            subprocess.run([bbp, "--dutch", str(path), "-p", str(Path(tmp) / "out")],
                           check=True)
            wall = time.perf_counter() - start
            cpu = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
            rest = [int(x) for x in (Path(tmp) / "out").read_text().split()[1:]]
            results["bbpPairings"] = ({(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)},
                                      wall, cpu)
    truth = results.get("bbpPairings", (None,))[0]
    for name, (pairs, wall, cpu) in results.items():
        same = "" if truth is None else (
            ", the same as bbpPairings" if pairs == truth
            else f", differs from bbpPairings on {len(pairs - truth)} of {len(truth)} boards")
        print(f"round {rnd} of {players} players, {name}: {wall:.2f} s wall, "
              f"{cpu:.2f} s CPU{same}")
    print(f"load average {os.getloadavg()[0]:.1f}")


def setup_django(server: str | None, path: Path) -> str:
    name = f"bench_events_{os.getpid()}"
    if server:
        import psycopg

        with psycopg.connect(server + "/postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        os.environ["DATABASE_URL"] = f"{server}/{name}"
    else:
        os.environ["DATABASE_URL"] = f"sqlite:///{path / 'bench.sqlite3'}"
    os.environ["TALU_KEYRING"] = str(path / "keyring")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "talu_site.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return name


def build_event(players: int, rounds: int):
    from django.contrib.auth import get_user_model

    from registry.events import services
    from registry.events.models import Pairing
    from registry.models import AffiliatedBody

    rng = random.Random(9)
    body = AffiliatedBody.objects.create(registrar_id="BENCH-CLUB", name="Bench club")
    arbiter = get_user_model().objects.create_user("bench-arbiter", password="x-bench-1")
    body.registrars.add(arbiter)
    event = services.create_event(arbiter, body, name="Big open", rounds=rounds,
                                  venue="board")
    for i in range(players):
        services.enter_player(arbiter, event, f"Player {i}", rng.randint(800, 2600))
    for number in range(1, rounds + 1):
        services.pair_round(arbiter, event)
        for p in Pairing.objects.filter(round__event=event, round__number=number,
                                        black__isnull=False):
            services.set_result(arbiter, event, p.pk, rng.choices(
                ["1-0", "0-1", "="], [45, 40, 15])[0], number)
    return event


def timed(client, url: str, reps: int) -> tuple[float, float, float]:
    """The first request's wall time, then the median wall and the median CPU time of this
    process (Django's share, without the database server's: on a loaded machine the wall
    time is mostly waiting for a core)."""
    first = time.perf_counter()
    assert client.get(url).status_code == 200
    first = time.perf_counter() - first
    times, cpu = [], []
    for _ in range(reps):
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        assert response.status_code == 200
    return first, statistics.median(times), statistics.median(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--games", type=int, default=0)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--server", default=None)
    parser.add_argument("--no-pairing", dest="pairing", action="store_false",
                        help="skip the pure pairing part")
    parser.add_argument("--exact", nargs=2, type=int, metavar=("PLAYERS", "ROUND"),
                        help="only profile the exact engine on one round (docs/events.md)")
    parser.add_argument("--compare", nargs=2, type=int, metavar=("PLAYERS", "ROUND"),
                        help="only pair one round by every engine side by side (BENCHMARKS.md)")
    parser.add_argument("--bbp", help="with --compare: a bbpPairings binary to compare with")
    args = parser.parse_args()

    if args.exact:
        exact_profile(*args.exact)
        return
    if args.compare:
        compare_engines(*args.compare, args.bbp)
        return
    if args.pairing:
        times = pure_pairing(args.players, args.reps)
        print(f"pairing round 7 of a {args.players}-player Swiss: median "
              f"{statistics.median(times):.2f} s, max {max(times):.2f} s")

    with tempfile.TemporaryDirectory() as tmp:
        name = setup_django(args.server, Path(tmp))
        try:
            if args.games:
                from benchmarks.synthetic import populate

                start = time.perf_counter()
                populate(args.games, max(args.games // 50, 100))
                print(f"{args.games} other games in {time.perf_counter() - start:.0f} s")
            start = time.perf_counter()
            event = build_event(args.players, args.rounds)
            print(f"event of {args.players} players, {args.rounds} rounds, entered and paired "
                  f"through the services in {time.perf_counter() - start:.0f} s")
            from django.contrib.auth import get_user_model
            from django.test import Client

            from play.models import Game
            from registry.models import RegistryGame

            print(f"games in the database: {RegistryGame.objects.count()} registry games, "
                  f"{Game.objects.count()} live-play games; load average "
                  f"{os.getloadavg()[0]:.1f}")
            anonymous, player = Client(), Client()
            player.force_login(get_user_model().objects.create_user("bench-viewer",
                                                                   password="x-bench-2"))
            for who, client, url in (
                    ("", anonymous, f"/api/v1/events/{event.pk}/standings/"),
                    ("", anonymous, f"/events/{event.pk}/"),
                    (" (signed in)", player, f"/events/{event.pk}/"),
                    ("", anonymous, f"/events/{event.pk}/crosstable/"),
                    ("", anonymous, f"/api/v1/events/{event.pk}/")):
                first, median, cpu = timed(client, url, args.reps * 4)
                print(f"GET {url}{who}: first {first * 1000:.0f} ms, then median "
                      f"{median * 1000:.1f} ms (CPU of this process {cpu * 1000:.1f} ms)")
            print(f"load average at the end {os.getloadavg()[0]:.1f}")
        finally:
            if args.server:
                from django.db import connections

                connections.close_all()
                import psycopg

                with psycopg.connect(args.server + "/postgres", autocommit=True) as conn:
                    conn.execute(f'DROP DATABASE IF EXISTS "{name}"')


if __name__ == "__main__":
    main()
