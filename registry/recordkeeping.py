"""ADAPTER between the site and the records core (``registry.records``).

The site needs four things from the records core: the site's affiliated-body key in
``settings.TALU_KEYRING``, a signed game entry (STGE) at game start, a signed session entry
(STSE) at session end, and the digital game slip (STDGS). This module delegates to the records
core (``builders.build_game_entry`` / ``next_session_entry`` / ``seal``, ``slip.slip_yaml``,
``keys.create_body_key``). The fallback below it (R31-R35 by hand: YAML, SHA-256 of the RFC 8785
JSON without the tail, a detached OpenPGP signature) only runs where the core cannot be imported
and is to be deleted once the core is committed.
"""

from __future__ import annotations

import base64
import hashlib
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rfc8785
import yaml
from django.conf import settings

FORMAT_VERSION = "1.0.0"
RULESET_VERSION = "2.0.0"
NOTATION_VERSION = "1.0"

_key_lock = threading.Lock()


@dataclass(frozen=True)
class SiteKey:
    fingerprint: str
    key_id: str  # "0x" + last 8 hex digits, upper-case (R33)
    public_key: str


def _gpg(*args: str, data: bytes | None = None) -> subprocess.CompletedProcess:
    home = Path(settings.TALU_KEYRING)
    home.mkdir(parents=True, exist_ok=True, mode=0o700)
    home.chmod(0o700)
    return subprocess.run(
        ["gpg", "--homedir", str(home), "--batch", "--yes", "--no-tty", "--pinentry-mode",
         "loopback", "--passphrase", "", *args],
        input=data, capture_output=True, check=True, timeout=60,
    )


def _fingerprint() -> str | None:
    out = _gpg("--list-secret-keys", "--with-colons").stdout.decode()
    for line in out.splitlines():
        if line.startswith("fpr:"):
            return line.split(":")[9]
    return None


_site_key: dict[str, SiteKey] = {}


def site_key() -> SiteKey:
    """The site's affiliated-body signing key, created in the keyring on first use."""
    home = str(settings.TALU_KEYRING)
    with _key_lock:
        if home in _site_key:
            return _site_key[home]
        if _records is not None:
            key = _core_site_key(home)
            _site_key[home] = key
            return key
        fpr = _fingerprint()
        if fpr is None:
            uid = f"{settings.TALU_BODY_NAME} <{settings.TALU_REGISTRAR_ID.lower()}@talu.invalid>"
            _gpg("--quick-generate-key", uid, "ed25519", "sign", "never")
            fpr = _fingerprint()
            if fpr is None:  # pragma: no cover
                raise RuntimeError("gpg did not create the site key")
        public = _gpg("--armor", "--export", fpr).stdout.decode()
        key = SiteKey(fpr, "0x" + fpr[-8:].upper(), public)
        _site_key[home] = key
        return key


def entry_hash(doc: dict[str, Any]) -> str:
    """R32: SHA-256 of the RFC 8785 JSON of the entry without its tail."""
    body = dict(doc)
    if "session" in body:
        session = dict(body["session"])
        session.pop("tail", None)
        body["session"] = session
    else:
        body.pop("tail", None)
    return hashlib.sha256(rfc8785.dumps(body)).hexdigest()


def sign(digest: str) -> dict[str, str]:
    key = site_key()
    sig = _gpg("--local-user", key.fingerprint, "--detach-sign", data=digest.encode()).stdout
    return {"registrar_id": settings.TALU_REGISTRAR_ID, "key_id": key.key_id,
            "signature": base64.b64encode(sig).decode()}


def dump(doc: dict[str, Any]) -> str:
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=1000)


