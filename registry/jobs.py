"""The registry's long jobs and administration steps, as functions (the management commands
are thin wrappers; tests and benchmarks call these directly).

* :func:`recompute_ratings` every rating from the first game on (R30);
* :func:`export_records` every record file of every game into a directory, with a manifest;
* :func:`import_records` such a directory back, each game verified as a submission by the body
  named in its records (book 5.3.4); rejected games are reported with their reasons;
* :func:`create_body` a certified affiliated body with its public key (and a first API token);
  :func:`new_body` the body alone (the federation's approval on the site, issue 38);
* :func:`register_player` an over-the-board player (R26).

Progress bars (tqdm) go to stderr and can be turned off.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from tqdm import tqdm

from play.games.text import TextError, clean_name
from registry import corrections, ledger
from registry.models import AffiliatedBody, GameRecord, Player, RegistryGame
from registry.records import keys, yamlio
from registry.records.errors import RecordError
from registry.scoring import strata
from registry.submission import SubmissionRejected, registrar_of, submit_game
from registry.tokens import issue_token

MANIFEST = "manifest.json"
MANIFEST_FORMAT = "talu-registry-export/1"


class JobError(ValueError):
    """Bad input to a job: a message for the person who ran it, nothing changed."""


def _bar(total: int | None, desc: str, progress: bool) -> tqdm:
    return tqdm(total=total, desc=desc, unit="game", file=sys.stderr, disable=not progress,
                mininterval=0.5)


# --- recompute ----------------------------------------------------------------------------------


def recompute_ratings(*, progress: bool = True, actor_user=None) -> ledger.Summary:
    """R30: every rating recomputed from the stored tallies; only differing rows written."""
    total = RegistryGame.objects.filter(ledger.RATED_Q).count()
    with _bar(total, "recompute", progress) as bar:
        return corrections.audited_recompute_all(bar.update, actor_user=actor_user)


# --- export -------------------------------------------------------------------------------------


def _game_dir(game_id: Any) -> str:
    return str(game_id)


def export_records(directory: str | os.PathLike[str], *, progress: bool = True) -> int:
    """Write every record of every game (superseded ones too) to ``directory/<game id>/``
    and a ``manifest.json`` listing games (status, body, date) and files (kind, session,
    revision, superseded, SHA-256). Returns the number of games."""
    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)
    if any(root.iterdir()):
        raise JobError(f"{root} is not empty: export into a new or empty directory")
    games = (RegistryGame.objects.select_related("body", "player_i", "player_o")
             .order_by("played_at", "id"))
    entries: list[dict[str, Any]] = []
    total = games.count()
    with _bar(total, "export", progress) as bar:
        current: dict[str, Any] | None = None
        records = (GameRecord.objects.select_related("game").order_by(
            "game__played_at", "game_id", "kind", "session", "revision"))
        by_game = {g.pk: g for g in games.iterator(chunk_size=2000)}
        for rec in records.iterator(chunk_size=2000):
            game = by_game[rec.game_id]
            if current is None or current["pk"] != game.pk:
                if current is not None:
                    bar.update(1)
                current = {"pk": game.pk, "game_id": str(game.game_id), "status": game.status,
                           "source": game.source, "body": game.body.registrar_id,
                           "played_at": game.played_at.isoformat(), "revision": game.revision,
                           "players": {"I": game.player_i.player_id,
                                       "O": game.player_o.player_id},
                           "files": []}
                entries.append(current)
                (root / _game_dir(game.game_id)).mkdir()
            name = f"{_game_dir(game.game_id)}/{rec.filename}"
            data = rec.content.encode("utf-8")
            (root / name).write_bytes(data)
            current["files"].append({"name": name, "kind": rec.kind, "session": rec.session,
                                     "revision": rec.revision, "superseded": rec.superseded,
                                     "sha256": hashlib.sha256(data).hexdigest()})
        if current is not None:
            bar.update(1)
    for e in entries:
        e.pop("pk")
    manifest = {"format": MANIFEST_FORMAT, "games": entries}
    yamlio.write_text_atomic(root / MANIFEST, json.dumps(manifest, indent=1) + "\n")
    return len(entries)


# --- import -------------------------------------------------------------------------------------


@dataclass
class ImportReport:
    accepted: list[str] = field(default_factory=list)
    rejected: dict[str, list[str]] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)


def _manifest(root: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise JobError(f"{root / MANIFEST} not found: import reads an export directory") from None
    except (OSError, ValueError) as exc:
        raise JobError(f"{root / MANIFEST}: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT:
        raise JobError(f"{root / MANIFEST}: not a {MANIFEST_FORMAT} manifest")
    games = data.get("games")
    if not isinstance(games, list):
        raise JobError(f"{root / MANIFEST}: 'games' is not a list")
    for n, entry in enumerate(games):
        files = entry.get("files", []) if isinstance(entry, dict) else None
        if not isinstance(files, list) or not all(isinstance(f, dict) for f in files):
            raise JobError(f"{root / MANIFEST}: game {n + 1} is not an entry with a list of "
                           f"files")
    return games


def _registrar_named(stge_text: str) -> str | None:
    """The registrar id on the game entry's body signature (the body named in the records)."""
    try:
        doc = yamlio.load_yaml(stge_text)
    except RecordError:
        return None
    signed, rid = registrar_of(doc.get("tail") if isinstance(doc, dict) else None)
    return str(rid) if signed and rid is not None else None


