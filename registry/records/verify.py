"""Verification of game records: structure, hashes, the chain, the notation, signatures.

:func:`verify_paths` is what ``talu verify`` runs. Given any mix of STGE, STSE and STDGS files
it reports every fault as ``FILE: field.path: what is wrong``:

* structure and types (:mod:`registry.records.schema`); a file that fails here gets no further
  check, and counts as absent for the checks of its game;
* each entry's ``tail.hash`` against its content (R32), and each session of a slip likewise;
* signatures (R33) against a keyring: the affiliated body's is required on every entry, the
  players' are checked when present; a body key marked for another registrar is a fault;
* per game (files are grouped by game id, whatever order they come in): one game entry;
  session ids 1, 2, 3, ... without gaps or duplicates (omission); session 1's
  ``previous_hash`` = the game entry's hash, session n's = session n-1's (reordering, insertion);
  ``meta.game_id`` = ``game.id``;
* the notation: the turns of sessions 1..k, concatenated, replay legally with the rules engine
  (with the recorded arbiter decisions, R34) and end in session k's ``board``; no session
  follows the end of the game; the session in which the game ended ends with its result line
  (R31);
* a slip (R35): sessions ordered by id, its tally equal to the tally derived from its notation,
  and, when the game entry or session entries are given too, agreement with them. A slip alone
  cannot prove its ``game`` and ``players`` (the game entry's hash is not in it, R35), nor
  session 1's ``previous_hash``: give the game entry alongside to check those.

A session entry given without its game entry is a fault: its chain and notation cannot be
checked. Functions here never raise on bad input: they return faults.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import hashing, schema
from .errors import Fault, RecordError, join_path
from .keys import Keyring, KeyringError, default_keyring
from .signing import verify_hash_signature
from .yamlio import read_yaml_file


@dataclass
class Record:
    """One loaded record: display ``name`` (file), parsed ``doc``, ``format``, load faults."""

    name: str | None
    doc: Any = None
    format: str | None = None
    faults: list[Fault] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.faults


def record_from_doc(doc: Any, name: str | None = None) -> Record:
    """Check a parsed document's structure; the faults are attributed to ``name``."""
    fmt, faults = schema.check_document(doc)
    return Record(name, doc, fmt, [f.located(name) for f in faults])


def load_record(path: str | os.PathLike[str]) -> Record:
    """Read and check a record file; never raises (faults are in ``Record.faults``)."""
    name = os.fspath(path)
    try:
        doc = read_yaml_file(path)
    except RecordError as exc:
        return Record(name, None, None, [f.located(name) for f in exc.faults])
    return record_from_doc(doc, name)


@dataclass
class GameCheck:
    """Faults of one game, and the replayed ``TaluGame`` when the notation replayed."""

    faults: list[Fault] = field(default_factory=list)
    game: Any = None


# --- signatures -----------------------------------------------------------------------------


