"""Issues 21, 40: our Dutch rounds (or py4swiss's own engine's) against bbpPairings, round by
round.

    .venv/bin/python benchmarks/check_pairings.py --bbp /tmp/bbp/bbpPairings.exe \
        --seeds 10000 500 --players 6 60                 # issue 40's check: > 2,000 rounds
    .venv/bin/python benchmarks/check_pairings.py --bbp ... --seeds 20000 40 --players 61 200
    .venv/bin/python benchmarks/check_pairings.py --bbp ... --seeds 5000 60 --players 6 48 \
        --engine py4swiss                                # py4swiss's own Dutch engine

Random tournaments (one per seed: a field in ``--players``, 4-9 rounds) are paired by our core
(``registry.events.pairing.swiss``, the one engine at every size) with late entries,
withdrawals, half- and zero-point byes asked before pairing, and forfeits and double forfeits
among the results. Before each round our TRF export (the absences and withdrawals as byes of
the round to pair, as tests/events/data does) goes to bbpPairings (``--bbp``: a binary built
from source with ``make``, ``--dutch file -p``; it is never part of the project), and its
pairing is compared with ours (or py4swiss's): the boards in bbpPairings' order, each with its
colours, then the bye. A round neither can pair counts as agreeing. Disagreeing rounds' files
are kept in ``--keep`` for a look.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from registry.events.pairing import swiss, trf  # noqa: E402
from registry.events.pairing.model import (  # noqa: E402
    CODE_POINTS,
    Bye,
    Entrant,
    PairingError,
    Round,
    Tournament,
)
from registry.events.pairing.random_rounds import before_round  # noqa: E402

NO_PAIRING = ("no pairing",)


def bbp_pairs(binary: str, text: str) -> tuple:
    with tempfile.TemporaryDirectory() as tmp:
        path, out = Path(tmp) / "round.trf", Path(tmp) / "pairs.txt"
        path.write_text(text)
        done = subprocess.run([binary, "--dutch", str(path), "-p", str(out)],
                              capture_output=True, text=True)
        if done.returncode:
            return NO_PAIRING
        numbers = [int(x) for x in out.read_text().split()[1:]]
    return tuple(zip(numbers[::2], numbers[1::2], strict=True))


def py4swiss_pairs(t: Tournament, absent: dict[str, str]) -> tuple:
    """py4swiss reads TRF(x) strictly: every round of every player written (a round without a
    cell is a zero-point bye) and the next round's absences as its byes."""
    from py4swiss.engines import DutchEngine
    from py4swiss.trf import TrfParser

    numbers, cells, next_round = t.numbers(), t.cells(), len(t.rounds) + 1
    lines = [f"XXR {max(t.total_rounds, next_round)}",
             f"XXC {'white1' if t.initial_colour == 'white' else 'black1'}"]
    for e in sorted(t.entrants, key=lambda e: numbers[e.key]):
        points, blocks = 0.0, ""
        for r in range(1, next_round):
            cell = cells[e.key].get(r)
            if cell is None:
                blocks += "  0000 - Z"
                continue
            points += cell.points
            opponent = numbers[cell.opponent] if cell.opponent else 0
            blocks += f"  {opponent:4d} {cell.colour} {cell.code}"
        if e.key in absent or not e.active_in(next_round):
            kind = absent.get(e.key, "Z")
            blocks, points = blocks + f"  0000 - {kind}", points + CODE_POINTS[kind]
        head = f"001 {numbers[e.key]:4d}      {e.key[:33]:<33} {e.rating:4d}".ljust(80)
        lines.append(f"{head}{points:4.1f} {numbers[e.key]:4d}{blocks}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "round.trf"
        path.write_text("\n".join(lines) + "\n")
        try:
            pairs = DutchEngine.generate_pairings(TrfParser.parse(path))
        except Exception:  # its "Round can not be paired"
            return NO_PAIRING
    return tuple(sorted((p.white, p.black) for p in pairs))


def one_tournament(seed: int, players: tuple[int, int], args) -> tuple[int, int]:
    rng = random.Random(seed)
    t = Tournament([Entrant(f"K{i:03d}", rating=rng.randint(1000, 2500))
                    for i in range(rng.randint(*players))], total_rounds=rng.randint(4, 9))
    compared = differ = 0
    for rn in range(1, t.total_rounds + 1):
        t, absent = before_round(t, rng, rn, late=f"L{seed}-")
        numbers = t.numbers()
        try:
            rnd = swiss.pair_round(t, absent)
            ours = tuple([(numbers[g.white], numbers[g.black]) for g in rnd.games]
                         + [(numbers[b.player], 0) for b in rnd.byes if b.kind == "U"])
        except PairingError:
            rnd, ours = None, NO_PAIRING
        gone = {e.key: "Z" for e in t.entrants if not e.active_in(rn) and e.joined_round <= rn}
        marked = replace(t, rounds=[*t.rounds, Round(rn, [], [
            Bye(k, v) for k, v in {**gone, **absent}.items()])] if gone or absent else t.rounds)
        text = trf.export(marked)
        truth = bbp_pairs(args.bbp, text)
        mine = py4swiss_pairs(t, absent) if args.engine == "py4swiss" else ours
        compared += 1
        if args.engine == "py4swiss":  # its pairs, not its board order
            mine, truth = tuple(sorted(mine)), tuple(sorted(truth))
        if mine != truth:
            differ += 1
            if args.keep:
                Path(args.keep, f"seed{seed}-round{rn}.trf").write_text(text)
        if rnd is None:
            break
        for g in rnd.games:
            g.result = rng.choices(["1-0", "0-1", "=", "+-", "-+", "--"],
                                   [40, 40, 16, 2, 1, 1])[0]
        t.rounds.append(rnd)
    return compared, differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bbp", required=True, help="a bbpPairings binary built from source")
    parser.add_argument("--seeds", nargs=2, type=int, default=(1000, 20),
                        metavar=("FIRST", "COUNT"))
    parser.add_argument("--players", nargs=2, type=int, default=(6, 48), metavar=("LO", "HI"))
    parser.add_argument("--engine", choices=("ours", "py4swiss"), default="ours")
    parser.add_argument("--keep", help="a folder for the TRF of every disagreeing round")
    args = parser.parse_args()
    total = wrong = 0
    first, count = args.seeds
    for seed in range(first, first + count):
        compared, differ = one_tournament(seed, tuple(args.players), args)
        total, wrong = total + compared, wrong + differ
        print(f"seed {seed}: {compared} rounds, {differ} differ", flush=True)
    print(f"{args.engine} against bbpPairings: {total} rounds of {count} tournaments of "
          f"{args.players[0]}-{args.players[1]} players, {wrong} differ")


if __name__ == "__main__":
    main()
