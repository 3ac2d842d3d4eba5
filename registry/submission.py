"""Over-the-board games submitted by an affiliated body (book 5.3.4): verify, archive, rate.

A body uploads the game entry (STGE) and the session entries (STSE) of a finished game. The
records core checks them (structure, hashes R32, the chain, signatures R33, the notation
replayed through ``play.games.talu``); this module adds the registry's checks (the records are
the submitting body's, signed with the key each names among the body's keys, ``keys_on_file``:
the current one, or a retired one for what it signed before its retirement, never a revoked
one, issue 38; both players are registered and differ; the game is new and finished) and
collects *every* reason before answering. An accepted game is archived with its records, tally
and STGN and rated by the ledger exactly as a live game; a rejected one changes nothing.
"""

from __future__ import annotations

import atexit
import hashlib
import shutil
import tempfile
import threading
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.db import transaction

from play.games.talu import write_stgn
from registry.ledger import rate_finished_game, tally_to_json
from registry.models import (
    AffiliatedBody,
    AuditEntry,
    BodyKey,
    GameRecord,
    Player,
    RegistryGame,
)
from registry.records import keys, schema, yamlio
from registry.records import slip as slips
from registry.records.errors import RecordError
from registry.records.verify import check_game_docs
from registry.scoring.tally import tally_game

MAX_SESSIONS = 100
MAX_TEXT = 2_000_000


class SubmissionRejected(ValueError):
    """A submission (or correction) refused, with every reason a body needs to fix it."""

    def __init__(self, reasons: list[str]) -> None:
        self.reasons = list(reasons) or ["rejected"]
        super().__init__("; ".join(self.reasons))


@dataclass
class CheckedGame:
    """A verified game: its parsed records and everything the registry stores about it."""

    entry: dict[str, Any]
    sessions: list[dict[str, Any]]
    entry_text: str
    session_texts: list[str]
    game_id: uuid.UUID
    variant: str
    players: dict[str, str]  # side -> R26 player id
    winner: str
    reason: str
    rounds: int
    tally: dict[str, Any]
    stgn: str
    played_at: datetime


# --- the body's keyring -------------------------------------------------------------------------

_rings: dict[str, str] = {}
_rings_lock = threading.Lock()
_ring_base: str | None = None


@dataclass(frozen=True)
class BodyKeyOnFile:
    """A key a body has had (``BodyKey``, or the ``AffiliatedBody.public_key`` on file that no
    row holds yet): what a record naming it is checked against."""

    key_id: str
    public_key: str
    retired: datetime | None = None
    revoked: datetime | None = None
    revoked_reason: str = ""
    subkey_ids: tuple[str, ...] = ()
    recorded: bool = True  # False: ``AffiliatedBody.public_key`` only, its subkeys unknown

    def named_by(self, key_id: str) -> bool:
        """Whether a record naming ``key_id`` (R33) was signed with this key or a subkey."""
        return key_id.upper() in {self.key_id.upper(), *(k.upper() for k in self.subkey_ids)}


def keys_on_file(body: AffiliatedBody) -> list[BodyKeyOnFile]:
    """Every key of ``body``: current, retired (rotated out) and revoked (issue 38,
    ``registry.clubs.keys``)."""
    found = [BodyKeyOnFile(k.key_id, k.public_key, k.retired, k.revoked, k.revoked_reason,
                           tuple(k.subkey_ids.split()))
             for k in BodyKey.objects.filter(body=body).order_by("added", "id")]
    if body.public_key.strip() and not any(k.key_id == body.key_id for k in found):
        found.append(BodyKeyOnFile(body.key_id, body.public_key, recorded=False))
    return found


def body_keyring(body: AffiliatedBody) -> str:
    """A GnuPG home holding only ``body``'s public keys that may still verify (its current
    and retired keys, not the revoked ones), made once per set of keys per process, so a
    record signed by any other key fails its signature check."""
    usable = sorted(k.public_key for k in keys_on_file(body) if k.revoked is None)
    return _keyring_of(usable)


