"""The digital game slip, STDGS (book 6.5.2.3, R35).

The slip is derived, never authored: :func:`build_slip` takes one game entry and its session
entries, checks that they verify as one game (structure, hashes, chain, notation; signatures
are not required to *derive* a slip, ``talu verify`` checks them), and merges them:

* ``meta``: ``format: STDGS``, ``format_version: "1.0.0"`` (no creation time: see below);
* ``game`` and ``players``: the game entry's, with the side spelled ``O`` (R31);
* ``sessions``: the entries' ``session`` mappings, unchanged (tails and signatures included),
  ordered by id, so each still checks against its own ``tail.hash``;
* ``tally``: ``generated`` (``by``: this program and version, ``at``: unix time) and
  ``player_I`` / ``player_O`` with all 22 codes of R19 in R19 order, derived from the replayed
  notation by :func:`registry.scoring.tally.tally_game`.

Determinism: the output is a function of the entries' content and of ``generated.by``; the
only varying byte range is ``tally.generated.at`` (pass ``generated_at`` to pin it). Input
order, file names and the entries' YAML layout do not matter.
"""

from __future__ import annotations

import copy
import os
import time as _time
from collections.abc import Mapping, Sequence
from typing import Any

from . import schema
from .errors import Fault, RecordError
from .verify import check_game_docs, load_record, record_from_doc, verify_records
from .yamlio import dump_yaml, write_text_atomic


def generator_name() -> str:
    """``tally.generated.by``: ``talu-server/<version>``."""
    try:
        from importlib.metadata import version

        return f"talu-server/{version('talu-server')}"
    except Exception:  # pragma: no cover - running from a tree that was never installed
        return "talu-server"


def _slip_doc(game_entry: Mapping[str, Any], sessions: Sequence[Mapping[str, Any]], game: Any,
              generated_at: int | None, generated_by: str | None) -> dict[str, Any]:
    from registry.scoring.tally import CODES, tally_game

    codes = tally_game(game).codes
    players = schema.sides(game_entry["players"])
    ordered = sorted((copy.deepcopy(dict(d["session"])) for d in sessions), key=lambda s: s["id"])
    return {
        "meta": {"format": schema.STDGS, "format_version": schema.FORMAT_VERSION},
        "game": copy.deepcopy(dict(game_entry["game"])),
        "players": {side: copy.deepcopy(dict(players[side])) for side in schema.SIDES},
        "sessions": ordered,
        "tally": {
            "generated": {
                "by": generated_by or generator_name(),
                "at": int(_time.time()) if generated_at is None else int(generated_at),
            },
            "player_I": {code: int(codes["I"][code]) for code in CODES},
            "player_O": {code: int(codes["O"][code]) for code in CODES},
        },
    }


def build_slip(
    game_entry: Mapping[str, Any],
    session_entries: Sequence[Mapping[str, Any]],
    *,
    generated_at: int | None = None,
    generated_by: str | None = None,
    game: Any = None,
) -> dict[str, Any]:
    """The STDGS document of one game; :class:`RecordError` with every fault when the entries
    do not verify as one game (nothing is produced then).

    ``game``: the ``TaluGame`` that a check of exactly these entries (signatures aside)
    has just replayed, from ``builders.next_session_entry_replayed`` when the site seals the
    entry it built: the entries are then not checked and replayed a second time."""
    if not session_entries:
        raise RecordError(Fault("a game slip needs at least one session entry"))
    if game is None:
        result = check_game_docs(game_entry, session_entries, check_signatures=False)
        if result.faults:
            raise RecordError(result.faults)
        if result.game is None:  # pragma: no cover - faults would have been reported
            raise RecordError(Fault("the notation could not be replayed"))
        game = result.game
    return _slip_doc(game_entry, session_entries, game, generated_at, generated_by)


def slip_yaml(
    game_entry: Mapping[str, Any],
    session_entries: Sequence[Mapping[str, Any]],
    *,
    generated_at: int | None = None,
    generated_by: str | None = None,
    game: Any = None,
) -> str:
    """The slip as YAML text (see :func:`build_slip`)."""
    return dump_yaml(build_slip(game_entry, session_entries, generated_at=generated_at,
                                generated_by=generated_by, game=game))


def slip_from_files(
    game_path: str | os.PathLike[str],
    session_paths: Sequence[str | os.PathLike[str]],
    *,
    generated_at: int | None = None,
    generated_by: str | None = None,
) -> str:
    """``talu slip``: read the files, check them as one game, return the slip's YAML.

    Faults name their files. Raises :class:`RecordError` (and produces nothing) when the game
    entry is not an STGE, a session file is not an STSE of the same game, or they do not verify
    as one game (signatures aside).
    """
    game_rec = load_record(game_path)
    session_recs = [load_record(p) for p in session_paths]
    faults: list[Fault] = []
    for rec in [game_rec, *session_recs]:
        faults += rec.faults
    if game_rec.ok and game_rec.format != schema.STGE:
        faults.append(Fault(f"expected a game entry (STGE), got {game_rec.format}",
                            "meta.format", game_rec.name))
    for rec in session_recs:
        if rec.ok and rec.format != schema.STSE:
            faults.append(Fault(f"expected a session entry (STSE), got {rec.format}",
                                "meta.format", rec.name))
    if faults:
        raise RecordError(faults)
    game_id = game_rec.doc["game"]["id"]
    for rec in session_recs:
        if rec.doc["session"]["meta"]["game_id"] != game_id:
            faults.append(Fault(f"belongs to game {rec.doc['session']['meta']['game_id']}, "
                                f"not to {game_id} ({game_rec.name})", "session.meta.game_id",
                                rec.name))
    if faults:
        raise RecordError(faults)
    faults = verify_records([game_rec, *session_recs], check_signatures=False)
    if faults:
        raise RecordError(faults)
    return slip_yaml(game_rec.doc, [r.doc for r in session_recs], generated_at=generated_at,
                     generated_by=generated_by)


def write_slip(path: str | os.PathLike[str], text: str, *, overwrite: bool = False) -> None:
    """Write a slip made by :func:`slip_yaml` after checking it again (atomically)."""
    from .yamlio import load_yaml

    doc = load_yaml(text)
    faults = verify_records([record_from_doc(doc, os.fspath(path))], check_signatures=False)
    if faults:
        raise RecordError(faults)
    write_text_atomic(path, text, overwrite=overwrite)
