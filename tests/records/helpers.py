"""Shared helpers: a real game from the shared examples, recorded as signed entries."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from play.games.talu import read_stgn
from registry.records import builders
from registry.records.signing import Signer
from registry.records.yamlio import dump_yaml, load_yaml

EXAMPLES = Path(__file__).resolve().parents[3] / "shared" / "examples"
if not EXAMPLES.is_dir():  # the shared folder sits next to the repository
    EXAMPLES = Path("/work/shared/examples")
REAL_GAME = EXAMPLES / "legal-003-standard-normal.stgn"
PLAYERS = {"I": ("2894-8Y7I", "Marcus Tarell"), "O": ("I2D5-XN9G", "Alice Vorin")}
GAME_ID = "c8b7e901-4e90-4a1b-9c2d-0fd7be2d6341"


def canonical_lines(path: Path, variant: str = "standard") -> list[str]:
    """The canonical STGN lines (result line included) of an example game."""
    return read_stgn(path.read_text(encoding="utf-8"), variant).stgn_lines()


@dataclass
class RealGame:
    dir: Path
    game: Path
    sessions: list[Path]
    game_doc: dict[str, Any]
    session_docs: list[dict[str, Any]]

    @property
    def paths(self) -> list[Path]:
        return [self.game, *self.sessions]

    def load(self, path: Path) -> Any:
        return load_yaml(path.read_text(encoding="utf-8"))

    def rewrite(self, path: Path, doc: Any) -> None:
        path.write_text(dump_yaml(doc), encoding="utf-8")

    def edit(self, path: Path, change) -> None:
        doc = copy.deepcopy(self.load(path))
        change(doc)
        self.rewrite(path, doc)


def record_game(lines: list[str], splits: list[int], signer: Signer | None,
                variant: str = "standard") -> tuple[dict, list[dict]]:
    """Game entry and session entries (sealed, signed when ``signer``) of ``lines`` cut at
    ``splits`` (indices into ``lines``)."""
    entry = builders.build_game_entry(players=PLAYERS, variant=variant, game_id=GAME_ID,
                                      created=1708442000)
    entry = builders.seal(entry, body=signer)
    sessions: list[dict] = []
    bounds = [0, *splits, len(lines)]
    for n, (a, b) in enumerate(pairwise(bounds)):
        doc = builders.next_session_entry(entry, sessions, place="Szeged, Hungary",
                                          time=1708442160 + 86400 * n, turns=lines[a:b],
                                          created=1708442160 + 86400 * n + 3600)
        sessions.append(builders.seal(doc, body=signer))
    return entry, sessions


def write_real_game(directory: Path, signer: Signer | None, splits: tuple[int, ...] = (20,),
                    source: Path = REAL_GAME,
                    docs: tuple[dict, list[dict]] | None = None) -> RealGame:
    """Write a game entry and its session entries into ``directory`` (sealed now, or the
    already sealed ``docs``)."""
    if docs is None:
        docs = record_game(canonical_lines(source), list(splits), signer)
    entry, sessions = copy.deepcopy(docs)
    game_path = directory / "game.yaml"
    builders.write_entry(game_path, entry)
    paths = []
    for doc in sessions:
        p = directory / f"session-{doc['session']['id']}.yaml"
        builders.write_entry(p, doc)
        paths.append(p)
    return RealGame(directory, game_path, paths, entry, sessions)