def _keyring_of(public_keys: list[str]) -> str:
    global _ring_base
    digest = hashlib.sha256("\0".join(public_keys).encode()).hexdigest()[:24]
    with _rings_lock:
        if digest not in _rings:
            if _ring_base is None:
                _ring_base = tempfile.mkdtemp(prefix="talu-bodies-")
            home = Path(_ring_base) / digest
            ring = keys.Keyring(home, create=True)
            try:
                for text in public_keys:
                    keys.import_public_keys(ring, text)
            finally:
                keys.stop_agent(home)  # importing may start one; verifying needs none
            _rings[digest] = str(home)
        return _rings[digest]


def _day(when: datetime) -> str:
    return when.strftime("%Y-%m-%d %H:%M UTC")


def _key_reasons(body: AffiliatedBody, on_file: list[BodyKeyOnFile], what: str, meta: Any,
                 tail: Any) -> list[str]:
    """The key a record names (R33 ``key_id``) must be one of the body's, not revoked, and,
    when retired, have signed before its retirement: the entry's ``meta.created`` is earlier.

    A revoked key is refused whatever the entry's date: whoever holds a lost key can date a
    record as they like (the choice where R31-R35 are silent; docs/clubs.md)."""
    sigs = tail.get("signatures") if isinstance(tail, dict) else None
    roles = schema.signature_roles(sigs) if isinstance(sigs, dict) else {}
    block = roles.get(schema.BODY_ROLE)
    named = block.get("key_id") if isinstance(block, dict) else None
    if not isinstance(named, str):
        return []  # the records core reports a missing or malformed signature
    match = next((k for k in on_file if k.named_by(named)), None)
    if match is None:
        if not all(k.recorded for k in on_file):
            return []  # a key on file whose subkeys are not known: gpg decides
        known = ", ".join(k.key_id for k in on_file)
        return [f"{what}: the body's signature is by key {named}, which is not a key of "
                f"{body.registrar_id} (its keys: {known})"]
    if match.revoked is not None:
        return [f"{what}: the body's signature is by key {named}, which {body.registrar_id} "
                f"revoked on {_day(match.revoked)} ({match.revoked_reason}): no record signed "
                "with a revoked key is accepted"]
    if match.retired is not None:
        created = meta.get("created") if isinstance(meta, dict) else None
        try:
            made = datetime.fromtimestamp(created, tz=UTC) if type(created) is int else None
        except (OverflowError, OSError, ValueError):
            made = None
        if made is None or made >= match.retired:
            dated = f"made {_day(made)}" if made else "without a readable meta.created"
            return [f"{what}: the body's signature is by key {named}, retired on "
                    f"{_day(match.retired)} when a new key replaced it: it verifies only "
                    f"records made before then, and this one is {dated}; sign it with the "
                    f"current key {body.key_id or '(none: add one)'}"]
    return []


def _all_key_reasons(body: AffiliatedBody, entry: Any, sessions: list[Any]) -> list[str]:
    on_file = keys_on_file(body)
    reasons = []
    if isinstance(entry, dict):
        reasons += _key_reasons(body, on_file, "game entry", entry.get("meta"),
                                entry.get("tail"))
    for i, doc in enumerate(sessions):
        if isinstance(doc, dict) and isinstance(doc.get("session"), dict):
            session = doc["session"]
            reasons += _key_reasons(body, on_file, f"session entry {i + 1}",
                                    session.get("meta"), session.get("tail"))
    return reasons


@atexit.register
def _drop_keyrings() -> None:
    """Stop any agent a keyring started and remove the scratch keyrings."""
    with _rings_lock:
        for home in _rings.values():
            keys.stop_agent(home)
        if _ring_base is not None:
            shutil.rmtree(_ring_base, ignore_errors=True)
        _rings.clear()


# --- parsing and checking -----------------------------------------------------------------------


