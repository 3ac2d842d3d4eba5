"""Synthetic registries for benchmarks: many finished games between many players, inserted in
bulk (no records, no rating), so a full recompute (R30) and the pages over a large registry can
be timed (``benchmarks/bench_registry.py``). The one generator of such data: benchmarks call
this rather than fill tables their own way.

The tallies are those of real games (the shared examples, replayed once); players start in all
three strata so every model and S3's Ec coupling are exercised. Deterministic for a seed.
"""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime, timedelta
from itertools import accumulate
from pathlib import Path

from django.db import transaction

from registry.models import AffiliatedBody, Player, RegistryGame

EXAMPLES = Path(__file__).resolve().parents[2] / "shared" / "examples"


def example_tallies(directory: Path | None = None) -> list[tuple[str, dict]]:
    """(variant, tally JSON) of every decided example game."""
    from play.games.talu import read_stgn
    from registry.ledger import tally_to_json
    from registry.scoring.tally import tally_game

    base = directory or (EXAMPLES if EXAMPLES.is_dir() else Path("/work/shared/examples"))
    out = []
    for path in sorted(base.glob("legal-*.stgn")):
        variant = path.stem.split("-", 2)[2].rsplit("-", 1)[0]
        tally = tally_game(read_stgn(path.read_text(encoding="utf-8"), variant))
        if tally.winner is not None:
            out.append((variant, tally_to_json(tally)))
    return out


def populate(n_games: int = 100_000, n_players: int = 2_000, *, seed: int = 1,
             body: AffiliatedBody | None = None, n_bodies: int = 1, span_days: int = 730,
             mixing: float = 0.05, batch: int = 5_000) -> AffiliatedBody:
    """Insert ``n_players`` players and ``n_games`` finished rated games (unrated so far:
    run :func:`registry.ledger.recompute_all` next so ratings, rating changes and strata are
    the cascade's).

    Realistic enough for timing pages: the games are spread over ``span_days`` at random times,
    in several variants (the example games'), hosted by ``n_bodies`` bodies; players are unevenly
    active (a Pareto-distributed appetite), so most have a few dozen games and a few have many
    hundreds, and they start in all three strata (opponents mostly from their own: with random
    cross-stratum pairings the S2 model drives some ratings past 32-bit integers). Returns the
    first body.
    """
    from registry.figcache import figures_json_of_tally

    rng = random.Random(seed)
    tallies = [(v, t, figures_json_of_tally(t)) for v, t in example_tallies()]
    bodies = [body] if body is not None else []
    for k in range(len(bodies), max(n_bodies, 1)):
        made, _ = AffiliatedBody.objects.get_or_create(
            registrar_id=f"GTF-SYNTHETIC-{k + 1:02d}", defaults={"name": f"synthetic body {k + 1}"})
        bodies.append(made)
    with transaction.atomic():
        players = []
        for i in range(n_players):
            stratum = 1 if i % 10 < 6 else 2 if i % 10 < 8 else 3
            rating = {1: 250, 2: 500, 3: 1000 + rng.randrange(0, 800)}[stratum]
            players.append(Player(display_name=f"synthetic {i}", body=rng.choice(bodies),
                                  stratum=stratum, rating=rating, start_stratum=stratum,
                                  start_rating=rating))
        players = Player.objects.bulk_create(players, batch_size=batch)
        pks = [p.pk for p in players]
        weight = [min(rng.paretovariate(2.5), 40.0) for _ in pks]
        # Opponents mostly come from the player's own starting stratum (events pair within a
        # stratum); ``mixing`` of the games are across strata.
        groups: dict[int, tuple[list[int], list[float]]] = {}
        for p, w in zip(players, weight, strict=True):
            members, cum = groups.setdefault(p.start_stratum, ([], []))
            members.append(p.pk)
            cum.append((cum[-1] if cum else 0.0) + w)
        stratum_of = {p.pk: p.start_stratum for p in players}
        appetite = list(accumulate(weight))
        t0 = datetime(2020, 1, 1, tzinfo=UTC)
        span = span_days * 86_400
        moments = sorted(rng.randrange(span) for _ in range(n_games))
        games = []
        for second in moments:
            a = rng.choices(pks, cum_weights=appetite)[0]
            members, cum = (pks, appetite) if rng.random() < mixing else groups[stratum_of[a]]
            b = a
            while b == a:
                b = rng.choices(members, cum_weights=cum)[0]
            variant, tally, figures = rng.choice(tallies)
            host = rng.choice(bodies)
            games.append(RegistryGame(
                body=host, variant=variant, rated=True,
                source=RegistryGame.SITE if host is bodies[0] else RegistryGame.SUBMITTED,
                status=RegistryGame.FINISHED, player_i_id=a, player_o_id=b,
                winner=tally["winner"], reason=tally["reason"], rounds=tally["rounds"],
                tally=tally, figures=figures, played_at=t0 + timedelta(seconds=second)))
            if len(games) >= batch:
                RegistryGame.objects.bulk_create(games)
                games = []
        RegistryGame.objects.bulk_create(games)
    return bodies[0]


def time_recompute() -> tuple[float, object]:
    """Seconds of one full recompute (R30) and its summary."""
    from registry.ledger import recompute_all

    start = time.perf_counter()
    summary = recompute_all()
    return time.perf_counter() - start, summary
