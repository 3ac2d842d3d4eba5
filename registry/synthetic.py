"""Synthetic registries for benchmarks: many finished games between many players, inserted in
bulk (no records, no rating), so a full recompute (R30) can be timed.

The tallies are those of real games (the shared examples, replayed once); players start in all
three strata so every model and S3's Ec coupling are exercised. Deterministic for a seed.
"""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from django.db import transaction

from registry.models import AffiliatedBody, ArchivedGame, Player

EXAMPLES = Path(__file__).resolve().parents[2] / "shared" / "examples"


def example_tallies(directory: Path | None = None) -> list[tuple[str, dict]]:
    """(variant, tally JSON) of every decided example game."""
    from play.rules import read_stgn
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
             body: AffiliatedBody | None = None, batch: int = 5_000) -> AffiliatedBody:
    """Insert ``n_players`` players and ``n_games`` finished rated games (unrated so far)."""
    from registry.figcache import figures_json_of_tally

    rng = random.Random(seed)
    tallies = [(v, t, figures_json_of_tally(t)) for v, t in example_tallies()]
    if body is None:
        body, _ = AffiliatedBody.objects.get_or_create(
            registrar_id="GTF-SYNTHETIC-01", defaults={"name": "synthetic body"})
    with transaction.atomic():
        players = []
        for i in range(n_players):
            stratum = 1 if i % 10 < 6 else 2 if i % 10 < 8 else 3
            rating = {1: 250, 2: 500, 3: 1000 + rng.randrange(0, 800)}[stratum]
            players.append(Player(display_name=f"synthetic {i}", body=body, stratum=stratum,
                                  rating=rating, start_stratum=stratum, start_rating=rating))
        players = Player.objects.bulk_create(players, batch_size=batch)
        pks = [p.pk for p in players]
        t0 = datetime(2020, 1, 1, tzinfo=UTC)
        games = []
        for n in range(n_games):
            a, b = rng.sample(pks, 2)
            variant, tally, figures = rng.choice(tallies)
            games.append(ArchivedGame(
                body=body, variant=variant, rated=True, source=ArchivedGame.SUBMITTED,
                status=ArchivedGame.FINISHED, player_i_id=a, player_o_id=b,
                winner=tally["winner"], reason=tally["reason"], rounds=tally["rounds"],
                tally=tally, figures=figures, played_at=t0 + timedelta(minutes=n)))
            if len(games) >= batch:
                ArchivedGame.objects.bulk_create(games)
                games = []
        ArchivedGame.objects.bulk_create(games)
    return body


def time_recompute() -> tuple[float, object]:
    """Seconds of one full recompute (R30) and its summary."""
    from registry.ledger import recompute_all

    start = time.perf_counter()
    summary = recompute_all()
    return time.perf_counter() - start, summary