class SignatureChecker:
    """Checks R33 signature blocks against one keyring, opened on first use."""

    def __init__(self, keyring: str | os.PathLike[str] | Keyring | None = None) -> None:
        self._error: str | None = None
        if keyring is None:
            try:
                keyring = default_keyring()
            except KeyringError as exc:  # TALU_KEYRING names no possible keyring
                self._error = str(exc)
        self._source = keyring
        self._ring: Keyring | None = self._source if isinstance(self._source, Keyring) else None
        self.reported_keyring = False

    def ring(self) -> Keyring | None:
        if self._ring is None and self._error is None:
            try:
                self._ring = Keyring(self._source)  # type: ignore[arg-type]
            except KeyringError as exc:
                self._error = str(exc)
        return self._ring

    def check(self, tail: Mapping[str, Any], digest: str, prefix: str, file: str | None,
              ) -> list[Fault]:
        """Faults of the signatures in ``tail`` over ``digest`` (``prefix`` = path of tail)."""
        faults: list[Fault] = []
        sigs = tail.get("signatures") or {}
        roles = schema.signature_roles(sigs)
        written = {schema.role_of(k): str(k) for k in sigs}
        if schema.BODY_ROLE not in roles:
            faults.append(Fault("missing: every entry carries the affiliated body's signature "
                                "(R33)", join_path(prefix, "signatures.affiliated_body"), file))
        if not roles:
            return faults
        ring = self.ring()
        if ring is None:
            if not self.reported_keyring:
                self.reported_keyring = True
                source = self._source
                where = None if source is None else os.fspath(source)  # type: ignore[arg-type]
                faults.append(Fault(f"signatures not checked: {self._error}", file=where))
            return faults
        for role, block in roles.items():
            where = join_path(prefix, f"signatures.{written[role]}")
            check = verify_hash_signature(ring, digest, block["key_id"], block["signature"])
            if not check.ok:
                faults.append(Fault(f"signature {check.problem}", where, file))
                continue
            if role == schema.BODY_ROLE and check.fingerprint:
                try:
                    info = ring.find(check.fingerprint)
                except KeyringError:
                    continue
                marked = info.registrars
                if marked and block["registrar_id"] not in marked:
                    faults.append(Fault(
                        f"signed with key {info.key_id} of registrar {', '.join(marked)}, "
                        f"not of {block['registrar_id']}", join_path(where, "registrar_id"), file))
        return faults


# --- one entry ------------------------------------------------------------------------------


@dataclass
class _Item:
    """A session mapping wherever it lives: a session entry file or a slip's list."""

    file: str | None
    prefix: str  # "session" or "sessions[2]"
    session: Mapping[str, Any]

    @property
    def id(self) -> int:
        return int(self.session["id"])

    @property
    def previous_hash(self) -> str:
        return str(self.session["meta"]["previous_hash"])

    @property
    def declared_hash(self) -> str:
        return str(self.session["tail"]["hash"])

    def fault(self, message: str, path: str = "") -> Fault:
        return Fault(message, join_path(self.prefix, path) if path else self.prefix, self.file)


def _integrity(tail: Mapping[str, Any], digest: str, prefix: str, file: str | None,
               sig: SignatureChecker | None) -> list[Fault]:
    faults = []
    if tail["hash"] != digest:
        faults.append(Fault("does not match the content (the entry was changed after it was "
                            "hashed)", join_path(prefix, "hash"), file))
    if sig is not None:
        faults += sig.check(tail, tail["hash"], prefix, file)
    return faults


def _entry_integrity(rec: Record, sig: SignatureChecker | None) -> list[Fault]:
    try:
        if rec.format == schema.STGE:
            return _integrity(rec.doc["tail"], hashing.game_entry_hash(rec.doc), "tail",
                              rec.name, sig)
        if rec.format == schema.STSE:
            session = rec.doc["session"]
            return _integrity(session["tail"], hashing.session_hash(session), "session.tail",
                              rec.name, sig)
    except RecordError as exc:
        return [f.located(rec.name) for f in exc.faults]
    return []


# --- chain and notation ---------------------------------------------------------------------


def _chain(items: Sequence[_Item], game_id: str, first_previous: str | None,
           first_label: str) -> tuple[list[Fault], bool]:
    """Faults of the id sequence and previous-hash links; bool: no session is missing."""
    faults: list[Fault] = []
    complete = True
    for it in items:
        if it.session["meta"]["game_id"] != game_id:
            faults.append(it.fault(f"is not this game's id ({game_id})", "meta.game_id"))
    previous: _Item | None = None
    for it in items:
        if previous is None:
            if it.id != 1:
                missing = "session 1 is" if it.id == 2 else f"sessions 1 to {it.id - 1} are"
                faults.append(it.fault(f"the first session given is {it.id}: {missing} missing",
                                       "id"))
                complete = False
            elif first_previous is not None and it.previous_hash != first_previous:
                faults.append(it.fault(f"does not match the hash of {first_label}",
                                       "meta.previous_hash"))
        elif it.id == previous.id:
            faults.append(it.fault(f"session {it.id} is given twice", "id"))
            complete = False
        elif it.id != previous.id + 1:
            gap = (f"session {previous.id + 1} is" if it.id == previous.id + 2
                   else f"sessions {previous.id + 1} to {it.id - 1} are")
            faults.append(it.fault(f"{gap} missing between session {previous.id} and this one",
                                   "id"))
            complete = False
        elif it.previous_hash != previous.declared_hash:
            faults.append(it.fault(f"does not match the hash of session {previous.id}",
                                   "meta.previous_hash"))
        previous = it
    return faults, complete


