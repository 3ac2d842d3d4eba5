"""Tuning the computer's evaluation weights from self-play (issue 25), Texel style.

    .venv/bin/python benchmarks/tune_evaluation.py games --games 400 --out /tmp/pos.jsonl
    .venv/bin/python benchmarks/tune_evaluation.py fit /tmp/pos.jsonl

``games``: seeded games between the middle levels (3-5, with their slips and noise, after a
random opening of 2-6 turns, so the positions vary), one JSON line per game: the board after
every turn (I bits, O bits, the side that just moved) and the winner. ``fit``: a logistic
regression of the game's result (for the side that just moved) on the evaluation's features
(``evaluate.features``), whose coefficients, scaled so that a piece is worth ``PIECE``, are the
weights ``evaluate.TUNED`` holds (levels 7-8). Pure Python + numpy, a fixed seed: rerunnable.

A second round (``evaluate.REFITTED``, level 8) is fitted to games of a fitted level against
itself: ``games --levels 5 --tuned --noise 20 --slip 0.05``, then ``fit --prior fitted --hold
material``. Games between different levels (``--levels 4,5,7,8 --distinct``) were tried and not
kept: the stronger level wins nine games in ten, so the fit learns its style rather than what
wins (benchmarks/HISTORY.md, "A second round of fitted weights").
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_computer import random_turn  # noqa: E402
from play.games.talu import TaluGame  # noqa: E402
from play.games.talu.search import choose_turn, get_level  # noqa: E402
from play.games.talu.search.evaluate import (  # noqa: E402
    PIECE,
    TUNED,
    feature_names,
    features,
    hand_weights,
)
from play.games.talu.variants import get_variant  # noqa: E402


def one_game(args: tuple[str, int, bool, tuple[int, ...], bool, dict]) -> dict:
    variant, seed, tuned, mix, distinct, changes = args
    rng = random.Random(seed)
    levels = (rng.choice(mix), rng.choice(mix))
    while distinct and levels[0] == levels[1]:  # two searches alike shuffle (BENCHMARKS.md)
        levels = (levels[0], rng.choice(mix))
    players = [replace(get_level(n), tuned=int(tuned), **changes) for n in levels]
    game = TaluGame(variant)
    boards = []
    opening = rng.randrange(2, 7)
    turns = 0
    while game.outcome is None and turns < 120:
        side = game.turn.side
        if turns < opening:
            random_turn(game, rng)
        else:
            choice = choose_turn(game, players[side], seed=seed * 1000 + turns, seconds=0)
            for step in choice.steps:
                game.play(step)
        turns += 1
        i, o = game.turns[-1].after
        boards.append((i, o, side))
    o = game.outcome
    winner = None if o is None or o.winner is None else o.winner.index
    return {"variant": variant, "seed": seed, "levels": levels, "opening": opening,
            "boards": boards, "winner": winner}


def games(args: argparse.Namespace) -> None:
    mix = tuple(int(n) for n in args.levels.split(","))
    changes = {k: v for k, v in (("noise", args.noise), ("slip", args.slip)) if v is not None}
    jobs = [(args.variant, args.seed_base + n, args.tuned, mix, args.distinct, changes)
            for n in range(args.games)]
    with open(args.out, "a") as out, ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for r in pool.map(one_game, jobs):
            out.write(json.dumps(r) + "\n")
            out.flush()


def samples(path: str, variant: str, part: int | None = None,
            ) -> tuple[list[list[int]], list[int]]:
    """(features, result) of every board after a searched turn of a decided game, for the
    side that just moved; the random opening's boards and the last (terminal) board left out."""
    v = get_variant(variant)
    xs, ys = [], []
    for line in Path(path).read_text().splitlines():
        r = json.loads(line)
        if r["variant"] != variant or r["winner"] is None:
            continue
        if part is not None and r["seed"] % 5 == 0 and part == 0:  # held out
            continue
        if part is not None and r["seed"] % 5 != 0 and part == 1:
            continue
        for i, o, side in r["boards"][r["opening"]:-1]:
            me, op = (i, o) if side == 0 else (o, i)
            xs.append(features(v, me, op, side))
            ys.append(1 if side == r["winner"] else 0)
    return xs, ys