def _current_files(root: Path, entry: dict[str, Any]) -> tuple[str | None, list[str], list[str]]:
    problems: list[str] = []
    stge: str | None = None
    stses: list[tuple[int, str]] = []
    for f in entry.get("files", []):
        if f.get("superseded") or f.get("kind") not in ("STGE", "STSE"):
            continue
        path = (root / str(f.get("name", ""))).resolve()
        if root.resolve() not in path.parents:
            problems.append(f"{f.get('name')}: outside the export directory")
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            problems.append(f"{f.get('name')}: {exc.strerror or exc}")
            continue
        if hashlib.sha256(text.encode("utf-8")).hexdigest() != f.get("sha256"):
            problems.append(f"{f.get('name')}: does not match its SHA-256 in the manifest")
        if f["kind"] == "STGE":
            stge = text
            continue
        try:
            stses.append((int(f.get("session") or 0), text))
        except (TypeError, ValueError):
            problems.append(f"{f.get('name')}: session {f.get('session')!r} is not a number")
    return stge, [t for _, t in sorted(stses)], problems


def import_records(directory: str | os.PathLike[str], *, progress: bool = True) -> ImportReport:
    """Import an export: each finished game submitted by the body named in its records, in
    chronological order (so each is rated as the newest game); every rejection reported."""
    root = Path(directory)
    games = _manifest(root)
    bodies = {b.registrar_id: b for b in AffiliatedBody.objects.all()}
    report = ImportReport()
    with _bar(len(games), "import", progress) as bar:
        for entry in sorted(games, key=lambda e: str(e.get("played_at", ""))):
            bar.update(1)
            gid = str(entry.get("game_id"))
            if entry.get("status") != RegistryGame.FINISHED:
                report.skipped[gid] = f"status {entry.get('status')} (only finished games)"
                continue
            stge, stses, problems = _current_files(root, entry)
            if stge is None:
                report.rejected[gid] = [*problems, "no game entry (STGE) in the export"]
                continue
            registrar = _registrar_named(stge)
            body = bodies.get(registrar or "")
            if body is None:
                report.rejected[gid] = [*problems, f"the body named in the records "
                                        f"({registrar}) is not a registered affiliated body"]
                continue
            if problems:
                report.rejected[gid] = problems
                continue
            try:
                submit_game(body, stge, stses)
            except SubmissionRejected as exc:
                report.rejected[gid] = exc.reasons
            else:
                report.accepted.append(gid)
    return report