def _arbiter_decisions(session: Mapping[str, Any]) -> list[dict[str, Any]]:
    out = []
    for raw in session.get("arbiter") or []:
        item = {"turn": raw["turn"], "action": raw["action"]}
        if raw.get("side") is not None:
            item["side"] = schema.side_of(raw["side"])
        if raw.get("reason"):
            item["reason"] = raw["reason"]
        if raw.get("at"):
            item["at"] = raw["at"]
        if raw.get("seconds"):  # R39 add_time
            item["seconds"] = raw["seconds"]
        out.append(item)
    return out


def _outcome_text(outcome: Any) -> str:
    winner = getattr(outcome.winner, "value", outcome.winner)
    reason = getattr(outcome.reason, "value", outcome.reason)
    return f"{winner} won by {reason}" if winner else f"no winner ({reason})"


def _board_faults(it: _Item, position: Mapping[str, Iterable[str]]) -> list[Fault]:
    faults = []
    written_keys = {schema.side_of(k): k for k in it.session["board"]}
    written = schema.sides(it.session["board"])
    for side in schema.SIDES:
        expected = {sq.upper() for sq in position.get(side, [])}
        given = set(schema.board_squares(written[side]))
        if expected == given:
            continue
        parts = []
        if expected - given:
            parts.append(f"missing {' '.join(sorted(expected - given))}")
        if given - expected:
            parts.append(f"{' '.join(sorted(given - expected))} not occupied by {side}")
        faults.append(it.fault(f"does not match the position the turns reach "
                               f"({'; '.join(parts)})", f"board.{written_keys[side]}"))
    return faults


def _replay(items: Sequence[_Item], variant: str) -> GameCheck:
    """Replay sessions 1..k for every k; faults of the first failure, and the final game."""
    try:
        from play.games.talu import read_stgn
    except ImportError as exc:  # pragma: no cover - the engine is part of the project
        return GameCheck([Fault(f"notation not checked: the rules engine is missing ({exc})")])
    lines: list[str] = []
    owners: list[tuple[int, int]] = []
    decisions: list[dict[str, Any]] = []
    game = None
    faults: list[Fault] = []
    for k, it in enumerate(items):
        if game is not None and game.outcome is not None:
            faults.append(it.fault(f"follows the end of the game ({_outcome_text(game.outcome)} "
                                   f"in session {items[k - 1].id}): no session may follow"))
            return GameCheck(faults, None)
        for j, turn in enumerate(it.session["turns"]):
            lines.append(turn)
            owners.append((k, j))
        decisions += _arbiter_decisions(it.session)
        try:
            game = read_stgn("\n".join(lines), variant, arbiter=decisions)
        except ValueError as exc:  # NotationError, or a TaluError for an arbiter decision
            line = getattr(exc, "line", None)
            reason = getattr(exc, "reason", None) or str(exc)
            if isinstance(line, int) and 1 <= line <= len(owners):
                ki, ji = owners[line - 1]
                bad = items[ki]
                faults.append(bad.fault(f"{bad.session['turns'][ji]!r}: {reason}",
                                        f"turns[{ji}]"))
            elif line is None and it.session.get("arbiter"):
                faults.append(it.fault(reason, "arbiter"))
            else:
                faults.append(it.fault(reason, "turns"))
            return GameCheck(faults, None)
        faults += _board_faults(it, game.board())
        if game.outcome is not None:
            turns = [t.strip() for t in it.session["turns"] if t.strip()]
            if not turns or not turns[-1].startswith("!"):
                faults.append(it.fault(
                    f"the game ended in this session ({_outcome_text(game.outcome)}) but the "
                    f"turns do not end with the result line '!: {game.outcome.result_text}' "
                    "(R31)", "turns"))
    return GameCheck(faults, game)


