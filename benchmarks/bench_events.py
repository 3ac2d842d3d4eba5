"""Events (issues 21, 40): pairing one round of a large Swiss, side by side with bbpPairings,
and the standings API and event page of a 500-player, 9-round event next to ``--games`` other
games.

    .venv/bin/python benchmarks/bench_events.py                       # SQLite file, ~2-4 min
    .venv/bin/python benchmarks/bench_events.py --games 100000        # + 100,000 games
    .venv/bin/python benchmarks/bench_events.py --server postgres://postgres@127.0.0.1:5432
    nice -n 10 .venv/bin/python benchmarks/bench_events.py --no-pairing --games 100000 \
        --server postgres://postgres@127.0.0.1:5432         # issue 21's page target
    .venv/bin/python benchmarks/bench_events.py --profile 500 7      # where the engine's time goes
    .venv/bin/python benchmarks/bench_events.py --compare 500 7 --bbp /tmp/bbp/bbpPairings.exe

1. Pure pairing (``registry.events.pairing.swiss``, the one Dutch engine at every size):
   rounds 1-6 of a 500-player Swiss paired and given random results, then round 7 paired
   ``--reps`` times; the median is reported. ``--compare PLAYERS ROUND`` pairs one round of
   such a Swiss ``--reps`` times by our engine and by bbpPairings (``--bbp``: a binary built
   from source, never part of the project) on our TRF export of it, alternately in one run, and
   reports each one's CPU seconds (bbpPairings': its user time), their ratio and whether the
   pairings (boards in order, colours) are the same; py4swiss's own Dutch engine (the rules in
   force until 2026) once, for reference.
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


def _swiss(players: int, rounds: int):
    """A ``players`` Swiss of 9 rounds with ``rounds`` rounds paired and given random
    results."""
    from registry.events.pairing import swiss
    from registry.events.pairing.model import Entrant, Tournament

    rng = random.Random(7)
    t = Tournament([Entrant(f"K{i:04d}", rating=rng.randint(800, 2600))
                    for i in range(players)], total_rounds=9)
    for _ in range(rounds):
        paired = swiss.pair_round(t)
        for g in paired.games:
            g.result = rng.choices(["1-0", "0-1", "="], [45, 40, 15])[0]
        t.rounds.append(paired)
    return t


def pure_pairing(players: int, reps: int) -> list[float]:
    from registry.events.pairing import swiss

    t = _swiss(players, 6)
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        swiss.pair_round(t)
        times.append(time.perf_counter() - start)
    return times


def profile(players: int, rnd: int) -> None:
    """Round ``rnd`` of a ``players`` Swiss: the engine's CPU time, how many matchings it
    asked for and their share (docs/events.md)."""
    from registry.events.pairing import swiss
    from registry.events.pairing.dutch_round import Round

    seen = {"calls": 0, "cpu": 0.0}
    solve = Round.solve

    def counted(self):
        seen["calls"] += 1
        start = time.process_time()
        try:
            return solve(self)
        finally:
            seen["cpu"] += time.process_time() - start

    t = _swiss(players, rnd - 1)
    Round.solve = counted
    try:
        start = time.process_time()
        swiss.pair_round(t)
        cpu = time.process_time() - start
    finally:
        Round.solve = solve
    print(f"round {rnd} of {players} players: {cpu:.2f} s CPU, {seen['calls']} matchings "
          f"({seen['cpu'] / cpu:.0%} of it)")


def compare_engines(players: int, rnd: int, bbp: str | None, reps: int) -> None:
    """Round ``rnd`` of one ``players`` Swiss paired by our engine and by bbpPairings on our
    TRF export of it, ``reps`` times each, alternately, in one run (BENCHMARKS.md)."""
    import resource
    import subprocess

    from registry.events.pairing import swiss, trf

    t = _swiss(players, rnd - 1)
    numbers = t.numbers()

    def ours() -> list[tuple[int, int]]:
        paired = swiss.pair_round(t)
        return ([(numbers[g.white], numbers[g.black]) for g in paired.games]
                + [(numbers[b.player], 0) for b in paired.byes if b.kind == "U"])

    mine, theirs, ours_cpu, bbp_cpu = None, None, [], []
    with tempfile.TemporaryDirectory() as tmp:
        path, out = Path(tmp) / "round.trf", Path(tmp) / "out"
        path.write_text(trf.export(t))
        for _ in range(reps):
            start = time.process_time()
            mine = ours()
            ours_cpu.append(time.process_time() - start)
            if bbp:
                before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
                subprocess.run([bbp, "--dutch", str(path), "-p", str(out)], check=True)
                bbp_cpu.append(resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before)
                rest = [int(x) for x in out.read_text().split()[1:]]
                theirs = list(zip(rest[::2], rest[1::2], strict=True))
        from py4swiss.engines import DutchEngine
        from py4swiss.trf import TrfParser

        start = time.process_time()
        DutchEngine.generate_pairings(TrfParser.parse(path))
        py4swiss_cpu = time.process_time() - start
    med = statistics.median(ours_cpu)
    print(f"round {rnd} of {players} players, ours: median {med:.2f} s CPU "
          f"(min {min(ours_cpu):.2f}, max {max(ours_cpu):.2f}, {reps} runs)")
    if bbp:
        their = statistics.median(bbp_cpu)
        same = "the same pairing" if mine == theirs else "A DIFFERENT PAIRING"
        print(f"round {rnd} of {players} players, bbpPairings: median {their:.2f} s CPU "
              f"(min {min(bbp_cpu):.2f}, max {max(bbp_cpu):.2f}); ours / bbpPairings "
              f"{med / their:.2f}; {same} ({len(theirs)} lines)")
    print(f"round {rnd} of {players} players, py4swiss's own engine (rules until 2026): "
          f"{py4swiss_cpu:.2f} s CPU")
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

    from registry.events import rounds, services
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
        rounds.pair_round(arbiter, event)
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
    parser.add_argument("--profile", nargs=2, type=int, metavar=("PLAYERS", "ROUND"),
                        help="only profile the engine on one round (docs/events.md)")
    parser.add_argument("--compare", nargs=2, type=int, metavar=("PLAYERS", "ROUND"),
                        help="only pair one round by our engine and bbpPairings (BENCHMARKS.md)")
    parser.add_argument("--bbp", help="with --compare: a bbpPairings binary to compare with")
    args = parser.parse_args()

    if args.profile:
        profile(*args.profile)
        return
    if args.compare:
        compare_engines(*args.compare, args.bbp, args.reps)
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