# --- bodies and players -------------------------------------------------------------------------


def _key_of(public_key: str) -> str:
    """The key id (R33) of an armored public key, checked by importing it into a scratch
    keyring."""
    with tempfile.TemporaryDirectory(prefix="talu-key-") as home:
        try:
            fprs = keys.import_public_keys(keys.Keyring(home, create=True), public_key)
        except keys.KeyringError as exc:
            raise JobError(f"the public key cannot be read: {exc}") from None
        finally:
            keys.stop_agent(home)
    if len(fprs) != 1:
        raise JobError(f"expected one public key, found {len(fprs)}")
    return keys.key_id_of(fprs[0])


def create_body(registrar_id: str, *, name: str, stratum: int, public_key: str,
                scoring_model: str = "", token_label: str = "initial") -> tuple[AffiliatedBody,
                                                                                  str]:
    """A certified affiliated body and its first API token (returned in plain, once)."""
    if not public_key.strip():  # the operator's body signs its records: a key is needed
        raise JobError("expected one public key, found 0")
    with transaction.atomic():
        body = new_body(registrar_id, name=name, stratum=stratum, public_key=public_key,
                        scoring_model=scoring_model)
        token = issue_token(body, token_label)
    return body, token


def new_body(registrar_id: str, *, name: str, stratum: int, public_key: str = "",
             scoring_model: str = "", place: str = "") -> AffiliatedBody:
    """A certified affiliated body, its registrar id and public key checked (the one place
    bodies are made: ``create_body`` here, and the federation's approval on the site,
    ``registry.clubs``, whose bodies have no key until they add one)."""
    registrar_id = registrar_id.strip()
    if not keys.REGISTRAR_RE.match(registrar_id):  # the id its signing key must carry
        raise JobError(f"{registrar_id!r} is not a registrar id: 1-64 letters, digits, '.', "
                       "'_' or '-', starting with a letter or digit (e.g. GTF-HU-SZEGED-01)")
    if AffiliatedBody.objects.filter(registrar_id=registrar_id).exists():
        raise JobError(f"a body {registrar_id} already exists")
    key_id = _key_of(public_key) if public_key.strip() else ""
    body = AffiliatedBody(registrar_id=registrar_id, name=name.strip() or registrar_id,
                          stratum=stratum, public_key=public_key, key_id=key_id,
                          scoring_model=scoring_model, place=place)
    try:
        with transaction.atomic():
            body.save()
    except ValidationError as exc:
        raise JobError("; ".join(m for ms in exc.message_dict.values() for m in ms)) from None
    return body


def register_player(name: str, *, body: str | None = None, player_id: str | None = None,
                    stratum: int = 1, rating: int | None = None) -> Player:
    """An over-the-board player (R26: S1, 250, a new 18-character id), or one carried over
    from an earlier record with ``stratum``/``rating`` as their starting standing."""
    try:
        name = clean_name(name)  # the one check of every name (play.games.text)
    except TextError as err:
        raise JobError(f"a player's name {err}") from None
    if stratum not in strata.STRATA:
        raise JobError("stratum is 1, 2 or 3")
    start = strata.stratum(stratum).base if rating is None else rating
    if start <= 0:
        raise JobError("a rating is positive")
    owner = None
    if body:
        owner = AffiliatedBody.objects.filter(registrar_id=body).first()
        if owner is None:
            raise JobError(f"no affiliated body {body}")
    fields: dict[str, Any] = {}
    if player_id:
        if not strata.is_player_id(player_id):
            raise JobError("a player id is 18 upper-case letters and digits (R26)")
        if Player.objects.filter(player_id=player_id).exists():
            raise JobError(f"player {player_id} is already registered")
        fields["player_id"] = player_id
    return Player.objects.create(display_name=name, body=owner, stratum=stratum,
                                 rating=start, start_stratum=stratum, start_rating=start,
                                 **fields)

