"""Building, sealing and writing game entries (STGE) and session entries (STSE).

The life of a game's records, from Python::

    from registry.records import builders, signing

    body = signing.Signer(keyring_dir, key_id_or_fingerprint, registrar_id="GTF-HU-SZEGED-01")

    # when the game starts
    entry = builders.build_game_entry(variant="standard",
                                      players={"I": ("2894-8Y7I", "Marcus Tarell"),
                                               "O": ("I2D5-XN9G", "Alice Vorin")})
    entry = builders.seal(entry, body=body)
    builders.write_entry("games/<id>/game.yaml", entry)

    # at the end of each sitting (``game`` is the live play.games.talu.TaluGame)
    session = builders.session_from_game(entry, previous_sessions, game,
                                         place="Szeged, Hungary", time=sitting_start)
    session = builders.seal(session, body=body)
    builders.write_entry("games/<id>/session-1.yaml", session)

    # when a player confirms, later
    session = builders.add_signature(session, "player_I", signing.Signer(ring, player_key))

Builders return plain dicts in the book's key order (R31). ``seal`` computes ``tail.hash``
(R32) and the signatures (R33); ``write_entry`` refuses to write anything that does not pass
the structure and hash checks, and writes atomically. Every failure is a
:class:`~registry.records.errors.RecordError` listing each fault with its field path.
"""

from __future__ import annotations

import copy
import os
import re
import time as _time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from . import hashing, schema
from .errors import Fault, RecordError
from .keys import KeyringError
from .signing import Signer, sign_hash, verify_hash_signature
from .yamlio import dump_yaml, write_text_atomic

_PLACEHOLDER_HASH = "0" * 64
_SIDE_DIGIT = re.compile(r"^(\d+\s+)0(\s*:)")
_RESULT_DIGIT = re.compile(r"^(!\s*:\s*)0(\s*)$")
_SQUARE = re.compile(r"^([A-Za-z])(\d+)$")


def _now() -> int:
    return int(_time.time())


def new_game_id() -> str:
    """A fresh RFC 4122 (version 4) game id, canonical lower-case text."""
    return str(uuid.uuid4())


def _player(value: Any, side: str) -> dict[str, Any]:
    if isinstance(value, Mapping):
        return {"id": value.get("id"), "name": value.get("name")}
    if isinstance(value, Sequence) and not isinstance(value, str) and len(value) == 2:
        return {"id": value[0], "name": value[1]}
    raise RecordError(Fault("expected {id, name} or (id, name)", f"players.{side}"))


