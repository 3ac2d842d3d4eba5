"""Helpers of the registry tests: example games, signed records, players and rated games."""

from __future__ import annotations

import functools
import uuid
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from pathlib import Path

from play.games.talu import read_stgn
from registry.ledger import rate_finished_game, tally_to_json
from registry.models import AffiliatedBody, Player, RegistryGame
from registry.records import builders
from registry.records.signing import Signer
from registry.records.yamlio import dump_yaml, load_yaml
from registry.scoring.tally import tally_game

EXAMPLES = Path(__file__).resolve().parents[3] / "shared" / "examples"
if not EXAMPLES.is_dir():
    EXAMPLES = Path("/work/shared/examples")

I_WINS = "legal-003-standard-normal"  # I by invasion, 26 rounds
O_WINS = "legal-004-standard-invade"  # O by invasion, 19 rounds
O_ELIMINATES = "legal-005-standard-hunter"  # O by elimination
NULL = "legal-006-standard-null"
UNFINISHED = "legal-015-dynamic-unfinished"
T0 = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)


@functools.cache
def example(name: str) -> tuple[str, tuple[str, ...], dict]:
    """(variant, canonical STGN lines, tally JSON) of a shared example game."""
    variant = name.split("-", 2)[2].rsplit("-", 1)[0]
    game = read_stgn((EXAMPLES / f"{name}.stgn").read_text(encoding="utf-8"), variant)
    return variant, tuple(game.stgn_lines()), tally_to_json(tally_game(game))


def make_player(name: str, *, body: AffiliatedBody | None = None, stratum: int = 1,
                rating: int = 250, **fields) -> Player:
    """An over-the-board player; ``stratum``/``rating`` other than R26's start are imported
    standings (the cascade's seed)."""
    return Player.objects.create(display_name=name, body=body, stratum=stratum, rating=rating,
                                 start_stratum=stratum, start_rating=rating, **fields)


def expected_ratings(games: list[RegistryGame]) -> dict[int, int]:
    """The pure cascade's ratings (R30) of these games in order, from the players' seeds."""
    from registry.ledger import tally_from_json
    from registry.scoring.cascade import PlayerState, RatedGame, cascade

    seeds = {p.pk: PlayerState(p.pk, stratum=p.start_stratum, rating=p.start_rating)
             for p in Player.objects.all()}
    recs = [RatedGame.from_tally(g.pk, g.player_i_id, g.player_o_id, tally_from_json(g.tally),
                                   g.scoring_model or None) for g in games]
    return {pk: s.rating for pk, s in cascade(recs, seeds).players.items()}


def records(signer: Signer | None, players: tuple[Player, Player], name: str = I_WINS, *,
            game_id: str | None = None, start: datetime = T0, splits: tuple[int, ...] = (),
            lines: list[str] | None = None) -> tuple[str, list[str]]:
    """The YAML texts of a sealed, body-signed STGE and its STSE (cut at ``splits``)."""
    variant = example(name)[0]
    entry = builders.build_game_entry(
        players={"I": (players[0].player_id, players[0].name),
                 "O": (players[1].player_id, players[1].name)},
        variant=variant, game_id=game_id or str(uuid.uuid4()),
        created=int(start.timestamp()) - 600)
    entry = builders.seal(entry, body=signer)
    return dump_yaml(entry), sessions_for(entry, signer, name, start=start, splits=splits,
                                          lines=lines)


def sessions_for(entry: dict | str, signer: Signer | None, name: str = I_WINS, *,
                 start: datetime = T0, splits: tuple[int, ...] = (),
                 lines: list[str] | None = None) -> list[str]:
    """Sealed STSE texts of example ``name``'s turns, chained to the game entry ``entry``."""
    if isinstance(entry, str):
        entry = load_yaml(entry)
    lines = list(example(name)[1] if lines is None else lines)
    sessions: list[dict] = []
    bounds = [0, *splits, len(lines)]
    for n, (a, b) in enumerate(pairwise(bounds)):
        when = int(start.timestamp()) + 86400 * n
        doc = builders.next_session_entry(entry, sessions, place="Szeged, Hungary", time=when,
                                          turns=lines[a:b], created=when + 3600)
        sessions.append(builders.seal(doc, body=signer))
    return [dump_yaml(d) for d in sessions]


def add_game(body: AffiliatedBody, pi: Player, po: Player, name: str = I_WINS, *,
             at: datetime = T0, model: str = "", rate: bool = True) -> RegistryGame:
    """A finished game straight into the archive (no records), rated by the ledger."""
    variant, _, tally = example(name)
    winner = tally["winner"] or "-"
    game = RegistryGame.objects.create(
        body=body, variant=variant, rated=True, scoring_model=model,
        source=RegistryGame.SUBMITTED, status=RegistryGame.FINISHED, player_i=pi,
        player_o=po, winner=winner, reason=tally["reason"] or "", rounds=tally["rounds"],
        tally=tally, played_at=at)
    if rate:
        rate_finished_game(game)
    return game


def hours(n: float) -> timedelta:
    return timedelta(hours=n)


def ratings(*players: Player) -> list[int]:
    return [Player.objects.get(pk=p.pk).rating for p in players]