def _parse(text: Any, what: str, reasons: list[str]) -> Any:
    if not isinstance(text, str) or not text.strip():
        reasons.append(f"{what}: empty (a YAML record is expected)")
        return None
    if len(text) > MAX_TEXT:
        reasons.append(f"{what}: larger than {MAX_TEXT} characters")
        return None
    try:
        return yamlio.load_yaml(text)
    except RecordError as exc:
        reasons += [f"{what}: {f}" for f in exc.faults]
        return None


def registrar_of(tail: Any) -> tuple[bool, Any]:
    """(whether the records carry a body signature, the registrar id it names)."""
    sigs = tail.get("signatures") if isinstance(tail, dict) else None
    roles = schema.signature_roles(sigs) if isinstance(sigs, dict) else {}
    block = roles.get(schema.BODY_ROLE)
    if not isinstance(block, dict):
        return False, None
    return True, block.get("registrar_id")


def _registrar_reasons(body: AffiliatedBody, doc: Any, what: str, tail: Any) -> list[str]:
    """The records must be this body's: its registrar id on the body signature."""
    signed, rid = registrar_of(tail)
    if not signed:
        return []  # the records core reports the missing signature
    if rid != body.registrar_id:
        return [f"{what}: signed for registrar {rid!r}, not for the submitting body "
                f"{body.registrar_id} (a body submits only its own records)"]
    return []


def verify_sessions(body: AffiliatedBody, stge_text: str, stse_texts: list[str]) -> CheckedGame:
    """Verify a game entry and its session entries as ``body``'s records of one finished game.

    Raises :class:`SubmissionRejected` with every reason found.
    """
    reasons: list[str] = []
    if not any(k.revoked is None for k in keys_on_file(body)):
        raise SubmissionRejected([f"the body {body.registrar_id} has no public key on file "
                                  "(or only revoked ones): its signatures cannot be checked; "
                                  "its registrars add a key on the club's keys page"])
    if not isinstance(stse_texts, list | tuple) or not stse_texts:
        raise SubmissionRejected(["no session entry (STSE) given: a game needs at least one"])
    if len(stse_texts) > MAX_SESSIONS:
        raise SubmissionRejected([f"more than {MAX_SESSIONS} session entries"])
    entry = _parse(stge_text, "game entry", reasons)
    sessions = [_parse(t, f"session entry {i + 1}", reasons) for i, t in enumerate(stse_texts)]
    if reasons:
        raise SubmissionRejected(reasons)
    key_reasons = _all_key_reasons(body, entry, sessions)  # the key each record names
    if key_reasons:
        raise SubmissionRejected(key_reasons)
    try:
        ring = body_keyring(body)
    except keys.KeyringError as exc:
        raise SubmissionRejected([f"the body's public key cannot be used: {exc}"]) from None
    check = check_game_docs(entry, sessions, keyring=ring)
    reasons += [str(f) for f in check.faults]
    if isinstance(entry, dict):
        reasons += _registrar_reasons(body, entry, "game entry", entry.get("tail"))
    for i, doc in enumerate(sessions):
        if isinstance(doc, dict) and isinstance(doc.get("session"), dict):
            reasons += _registrar_reasons(body, doc, f"session entry {i + 1}",
                                          doc["session"].get("tail"))
    if reasons or check.game is None:
        raise SubmissionRejected(reasons or ["the records do not verify"])
    game = check.game
    if game.outcome is None:
        raise SubmissionRejected(["the game is not finished: only a finished game can be "
                                  "archived and rated (submit it when its last session ends "
                                  "with the result line, R31)"])
    ordered = sorted(zip(sessions, stse_texts, strict=True),
                     key=lambda p: p[0]["session"]["id"])
    tally = tally_game(game)
    o = game.outcome
    last_start = ordered[-1][0]["session"]["start"]["time"]
    return CheckedGame(
        entry=entry, sessions=[d for d, _ in ordered], entry_text=stge_text,
        session_texts=[t for _, t in ordered], game_id=uuid.UUID(str(entry["game"]["id"])),
        variant=str(entry["game"]["type"]),
        players={s: str(schema.sides(entry["players"])[s]["id"]) for s in ("I", "O")},
        winner=o.winner.value if o.winner else "-", reason=o.reason.value,
        rounds=tally.rounds, tally=tally_to_json(tally), stgn=write_stgn(game),
        played_at=datetime.fromtimestamp(int(last_start), tz=UTC),
    )


