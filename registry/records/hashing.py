"""The hash of an entry (R32) and the previous-hash chain.

``tail.hash`` = lower-case hex SHA-256 of the RFC 8785 (JSON Canonicalization Scheme) bytes of
the whole entry document exactly as written, with its tail mapping removed: ``tail`` for a game
entry, ``session.tail`` for a session entry (the ``session:`` wrapper is kept). A session
embedded in a slip is hashed as the standalone entry it came from, ``{"session": item}``
without ``tail``, so its ``tail.hash`` still checks.

Canonicalisation is done by the ``rfc8785`` package (Trail of Bits, a complete and tested
implementation of the RFC), not by hand: key sorting by UTF-16 code units, number formatting
and string escaping are exactly the parts a home-made version gets wrong.

"Exactly as written" means no normalisation: a document written with the book's ``0:`` side key
is hashed with the key ``"0"`` (JSON keys are strings; YAML had read it as the integer 0), and
one written with ``O:`` is hashed with ``"O"``. The spelling is part of what was signed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import rfc8785

from .errors import Fault, RecordError
from .schema import STDGS, STGE, STSE, format_of


def _jsonable(value: Any, path: str = "") -> Any:
    """The JSON data model of a parsed YAML value; integer keys become their decimal text."""
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if isinstance(key, bool) or not isinstance(key, str | int):
                raise RecordError(Fault(f"key {key!r} cannot be hashed (not a string)", path))
            name = str(key)
            if name in out:
                raise RecordError(Fault(f"key {name!r} appears twice once written as text", path))
            out[name] = _jsonable(item, f"{path}.{name}" if path else name)
        return out
    if isinstance(value, list | tuple):
        return [_jsonable(item, f"{path}[{i}]") for i, item in enumerate(value)]
    return value


def canonical_json(value: Any) -> bytes:
    """RFC 8785 canonical JSON bytes of a parsed document (or any part of one)."""
    try:
        return rfc8785.dumps(_jsonable(value))
    except rfc8785.CanonicalizationError as exc:
        raise RecordError(Fault(f"cannot be canonicalised (RFC 8785): {exc}")) from None


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def game_entry_body(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a game entry covered by its hash: everything but the top-level ``tail``."""
    return {k: v for k, v in doc.items() if k != "tail"}


def session_body(session: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a session covered by its hash, given the mapping under ``session:``."""
    return {"session": {k: v for k, v in session.items() if k != "tail"}}


def game_entry_hash(doc: Mapping[str, Any]) -> str:
    """R32 hash of a game entry document."""
    return sha256_hex(canonical_json(game_entry_body(doc)))


def session_hash(session: Mapping[str, Any]) -> str:
    """R32 hash of a session, given the mapping under ``session:`` (or a slip's session item)."""
    return sha256_hex(canonical_json(session_body(session)))


def entry_hash(doc: Mapping[str, Any]) -> str:
    """R32 hash of a game or session entry document (not of a slip, which has no own hash)."""
    fmt = format_of(doc)
    if fmt == STGE:
        return game_entry_hash(doc)
    if fmt == STSE:
        return session_hash(doc["session"])
    assert fmt == STDGS
    raise RecordError(Fault("a game slip has no hash of its own; its sessions do", "meta.format"))


def tail_of(doc: Mapping[str, Any]) -> Any:
    """The tail mapping of a game or session entry (None when absent)."""
    if format_of(doc) == STSE:
        return doc["session"].get("tail")
    return doc.get("tail")