def game_entry(*, game_id: str, variant: str, players: dict, created: int) -> tuple[str, str]:
    """The signed STGE (book 6.5.2.1, R31): (YAML text, hash)."""
    if _records is not None:
        doc = _records.builders.build_game_entry(players=players, variant=variant,
                                                 game_id=game_id, created=created)
        doc = _records.builders.seal(doc, body=_signer())
        return _records.yamlio.dump_yaml(doc), doc["tail"]["hash"]
    doc: dict[str, Any] = {
        "meta": {"format": "STGE", "format_version": FORMAT_VERSION, "created": created},
        "game": {"id": game_id, "type": variant, "ruleset_version": RULESET_VERSION,
                 "notation_version": NOTATION_VERSION},
        "players": players,
    }
    digest = entry_hash(doc)
    doc["tail"] = {"hash": digest, "signatures": {"affiliated_body": sign(digest)}}
    return dump(doc), digest


def session_entry(*, game_entry_text: str, game_id: str, session_id: int, previous_hash: str,
                  place: str, start: int, turns: list[str], board: dict[str, list[str]],
                  arbiter: list[dict]) -> tuple[str, str]:
    """The signed STSE (book 6.5.2.2, R31, R34): (YAML text, hash). One sitting per live game."""
    if _records is not None:
        entry = _records.yamlio.load_yaml(game_entry_text)
        doc = _records.builders.next_session_entry(entry, [], place=place, time=start,
                                                   turns=turns, board=board, arbiter=arbiter)
        doc = _records.builders.seal(doc, body=_signer())
        return _records.yamlio.dump_yaml(doc), doc["session"]["tail"]["hash"]
    session: dict[str, Any] = {
        "id": session_id,
        "meta": {"format": "STSE", "format_version": FORMAT_VERSION, "created": int(time.time()),
                 "game_id": game_id, "previous_hash": previous_hash},
        "start": {"place": place, "time": start},
        "turns": list(turns),
        "board": {"I": " ".join(board["I"]), "O": " ".join(board["O"])},
    }
    if arbiter:
        session["arbiter"] = arbiter
    doc = {"session": session}
    digest = entry_hash(doc)
    session["tail"] = {"hash": digest, "signatures": {"affiliated_body": sign(digest)}}
    return dump(doc), digest


def slip(game_entry_text: str, session_texts: list[str], engine) -> str:
    """The STDGS (R35): game entry + sessions + the generated tally."""
    if _records is not None:
        load = _records.yamlio.load_yaml
        return _records.slip.slip_yaml(load(game_entry_text), [load(t) for t in session_texts])
    from registry.scoring.tally import tally_game

    stge = yaml.safe_load(game_entry_text)
    sessions = sorted((yaml.safe_load(t)["session"] for t in session_texts), key=lambda s: s["id"])
    tally = tally_game(engine)
    doc = {
        "meta": {"format": "STDGS", "format_version": FORMAT_VERSION},
        "game": stge["game"],
        "players": stge["players"],
        "sessions": sessions,
        "tally": {"generated": {"by": "talu-server/0.1.0", "at": int(time.time())},
                  "player_I": dict(tally.codes["I"]), "player_O": dict(tally.codes["O"])},
    }
    return dump(doc)


def _load_core():
    """The records core's modules, or None while it is not there (see module docstring)."""
    try:
        from types import SimpleNamespace

        from registry.records import builders, keys, signing, slip, yamlio
    except ImportError:  # pragma: no cover - the core is part of the project
        return None
    return SimpleNamespace(builders=builders, keys=keys, signing=signing, slip=slip,
                           yamlio=yamlio)


_records = _load_core()


def _core_site_key(home: str) -> SiteKey:
    keys = _records.keys
    ring = keys.Keyring(home, create=True)
    try:
        info = keys.find_body_key(ring, settings.TALU_REGISTRAR_ID)
    except keys.KeyringError:
        info = keys.create_body_key(home, registrar_id=settings.TALU_REGISTRAR_ID,
                                    name=settings.TALU_BODY_NAME)
    return SiteKey(info.fingerprint, info.key_id, keys.export_public_key(ring, info.fingerprint))


def _signer():
    key = site_key()
    return _records.signing.Signer(str(settings.TALU_KEYRING), key.fingerprint,
                                   registrar_id=settings.TALU_REGISTRAR_ID)