def archive_records(game: RegistryGame, checked: CheckedGame, *, revision: int = 0,
                    include_entry: bool = True) -> None:
    """Store the verified records of ``game`` (STGE, each STSE, STDGS, STGN) at ``revision``."""
    recs = []
    if include_entry:
        recs.append(GameRecord(game=game, kind=GameRecord.STGE, revision=revision,
                               content=checked.entry_text, hash=checked.entry["tail"]["hash"]))
    for doc, text in zip(checked.sessions, checked.session_texts, strict=True):
        s = doc["session"]
        recs.append(GameRecord(game=game, kind=GameRecord.STSE, session=int(s["id"]),
                               revision=revision, content=text, hash=s["tail"]["hash"]))
    recs.append(GameRecord(game=game, kind=GameRecord.STDGS, revision=revision,
                           content=slips.slip_yaml(checked.entry, checked.sessions)))
    recs.append(GameRecord(game=game, kind=GameRecord.STGN, revision=revision,
                           content=checked.stgn))
    GameRecord.objects.bulk_create(recs)


# --- submission ---------------------------------------------------------------------------------


def submit_game(body: AffiliatedBody, stge_text: str, stse_texts: list[str], *,
                actor_user=None) -> RegistryGame:
    """Verify, archive and rate an over-the-board game of ``body`` (one transaction).

    Raises :class:`SubmissionRejected` listing every reason; then nothing is changed.
    """
    if body.suspended is not None:  # the federation's suspension (issue 38, registry.clubs)
        raise SubmissionRejected([f"the body {body.registrar_id} is suspended by the "
                                  "federation: it submits no records until the suspension "
                                  "is lifted"])
    checked = verify_sessions(body, stge_text, stse_texts)
    reasons: list[str] = []
    found = {p.player_id: p for p in Player.objects.filter(player_id__in=checked.players.values())}
    for side in ("I", "O"):
        pid = checked.players[side]
        if pid not in found:
            reasons.append(f"game entry: players.{side}.id: {pid!r} is not a registered "
                           "player (R26)")
    if checked.players["I"] == checked.players["O"]:
        reasons.append("game entry: players: the same player cannot play both sides")
    if RegistryGame.objects.filter(game_id=checked.game_id).exists():
        reasons.append(f"game entry: game.id: game {checked.game_id} is already in the "
                       "registry")
    if reasons:
        raise SubmissionRejected(reasons)
    with transaction.atomic():
        if RegistryGame.objects.select_for_update().filter(game_id=checked.game_id).exists():
            raise SubmissionRejected([f"game entry: game.id: game {checked.game_id} is already "
                                      "in the registry"])
        game = RegistryGame.objects.create(
            game_id=checked.game_id, body=body, variant=checked.variant, rated=True,
            scoring_model=body.scoring_model, source=RegistryGame.SUBMITTED,
            status=RegistryGame.FINISHED, player_i=found[checked.players["I"]],
            player_o=found[checked.players["O"]], winner=checked.winner,
            reason=checked.reason, rounds=checked.rounds, tally=checked.tally,
            stgn=checked.stgn, played_at=checked.played_at,
        )
        archive_records(game, checked)
        summary = rate_finished_game(game)
        AuditEntry.objects.create(
            action=AuditEntry.SUBMIT, game=game, actor_body=body, actor_user=actor_user,
            reason="submitted by the body", before={},
            after={"game_id": str(game.game_id), "winner": game.winner, "reason": game.reason,
                   "played_at": game.played_at.isoformat(), **summary.as_dict()},
        )
    return game