def _check_sessions(items: list[_Item], game_doc: Mapping[str, Any],
                    first_previous: str | None, first_label: str) -> GameCheck:
    items = sorted(items, key=lambda it: it.id)
    faults, complete = _chain(items, game_doc["game"]["id"], first_previous, first_label)
    if not complete or not items:
        return GameCheck(faults, None)
    result = _replay(items, game_doc["game"]["type"])
    return GameCheck(faults + result.faults, result.game)


def _check_game(game_rec: Record, session_recs: Sequence[Record]) -> GameCheck:
    items = [_Item(r.name, "session", r.doc["session"]) for r in session_recs]
    label = "the game entry" + (f" ({game_rec.name})" if game_rec.name else "")
    return _check_sessions(items, game_rec.doc, str(game_rec.doc["tail"]["hash"]), label)


def _tally_faults(doc: Mapping[str, Any], game: Any, file: str | None) -> list[Fault]:
    from registry.scoring.tally import CODES, tally_game

    derived = tally_game(game).codes
    written = {schema.role_of(k): (str(k), v) for k, v in doc["tally"].items() if k != "generated"}
    faults = []
    for side in schema.SIDES:
        key, codes = written[schema.PLAYER_ROLES[side]]
        for code in CODES:
            if codes[code] != derived[side][code]:
                faults.append(Fault(f"is {codes[code]}, the notation gives {derived[side][code]}",
                                    f"tally.{key}.{code}", file))
    return faults


def _check_slip(rec: Record, sig: SignatureChecker | None, game_rec: Record | None = None,
                session_recs: Sequence[Record] = ()) -> GameCheck:
    doc = rec.doc
    items = [_Item(rec.name, f"sessions[{i}]", s) for i, s in enumerate(doc["sessions"])]
    faults: list[Fault] = []
    for it in items:
        try:
            digest = hashing.session_hash(it.session)
        except RecordError as exc:
            faults += [Fault(f.message, it.prefix, rec.name) for f in exc.faults]
            continue
        faults += _integrity(it.session["tail"], digest, f"{it.prefix}.tail", rec.name, sig)
    ids = [it.id for it in items]
    if ids != sorted(ids):
        faults.append(Fault(f"not ordered by session id ({', '.join(map(str, ids))}; R35)",
                            "sessions", rec.name))
    first_previous, label = None, ""
    if game_rec is not None:
        first_previous = str(game_rec.doc["tail"]["hash"])
        label = f"the game entry ({game_rec.name})" if game_rec.name else "the game entry"
        if hashing.canonical_json(doc["game"]) != hashing.canonical_json(game_rec.doc["game"]):
            faults.append(Fault(f"differs from {label}", "game", rec.name))
        if schema.sides(doc["players"]) != schema.sides(game_rec.doc["players"]):
            faults.append(Fault(f"differs from {label}", "players", rec.name))
    by_id = {it.id: it for it in items}
    for srec in session_recs:
        sid = int(srec.doc["session"]["id"])
        mine = by_id.get(sid)
        if mine is None:
            faults.append(Fault(f"session {sid} ({srec.name}) is not in the slip", "sessions",
                                rec.name))
        elif hashing.canonical_json(mine.session) != hashing.canonical_json(srec.doc["session"]):
            faults.append(Fault(f"differs from the session entry {srec.name}", mine.prefix,
                                rec.name))
    result = _check_sessions(items, doc, first_previous, label)
    faults += result.faults
    if result.game is not None:
        faults += _tally_faults(doc, result.game, rec.name)
    return GameCheck(faults, result.game)