def fit(args: argparse.Namespace) -> None:
    import numpy as np  # the benchmark's tool only, never the site's

    v = get_variant(args.variant)
    xs, ys = samples(args.data, args.variant, 0 if args.holdout else None)
    x = np.array(xs, dtype=float)
    y = np.array(ys, dtype=float)
    x1 = np.hstack([x, np.ones((len(x), 1))])  # an intercept (the side to move), dropped
    # The prior: the hand-set weights (the first round) or the fitted ones (``--prior fitted``,
    # a second round), at the scale that fits best (one number, fitted first); the regression
    # pulls away from it only as far as the games say (ridge towards it).
    base = np.array(hand_weights(v) if args.prior == "hand" else TUNED[args.variant],
                    dtype=float)
    scale = 0.0
    for _ in range(30):
        z = x @ base
        p = 1 / (1 + np.exp(-scale * z))
        scale -= np.sum((p - y) * z) / max(1e-12, np.sum(p * (1 - p) * z * z))
    prior = np.r_[scale * base, 0.0]
    reg = args.l2 * np.r_[np.ones(len(base)), 0.0]
    names = feature_names(v)
    for name in filter(None, args.hold.split(",")):  # held at the prior's weight
        reg[names.index(name)] = 1e12
    w = prior.copy()
    for _ in range(50):  # Newton's method on the log loss plus the ridge towards the prior
        p = 1 / (1 + np.exp(-x1 @ w))
        grad = x1.T @ (p - y) + reg * (w - prior)
        hess = (x1 * (p * (1 - p))[:, None]).T @ x1 + np.diag(reg)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    p = 1 / (1 + np.exp(-x1 @ w))
    loss = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    ph = 1 / (1 + np.exp(-(x @ base) * scale))
    prior_loss = -np.mean(y * np.log(ph) + (1 - y) * np.log(1 - ph))
    scaled = [round(c * PIECE / w[0]) for c in w[:-1]]
    for name in filter(None, args.hold.split(",")):
        scaled[names.index(name)] = int(base[names.index(name)])
    if args.holdout:  # the log loss on the held-out games (every fifth seed)
        hx, hy = samples(args.data, args.variant, 1)
        hx1 = np.hstack([np.array(hx, dtype=float), np.ones((len(hx), 1))])
        hy = np.array(hy, dtype=float)
        q = np.clip(1 / (1 + np.exp(-hx1 @ w)), 1e-9, 1 - 1e-9)
        print("held out", len(hy), "tuned", -np.mean(hy * np.log(q) + (1 - hy) * np.log(1 - q)))
        q = np.clip(1 / (1 + np.exp(-(hx1[:, :-1] @ base) * scale)), 1e-9, 1 - 1e-9)
        print("held out prior", -np.mean(hy * np.log(q) + (1 - hy) * np.log(1 - q)))
    print(json.dumps({"positions": len(y), "log_loss": loss,
                      "prior_log_loss_same_scale": prior_loss, "intercept": w[-1],
                      "weights": dict(zip(names, scaled, strict=True)),
                      "hand": dict(zip(names, hand_weights(v), strict=True))}, indent=1))
    print("TUNED =", tuple(scaled))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    g = sub.add_parser("games")
    g.add_argument("--variant", default="standard")
    g.add_argument("--games", type=int, default=400)
    g.add_argument("--seed-base", type=int, default=0)
    g.add_argument("--jobs", type=int, default=2)
    g.add_argument("--out", required=True)
    g.add_argument("--levels", default="3,4,5,5",
                   help="the levels each side is drawn from (the first round: 3,4,5,5)")
    g.add_argument("--distinct", action="store_true", help="never the same level on both sides")
    g.add_argument("--noise", type=int, help="every player's root noise (default: its level's)")
    g.add_argument("--slip", type=float, help="every player's slip (default: its level's)")
    g.add_argument("--tuned", action="store_true",
                   help="the levels play with the first fitted weights (data for a second round)")
    f = sub.add_parser("fit")
    f.add_argument("data")
    f.add_argument("--variant", default="standard")
    f.add_argument("--l2", type=float, default=100.0)
    f.add_argument("--holdout", action="store_true", help="fit on 4/5 of the games only")
    f.add_argument("--prior", choices=("hand", "fitted"), default="hand",
                   help="the weights the ridge pulls towards: the hand-set ones or TUNED")
    f.add_argument("--hold", default="",
                   help="features whose hand-set weights are kept, e.g. adv_me,adv_op (tried: "
                        "the fitted level still shuffles against itself, BENCHMARKS.md)")
    args = p.parse_args()
    if args.what == "games":
        games(args)
    else:
        fit(args)


if __name__ == "__main__":
    main()