def _by_side(mapping: Mapping[Any, Any], what: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in mapping.items():
        side = schema.side_of(key)
        if side is None:
            raise RecordError(Fault(f"unknown side {key!r} (expected I or O)", what))
        out[side] = value
    missing = [s for s in schema.SIDES if s not in out]
    if missing:
        raise RecordError(Fault(f"missing side {missing[0]}", what))
    return out


def _check_unsealed(doc: dict[str, Any]) -> None:
    """Structure check of a document whose tail is not made yet (faults in the tail ignored)."""
    probe = copy.deepcopy(doc)
    if "session" in probe:
        probe["session"]["tail"] = {"hash": _PLACEHOLDER_HASH}
    else:
        probe["tail"] = {"hash": _PLACEHOLDER_HASH}
    _, faults = schema.check_document(probe)
    if faults:
        raise RecordError(faults)


def build_game_entry(
    *,
    players: Mapping[Any, Any],
    variant: str = "standard",
    game_id: str | uuid.UUID | None = None,
    created: int | None = None,
    time_control: str | None = None,
) -> dict[str, Any]:
    """An unsealed STGE: ``meta``, ``game`` (R31 fields; ``time_control``, R38, when given)
    and ``players``.

    ``players`` maps ``"I"``/``"O"`` to ``{"id": ..., "name": ...}`` or ``(id, name)``;
    ``game_id`` defaults to a new UUID; ``created`` to now (unix seconds).
    """
    sides = _by_side(players, "players")
    doc: dict[str, Any] = {
        "meta": {
            "format": schema.STGE,
            "format_version": schema.FORMAT_VERSION,
            "created": _now() if created is None else created,
        },
        "game": {
            "id": str(game_id) if game_id is not None else new_game_id(),
            "type": variant,
            "ruleset_version": schema.RULESET_VERSION,
            "notation_version": schema.NOTATION_VERSION,
        },
        "players": {side: _player(sides[side], side) for side in schema.SIDES},
    }
    if time_control:
        doc["game"]["time_control"] = time_control
    _check_unsealed(doc)
    return doc


def _square_key(square: str) -> tuple[str, int]:
    m = _SQUARE.match(square)
    return (m.group(1).upper(), int(m.group(2))) if m else (square, 0)


def board_text(squares: Iterable[str] | str) -> str:
    """A ``<square_string>``: upper-case squares, sorted by file then rank, space-separated."""
    items = squares.split() if isinstance(squares, str) else list(squares)
    return " ".join(sorted((sq.upper() for sq in items), key=_square_key))


def canonical_turn(line: str) -> str:
    """A turn line as writers emit it: trimmed, side ``O`` rather than the digit ``0`` (R15)."""
    line = line.strip()
    line = _SIDE_DIGIT.sub(r"\1O\2", line)
    return _RESULT_DIGIT.sub(r"\1O\2", line)


def _arbiter_item(raw: Any) -> dict[str, Any]:
    if hasattr(raw, "to_dict"):
        raw = raw.to_dict()
    if not isinstance(raw, Mapping):
        raise RecordError(Fault("an arbiter decision must be a mapping", "session.arbiter"))
    item: dict[str, Any] = {"turn": raw.get("turn"), "action": raw.get("action")}
    side = raw.get("side")
    if side is not None:
        item["side"] = schema.side_of(side) or side
    if raw.get("reason"):
        item["reason"] = raw["reason"]
    if raw.get("at"):
        item["at"] = raw["at"]
    if raw.get("seconds"):  # R39 add_time
        item["seconds"] = raw["seconds"]
    return item


def build_session_entry(
    *,
    session_id: int,
    game_id: str,
    previous_hash: str,
    place: str,
    time: int,
    turns: Sequence[str],
    board: Mapping[Any, Iterable[str] | str],
    arbiter: Sequence[Any] | None = None,
    created: int | None = None,
    clocks: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """An unsealed STSE from explicit fields (no replay: see :func:`next_session_entry`).
    ``clocks`` (R38): each side's time left in seconds at the session's end, timed games.

    ``board`` maps ``"I"``/``"O"`` to squares (a list or a square string); ``arbiter`` holds
    R34 decisions (mappings or ``play.games.talu.ArbiterDecision``) and is omitted when empty.
    """
    sides = _by_side(board, "session.board")
    session: dict[str, Any] = {
        "id": session_id,
        "meta": {
            "format": schema.STSE,
            "format_version": schema.FORMAT_VERSION,
            "created": _now() if created is None else created,
            "game_id": str(game_id),
            "previous_hash": previous_hash,
        },
        "start": {"place": place, "time": time},
        "turns": [canonical_turn(t) if isinstance(t, str) else t for t in turns],
        "board": {side: board_text(sides[side]) for side in schema.SIDES},
    }
    if arbiter:
        session["arbiter"] = [_arbiter_item(a) for a in arbiter]
    if clocks is not None:
        session["clocks"] = {side: int(clocks[side]) for side in schema.SIDES}
    doc = {"session": session}
    _check_unsealed(doc)
    return doc


def _sealed_hash(doc: Mapping[str, Any], what: str) -> str:
    tail = hashing.tail_of(doc)
    if not isinstance(tail, Mapping) or not isinstance(tail.get("hash"), str):
        raise RecordError(Fault(f"{what} is not sealed (no tail.hash)"))
    return tail["hash"]


def next_session_entry(
    game_entry: Mapping[str, Any],
    previous_sessions: Sequence[Mapping[str, Any]],
    **fields: Any,
) -> dict[str, Any]:
    """The next unsealed STSE of a game: id, ``game_id`` and ``previous_hash`` from the chain.

    The keywords are ``next_session_entry_replayed``'s (``place``, ``time``, ``turns``, and
    ``board``, ``arbiter``, ``created`` if given). ``game_entry`` and ``previous_sessions`` (in
    any order) must be sealed. The new turns are replayed after the earlier sessions' turns;
    ``board`` defaults to the position they reach, and a given ``board`` must match it. Raises
    :class:`RecordError` when the earlier records or the new turns do not verify as one game
    (signatures are not checked here).
    """
    return next_session_entry_replayed(game_entry, previous_sessions, **fields)[0]


def next_session_entry_replayed(
    game_entry: Mapping[str, Any],
    previous_sessions: Sequence[Mapping[str, Any]],
    *,
    place: str,
    time: int,
    turns: Sequence[str],
    board: Mapping[Any, Iterable[str] | str] | None = None,
    arbiter: Sequence[Any] | None = None,
    created: int | None = None,
    clocks: Mapping[str, int] | None = None,
) -> tuple[dict[str, Any], Any]:
    """``next_session_entry``, and the ``TaluGame`` its check replayed from the whole
    chain, the new entry included: a slip derived from these entries once the new one is
    sealed (its tail is all that changes) is built on it (``build_slip(game=...)``) rather
    than on a second replay of the notation, the largest part of a slip's cost (issue 7)."""
    from .verify import check_game_docs  # local: verify imports this module's helpers

    previous = sorted(previous_sessions, key=lambda d: d["session"]["id"])
    if previous:
        last = previous[-1]
        previous_hash = _sealed_hash(last, f"session {last['session']['id']}")
        session_id = int(last["session"]["id"]) + 1
    else:
        previous_hash = _sealed_hash(game_entry, "the game entry")
        session_id = 1
    game_id = game_entry["game"]["id"]
    result = check_game_docs(game_entry, previous, check_signatures=False)
    if result.faults:
        raise RecordError(result.faults)
    turns = [canonical_turn(t) for t in turns]
    if board is None:
        board = _replay_board(game_entry, previous, turns, arbiter)
    doc = build_session_entry(session_id=session_id, game_id=game_id, previous_hash=previous_hash,
                              place=place, time=time, turns=turns, board=board,
                              arbiter=arbiter, created=created, clocks=clocks)
    probe = copy.deepcopy(doc)
    probe["session"]["tail"] = {"hash": hashing.session_hash(probe["session"])}
    result = check_game_docs(game_entry, [*previous, probe], check_signatures=False)
    if result.faults:
        raise RecordError(result.faults)
    return doc, result.game


def _replay_board(
    game_entry: Mapping[str, Any],
    previous: Sequence[Mapping[str, Any]],
    turns: Sequence[str],
    arbiter: Sequence[Any] | None,
) -> dict[str, list[str]]:
    from play.games.talu import NotationError, read_stgn

    lines = [t for d in previous for t in d["session"]["turns"]]
    decisions = [_arbiter_item(a) for d in previous for a in d["session"].get("arbiter", [])]
    decisions += [_arbiter_item(a) for a in arbiter or ()]
    try:
        game = read_stgn("\n".join([*lines, *turns]), game_entry["game"]["type"],
                         arbiter=decisions)
    except NotationError as exc:
        n = exc.line - len(lines) - 1
        where = f"session.turns[{n}]" if 0 <= n < len(turns) else "session.turns"
        raise RecordError(Fault(exc.reason, where)) from None
    return game.board()


def session_from_game(
    game_entry: Mapping[str, Any],
    previous_sessions: Sequence[Mapping[str, Any]],
    game: Any,
    *,
    place: str,
    time: int,
    created: int | None = None,
) -> dict[str, Any]:
    """The next unsealed STSE of a live ``TaluGame``: the turns and arbiter decisions
    played since the earlier sessions, and the board now (a turn in progress is not recorded).
    """
    earlier = sum(len(d["session"]["turns"]) for d in previous_sessions)
    earlier_decisions = sum(len(d["session"].get("arbiter", [])) for d in previous_sessions)
    lines = game.stgn_lines()
    decisions = list(getattr(game, "arbiter", []))
    return next_session_entry(
        game_entry, previous_sessions, place=place, time=time, turns=lines[earlier:],
        board=None, arbiter=decisions[earlier_decisions:], created=created,
    )


def _signature_block(signer: Signer, role: str, hash_text: str) -> dict[str, Any]:
    try:
        key_id, signature = sign_hash(signer, hash_text)
    except KeyringError as exc:
        raise RecordError(Fault(str(exc), f"tail.signatures.{role}")) from None
    block: dict[str, Any] = {}
    if role == schema.BODY_ROLE:
        if not signer.registrar_id:
            raise RecordError(Fault("the affiliated body's signer needs a registrar_id",
                                    f"tail.signatures.{role}"))
        block["registrar_id"] = signer.registrar_id
    block["key_id"] = key_id
    block["signature"] = signature
    return block


def _with_tail(doc: Mapping[str, Any], tail: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(dict(doc))
    if "session" in out:
        session = {k: v for k, v in out["session"].items() if k != "tail"}
        session["tail"] = tail
        out["session"] = session
    else:
        out = {k: v for k, v in out.items() if k != "tail"}
        out["tail"] = tail
    return out


def _ordered_signatures(signatures: Mapping[str, Any]) -> dict[str, Any]:
    return {role: signatures[role] for role in schema.SIGNATURE_ROLES if role in signatures}


def seal(
    doc: Mapping[str, Any],
    *,
    body: Signer | None = None,
    player_I: Signer | None = None,
    player_O: Signer | None = None,
) -> dict[str, Any]:
    """A copy of an STGE or STSE with ``tail.hash`` (R32) and the given signatures (R33).

    Any existing tail is replaced. Every written entry must carry the affiliated body's
    signature (``body``, a :class:`Signer` with ``registrar_id``); players usually sign later
    with :func:`add_signature`.
    """
    _check_unsealed(dict(doc))
    digest = hashing.entry_hash(_with_tail(doc, {"hash": _PLACEHOLDER_HASH}))
    signatures: dict[str, Any] = {}
    for role, signer in (("player_I", player_I), ("player_O", player_O),
                         (schema.BODY_ROLE, body)):
        if signer is not None:
            signatures[role] = _signature_block(signer, role, digest)
    tail: dict[str, Any] = {"hash": digest}
    if signatures:
        tail["signatures"] = _ordered_signatures(signatures)
    return _with_tail(doc, tail)


def add_signature(doc: Mapping[str, Any], role: str, signer: Signer) -> dict[str, Any]:
    """A copy of a sealed entry with one more signature (``player_I``, ``player_O`` or
    ``affiliated_body``) over its hash; the hash must still match the content."""
    role = schema.role_of(role) or role
    if role not in schema.SIGNATURE_ROLES:
        raise RecordError(Fault(f"unknown signer {role!r}", "tail.signatures"))
    digest = _sealed_hash(doc, "the entry")
    if hashing.entry_hash(doc) != digest:
        raise RecordError(Fault("does not match the content: not signing", "tail.hash"))
    tail = dict(hashing.tail_of(doc))
    signatures = {schema.role_of(k) or k: v for k, v in (tail.get("signatures") or {}).items()}
    signatures[role] = _signature_block(signer, role, digest)
    tail["signatures"] = _ordered_signatures(signatures)
    return _with_tail(doc, tail)


def entry_faults(doc: Any, *, keyring: Any = None) -> list[Fault]:
    """Structure and hash faults of one STGE/STSE (and its signatures when ``keyring`` is
    given: a path or :class:`~registry.records.keys.Keyring`)."""
    fmt, faults = schema.check_document(doc)
    if faults:
        return faults
    if fmt not in (schema.STGE, schema.STSE):
        return [Fault(f"expected a game or session entry, got {fmt}", "meta.format")]
    tail = hashing.tail_of(doc)
    prefix = "session.tail" if fmt == schema.STSE else "tail"
    digest = hashing.entry_hash(doc)
    if tail["hash"] != digest:
        return [Fault("does not match the content", f"{prefix}.hash")]
    if keyring is not None:
        from .keys import Keyring

        ring = keyring if isinstance(keyring, Keyring) else Keyring(keyring)
        for role, sig in schema.signature_roles(tail.get("signatures")).items():
            check = verify_hash_signature(ring, digest, sig["key_id"], sig["signature"])
            if not check.ok:
                faults.append(Fault(f"signature {check.problem}",
                                    f"{prefix}.signatures.{role}"))
    return faults


def write_entry(
    path: str | os.PathLike[str],
    doc: Mapping[str, Any],
    *,
    overwrite: bool = False,
    keyring: Any = None,
) -> None:
    """Write a sealed STGE/STSE as YAML, atomically, after checking structure and hash (and
    signatures when ``keyring`` is given). Nothing is written when a check fails.

    ``overwrite=False`` (the default) refuses to replace an existing file: a game entry is
    written once. Pass ``overwrite=True`` to store an entry again with a new player signature.
    """
    faults = entry_faults(doc, keyring=keyring)
    if faults:
        raise RecordError([f.located(os.fspath(path)) for f in faults])
    text = dump_yaml(doc)
    # What we write must read back as the very document we checked.
    from .yamlio import load_yaml

    if hashing.canonical_json(load_yaml(text)) != hashing.canonical_json(doc):
        raise RecordError(Fault("does not survive a YAML round trip", file=os.fspath(path)))
    write_text_atomic(path, text, overwrite=overwrite)