# --- many records ---------------------------------------------------------------------------


def _game_id(rec: Record) -> str:
    if rec.format == schema.STSE:
        return str(rec.doc["session"]["meta"]["game_id"])
    return str(rec.doc["game"]["id"])


def _dedupe(recs: Sequence[Record]) -> list[Record]:
    """Drop exact copies (the same file given twice); different records with one id stay."""
    kept: list[Record] = []
    seen: set[bytes] = set()
    for rec in recs:
        try:
            key = hashing.canonical_json(rec.doc)
        except RecordError:
            key = repr(rec.doc).encode()
        if key not in seen:
            seen.add(key)
            kept.append(rec)
    return kept


def verify_records(
    records: Sequence[Record],
    *,
    keyring: str | os.PathLike[str] | Keyring | None = None,
    check_signatures: bool = True,
) -> list[Fault]:
    """Every fault of these records, checked together (see the module docs)."""
    faults: list[Fault] = []
    sig = SignatureChecker(keyring) if check_signatures else None
    groups: dict[str, dict[str, list[Record]]] = {}
    for rec in records:
        if not rec.ok:
            faults += rec.faults
            continue
        faults += _entry_integrity(rec, sig)
        group = groups.setdefault(_game_id(rec), {schema.STGE: [], schema.STSE: [],
                                                  schema.STDGS: []})
        group[rec.format or ""].append(rec)
    for game_id, group in groups.items():
        games = _dedupe(group[schema.STGE])
        sessions = _dedupe(group[schema.STSE])
        slips = _dedupe(group[schema.STDGS])
        game_rec = games[0] if len(games) == 1 else None
        for extra in games[1:]:
            faults.append(Fault(f"another, different game entry of game {game_id} is given "
                                f"({games[0].name})", "game.id", extra.name))
        if game_rec is not None:
            faults += _check_game(game_rec, sessions).faults
        elif not games:
            for srec in sessions:
                faults.append(Fault(
                    f"the game entry of game {game_id} is not among the files given: the chain "
                    "and the notation cannot be checked", "session.meta.game_id", srec.name))
        for slip in slips:
            faults += _check_slip(slip, sig, game_rec, sessions).faults
    return faults


def verify_paths(
    paths: Iterable[str | os.PathLike[str]],
    *,
    keyring: str | os.PathLike[str] | Keyring | None = None,
    check_signatures: bool = True,
) -> list[Fault]:
    """``talu verify``: load the files, check them together, return every fault."""
    return verify_records([load_record(p) for p in paths], keyring=keyring,
                          check_signatures=check_signatures)


def check_game_docs(
    game_entry: Any,
    sessions: Sequence[Any],
    *,
    keyring: str | os.PathLike[str] | Keyring | None = None,
    check_signatures: bool = True,
) -> GameCheck:
    """Check one game given as parsed documents (game entry + session entries, any order).

    Unlike :func:`verify_records`, every session must belong to this game, and the replayed
    game is returned (``GameCheck.game``) when everything checks.
    """
    game_rec = record_from_doc(game_entry)
    recs = [record_from_doc(d, f"<session entry {i}>") for i, d in enumerate(sessions)]
    faults = list(game_rec.faults)
    for rec in recs:
        faults += rec.faults
    if faults:
        return GameCheck(faults, None)
    if game_rec.format != schema.STGE:
        return GameCheck([Fault(f"expected a game entry (STGE), got {game_rec.format}",
                                "meta.format")])
    for rec in recs:
        if rec.format != schema.STSE:
            faults.append(Fault(f"expected a session entry (STSE), got {rec.format}",
                                "meta.format", rec.name))
    if faults:
        return GameCheck(faults, None)
    sig = SignatureChecker(keyring) if check_signatures else None
    for rec in [game_rec, *recs]:
        faults += _entry_integrity(rec, sig)
    result = _check_game(game_rec, recs)
    return GameCheck(faults + result.faults, result.game if not faults else None)
