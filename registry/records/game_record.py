"""The signed record of a finished game of a game other than talu (issue 36).

Talu keeps the book's records (STGE, STSE, STDGS, STGN: R31-R35). Every other game the site
hosts (tafl, Tablut, Talat, ...) keeps two files: its own text notation, which its game package
writes, and one **signed record**, a JSON object that says who played what and how it ended,
sealed the way talu's entries are (R32, R33) so that ``talu verify`` checks both alike.

The record (``FORMAT`` ``talu-game-record/1``; keys in this order, every one required)::

    {"format": "talu-game-record/1",
     "id": "<the game's id: its UUID, as in the site's address /games/<id>/>",
     "site": "<the site's address, e.g. https://talu.example>",
     "game": "tafl",
     "variant": "tafl/11x11",                    # the game's name, "/", the variant's
     "options": {...},                           # the game's options (any JSON object)
     "time_control": "fischer 300+5" | null,
     "started": "2026-03-01T10:00:00Z",          # ISO 8601 with a zone; finished >= started
     "finished": "2026-03-01T10:41:07Z",
     "seats": [{"seat": "attackers", "label": "Attackers",
                "kind": "person" | "computer" | "neutral",
                "player": "<display name>" | null, "account": "<username>" | null,
                "rating": <number> | null}, ...],
     "result": {"ranks": {"attackers": 1, "defenders": 2},
                "scores": {"attackers": 5, ...} | null,
                "reason": "king_captured", "cause": "" | "time" | ..., "detail": "<words>"},
     "events": [{"n": 1, "kind": "move", "seat": "attackers" | null, "data": {...},
                 "text": "e1-e4"}, ...],
     "notation": "<the game's own text notation>",
     "tail": {"hash": "<64 hex>",
              "signatures": {"affiliated_body": {"registrar_id": "TALU-SITE-01",
                                                 "key_id": "0x1234ABCD",
                                                 "signature": "<base64>"}}}}

Rules a record keeps (each broken one is a :class:`~registry.records.errors.Fault` naming the
field): seat ids are unique (1-16 letters, digits, ``-``, ``_``); a neutral seat (Talat's
Zihin, A11) has no player, account, rating, rank or score, a person's or the computer's seat
has a player; ``ranks`` ranks every other seat exactly once with competition ranks (1 best;
tied seats share a place and the next places are skipped: 1, 1, 3; two seats ranked 1 are a
draw), or is ``{}`` for a game without a result (a null game, R39); ``scores``, when given,
score exactly the ranked seats; the events are the game's *public* events (what a spectator
saw: no sealed turn, no arbiter's note), numbered by the game's log, in increasing order; an
event's ``seat`` is one of the seats.

Why this shape: one object a person can read and any JSON tool can take apart, with the seats
and ranks of any number of players (the book's records have two sides), and the same seal as
talu's entries. ``tail.hash`` is the lower-case hex SHA-256 of the RFC 8785 bytes of the record
without its ``tail`` (``hashing.canonical_json``, the ``rfc8785`` package); the signature is the
site's OpenPGP detached signature over the UTF-8 bytes of that hash, made and checked by
:mod:`registry.records.signing` (stock GnuPG) exactly as R33's ``affiliated_body`` signature is.
The signature travels inside the file, as in talu's entries, so one downloaded file is the
whole proof; the file may be reformatted (it is parsed and canonicalised again to be checked).
"""

from __future__ import annotations

import json
import math
import os
import re
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from play.games import text

from . import hashing, schema
from .errors import Fault, RecordError, join_path
from .keys import KeyringError
from .signing import Signer, sign_hash

FORMAT = "talu-game-record/1"
FORMAT_FAMILY = "talu-game-record/"
FIELDS = ("format", "id", "site", "game", "variant", "options", "time_control", "started",
          "finished", "seats", "result", "events", "notation")
SEAT_FIELDS = ("seat", "label", "kind", "player", "account", "rating")
RESULT_FIELDS = ("ranks", "scores", "reason", "cause", "detail")
EVENT_FIELDS = ("n", "kind", "seat", "data", "text")
PERSON, COMPUTER, NEUTRAL = "person", "computer", "neutral"
SEAT_KINDS = (PERSON, COMPUTER, NEUTRAL)

GAME_RE = re.compile(r"^[a-z][a-z0-9-]{0,31}$")
VARIANT_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{0,47}$")
#: A seat id, as the game contract's (``play.games.protocol.seats.SEAT_ID``) allows it.
SEAT_ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,16}$")
MAX_NAME, MAX_LINE, MAX_DETAIL, MAX_DEPTH = 150, 200, 400, 32


# --- the values a record is built from ------------------------------------------------------


@dataclass(frozen=True)
class RecordSeat:
    """One seat at the game and who held it: ``kind`` ``person``, ``computer`` or ``neutral``
    (nobody: Talat's Zihin); ``player`` the name shown, ``account`` the site's username (None
    for a neutral seat or a player without an account), ``rating`` at the game's start."""

    seat: str
    label: str
    kind: str = PERSON
    player: str | None = None
    account: str | None = None
    rating: float | None = None


@dataclass(frozen=True)
class RecordEvent:
    """One public event of the game's log: its number ``n`` in the log, the game's ``kind``,
    the ``seat`` that acted (None: none did), its ``data`` and its short ``text``."""

    n: int
    kind: str
    seat: str | None
    data: Mapping[str, Any] = field(default_factory=dict)
    text: str = ""


class ResultLike(Protocol):
    """How the game ended, as the game contract's ``Result`` gives it: ``ranks`` seat -> rank
    (empty: no result), ``scores`` or None, ``reason``, ``cause``, ``detail``."""

    @property
    def ranks(self) -> Mapping[str, int]: ...
    @property
    def scores(self) -> Mapping[str, float] | None: ...
    @property
    def reason(self) -> str: ...
    @property
    def cause(self) -> str: ...
    @property
    def detail(self) -> str: ...


@dataclass(frozen=True)
class RecordResult:
    """A result for a record (the game contract's ``Result`` serves as well)."""

    ranks: Mapping[str, int]
    reason: str
    scores: Mapping[str, float] | None = None
    cause: str = ""
    detail: str = ""


@dataclass(frozen=True)
class GameFacts:
    """Everything a finished game's record says, as plain values (``registry.game_records.
    keep_record`` takes one). ``game_id`` is the site game's UUID; times are aware datetimes
    (or ISO 8601 text with a zone)."""

    game_id: uuid.UUID | str
    game: str
    variant: str
    seats: Sequence[RecordSeat]
    result: ResultLike
    started: datetime | str
    finished: datetime | str
    notation: str
    options: Mapping[str, Any] = field(default_factory=dict)
    time_control: str | None = None
    events: Sequence[RecordEvent] = ()


def public_events(log: Iterable[tuple[int, Any]]) -> tuple[RecordEvent, ...]:
    """The record's events from a game's numbered log, ``(n, event)`` pairs of the game
    contract's ``Event``: those everyone may be told of (``visibility`` ``all``); a sealed
    turn (R38) or an arbiter's note stays out. An event's acting seat is its ``seat`` (or, in
    the two-seat spelling, ``side``), "" meaning none."""
    out = []
    for n, event in log:
        if getattr(event, "visibility", "all") != "all":
            continue
        seat = getattr(event, "seat", None) or getattr(event, "side", None) or None
        out.append(RecordEvent(n, event.kind, seat, dict(event.data or {}), event.text or ""))
    return tuple(out)


# --- building and sealing -------------------------------------------------------------------


def iso_time(value: datetime | str) -> str:
    """An aware datetime as ISO 8601 in UTC to the second (``2026-03-01T10:00:00Z``); text is
    kept as given (the checks say when it is not a time with a zone)."""
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise RecordError(Fault("a time needs its zone (an aware datetime)"))
        return value.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    return value


def build_record(facts: GameFacts, *, site: str) -> dict[str, Any]:
    """The unsealed record of ``facts`` (keys in the documented order). ``RecordError`` with
    every fault when the facts do not make a valid record."""
    result = facts.result
    doc: dict[str, Any] = {
        "format": FORMAT,
        "id": str(facts.game_id),
        "site": site,
        "game": facts.game,
        "variant": facts.variant,
        "options": _plain(facts.options),
        "time_control": facts.time_control,
        "started": iso_time(facts.started),
        "finished": iso_time(facts.finished),
        "seats": [{"seat": s.seat, "label": s.label, "kind": s.kind, "player": s.player,
                   "account": s.account, "rating": s.rating} for s in facts.seats],
        "result": {"ranks": _plain(result.ranks),
                   "scores": None if result.scores is None else _plain(result.scores),
                   "reason": result.reason, "cause": result.cause or "",
                   "detail": result.detail or ""},
        "events": [{"n": e.n, "kind": e.kind, "seat": e.seat, "data": _plain(e.data),
                    "text": e.text} for e in facts.events],
        "notation": facts.notation,
    }
    faults = record_faults(doc)
    if faults:
        raise RecordError(faults)
    return doc


def _plain(value: Any) -> Any:
    """Mappings and sequences as dicts and lists (a frozen mapping, a tuple): JSON's model."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def body_of(doc: Mapping[str, Any]) -> dict[str, Any]:
    """What the hash covers: the record without its ``tail``."""
    return {k: v for k, v in doc.items() if k != "tail"}


def canonical_bytes(doc: Mapping[str, Any]) -> bytes:
    """The RFC 8785 bytes of the record without its tail (what is hashed and kept)."""
    return hashing.canonical_json(body_of(doc))


def record_hash(doc: Mapping[str, Any]) -> str:
    """``tail.hash``: lower-case hex SHA-256 of :func:`canonical_bytes`."""
    return hashing.sha256_hex(canonical_bytes(doc))


def seal(doc: Mapping[str, Any], signer: Signer) -> dict[str, Any]:
    """A copy of the record with its ``tail``: the hash and the site's signature over it (R33's
    ``affiliated_body`` block; ``signer`` needs its ``registrar_id``). ``RecordError`` when the
    record is not valid or the key cannot sign."""
    body = body_of(doc)
    faults = record_faults(body)
    if faults:
        raise RecordError(faults)
    if not signer.registrar_id:
        raise RecordError(Fault("the site's signer needs a registrar_id",
                                "tail.signatures.affiliated_body"))
    digest = record_hash(body)
    try:
        key_id, signature = sign_hash(signer, digest)
    except KeyringError as exc:
        raise RecordError(Fault(str(exc), "tail.signatures.affiliated_body")) from None
    return signed_document(body, digest, signer.registrar_id, key_id, signature)


def signed_document(body: Mapping[str, Any], digest: str, registrar_id: str, key_id: str,
                    signature: str) -> dict[str, Any]:
    """The record with its tail, from its parts (the site keeps them as columns)."""
    return {**body, "tail": {"hash": digest, "signatures": {schema.BODY_ROLE: {
        "registrar_id": registrar_id, "key_id": key_id, "signature": signature}}}}


def dumps(doc: Mapping[str, Any]) -> str:
    """The record as its file: readable JSON (UTF-8, two-space indent), a final newline."""
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


# --- reading --------------------------------------------------------------------------------


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {key!r} appears twice in one object")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def loads(data: str | bytes) -> Any:
    """Parse a record file: strict JSON (no repeated key, no NaN or Infinity, UTF-8), so that
    what is checked is exactly one reading of the file. ``RecordError`` otherwise."""
    try:
        if isinstance(data, bytes):
            data = data.decode("utf-8")
        return json.loads(data, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except UnicodeDecodeError as exc:
        raise RecordError(Fault(f"is not UTF-8 text ({exc.reason} at byte {exc.start})")) \
            from None
    except json.JSONDecodeError as exc:
        raise RecordError(Fault(f"is not JSON: {exc.msg} (line {exc.lineno}, column "
                                f"{exc.colno})")) from None
    except (ValueError, RecursionError) as exc:
        raise RecordError(Fault(f"is not a JSON record: {exc}")) from None


def looks_like_record(data: bytes) -> bool:
    """Whether a file's bytes are meant as a game record (a JSON object naming this format
    family), so that ``talu verify`` checks them as one, and reports a broken one as a broken
    game record rather than as a broken YAML entry."""
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith(b"{") and FORMAT_FAMILY.encode() in data


# --- checking -------------------------------------------------------------------------------


class _Check:
    """Collects the faults of one record, each with its field path."""

    def __init__(self) -> None:
        self.faults: list[Fault] = []

    def fault(self, message: str, path: str) -> None:
        self.faults.append(Fault(message, path))

    def fields(self, value: Any, path: str, names: Sequence[str]) -> bool:
        """``value`` is an object with exactly ``names`` as keys."""
        if not isinstance(value, dict):
            self.fault(f"must be an object, not {schema.describe(value)}", path)
            return False
        for name in names:
            if name not in value:
                self.fault("missing", join_path(path, name))
        for name in value:
            if name not in names:
                self.fault(f"unknown field (a {FORMAT} record has {', '.join(names)})",
                           join_path(path, name))
        return all(name in value for name in names)

    def line(self, value: Any, path: str, *, max_length: int = MAX_LINE,
             empty: bool = True, null: bool = False) -> bool:
        if value is None and null:
            return True
        wrong = text.problem(value, max_length=max_length)
        if wrong is None and not empty and not value.strip():
            wrong = "must not be empty"
        if wrong:
            self.fault(wrong, path)
        return wrong is None

    def pattern(self, value: Any, path: str, regex: re.Pattern[str], words: str) -> bool:
        if not isinstance(value, str) or not regex.match(value):
            self.fault(f"{schema.describe(value)} is not {words}", path)
            return False
        return True

    def number(self, value: Any, path: str, *, null: bool = True) -> bool:
        if value is None and null:
            return True
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.fault(f"must be a number{' or null' if null else ''}, not "
                       f"{schema.describe(value)}", path)
            return False
        if isinstance(value, float) and not math.isfinite(value):
            self.fault("must be a finite number", path)
            return False
        if isinstance(value, int) and abs(value) > schema.MAX_JSON_INT:
            self.fault("is too large to hash (RFC 8785 numbers are doubles)", path)
            return False
        return True

    def json_value(self, value: Any, path: str, depth: int = 0) -> None:
        """Any JSON value that hashes: text without control characters, safe numbers."""
        if depth > MAX_DEPTH:
            self.fault(f"is nested deeper than {MAX_DEPTH} levels", path)
        elif isinstance(value, dict):
            for key, item in value.items():
                where = join_path(path, key if isinstance(key, str) else repr(key))
                if not isinstance(key, str):
                    self.fault("a key must be text", where)
                elif (wrong := text.problem(key, multiline=True)) is not None:
                    self.fault(f"its key {wrong}", where)
                self.json_value(item, where, depth + 1)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                self.json_value(item, join_path(path, i), depth + 1)
        elif isinstance(value, str):
            if (wrong := text.problem(value, multiline=True)) is not None:
                self.fault(wrong, path)
        elif value is not None and not isinstance(value, bool):
            self.number(value, path)

    def time(self, value: Any, path: str) -> datetime | None:
        if isinstance(value, str):
            try:
                when = datetime.fromisoformat(value)
            except ValueError:
                when = None
            if when is not None and when.tzinfo is not None:
                return when
        self.fault(f"{schema.describe(value)} is not an ISO 8601 time with its zone "
                   "(2026-03-01T10:00:00Z)", path)
        return None


def record_faults(doc: Any) -> list[Fault]:
    """Every fault of a record's content (its ``tail`` aside; see :func:`verify_document`)."""
    c = _Check()
    if not isinstance(doc, dict):
        return [Fault(f"a game record is a JSON object, not {schema.describe(doc)}")]
    body = body_of(doc)
    if "format" in body and body["format"] != FORMAT:  # another version: its fields may differ
        c.fault(f"{schema.describe(body['format'])} is not a format this verifier knows "
                f"({FORMAT})", "format")
        return c.faults
    if not c.fields(body, "", FIELDS):
        return c.faults
    try:
        if str(uuid.UUID(str(body["id"]))) != body["id"]:
            raise ValueError
    except ValueError:
        c.fault(f"{schema.describe(body['id'])} is not a game id (a UUID in lower case)", "id")
    c.line(body["site"], "site", empty=False)
    game_ok = c.pattern(body["game"], "game", GAME_RE, "a game's name (tafl, talat)")
    variant = body["variant"]
    if game_ok and c.line(variant, "variant", empty=False):
        name = variant.partition("/")[2]
        if not variant.startswith(body["game"] + "/") or not VARIANT_NAME_RE.match(name):
            c.fault(f"{variant!r} is not a variant of {body['game']} (written "
                    f"{body['game']}/NAME)", "variant")
    if isinstance(body["options"], dict):
        c.json_value(body["options"], "options")
    else:
        c.fault(f"must be an object, not {schema.describe(body['options'])}", "options")
    c.line(body["time_control"], "time_control", null=True)
    started = c.time(body["started"], "started")
    finished = c.time(body["finished"], "finished")
    if started and finished and finished < started:
        c.fault(f"is before the start ({body['started']})", "finished")
    seats = _seats(c, body["seats"])
    _result(c, body["result"], seats)
    _events(c, body["events"], seats)
    if (wrong := text.problem(body["notation"], multiline=True)) is not None:
        c.fault(wrong, "notation")
    return c.faults


def _seats(c: _Check, seats: Any) -> dict[str, str] | None:
    """Check the seats; their kinds by id (None when the list is broken)."""
    if not isinstance(seats, list) or not seats:
        c.fault("must be a list of the game's seats, at least one", "seats")
        return None
    kinds: dict[str, str] = {}
    for i, seat in enumerate(seats):
        where = join_path("seats", i)
        if not c.fields(seat, where, SEAT_FIELDS):
            continue
        sid = seat["seat"]
        if c.pattern(sid, join_path(where, "seat"), SEAT_ID_RE,
                     "a seat id (1-16 letters, digits, '-' or '_')"):
            if sid in kinds:
                c.fault(f"seat {sid!r} is listed twice", join_path(where, "seat"))
            kinds[sid] = seat["kind"]
        c.line(seat["label"], join_path(where, "label"), max_length=MAX_NAME, empty=False)
        if seat["kind"] not in SEAT_KINDS:
            c.fault(f"{schema.describe(seat['kind'])} is not a seat's kind "
                    f"({', '.join(SEAT_KINDS)})", join_path(where, "kind"))
        elif seat["kind"] == NEUTRAL:
            for name in ("player", "account", "rating"):
                if seat[name] is not None:
                    c.fault("must be null: nobody holds a neutral seat", join_path(where, name))
        elif seat["player"] is None:
            c.fault(f"missing: a {seat['kind']}'s seat names its player",
                    join_path(where, "player"))
        c.line(seat["player"], join_path(where, "player"), max_length=MAX_NAME, null=True)
        c.line(seat["account"], join_path(where, "account"), max_length=MAX_NAME, null=True)
        c.number(seat["rating"], join_path(where, "rating"))
    return kinds


def _result(c: _Check, result: Any, kinds: dict[str, str] | None) -> None:
    if not c.fields(result, "result", RESULT_FIELDS):
        return
    c.line(result["reason"], "result.reason", max_length=40, empty=False)
    c.line(result["cause"], "result.cause", max_length=40)
    c.line(result["detail"], "result.detail", max_length=MAX_DETAIL)
    ranks = result["ranks"]
    if not isinstance(ranks, dict):
        c.fault(f"must be an object of seat: rank ({{}} for no result), not "
                f"{schema.describe(ranks)}", "result.ranks")
        return
    if kinds is None:
        return
    played = [s for s, kind in kinds.items() if kind != NEUTRAL]
    ranked_ok = True
    for sid, rank in ranks.items():
        where = join_path("result.ranks", sid)
        if sid not in kinds:
            c.fault(f"ranks {sid!r}, which is not one of the seats", where)
            ranked_ok = False
        elif kinds[sid] == NEUTRAL:
            c.fault(f"seat {sid!r} is neutral: nobody holds it, it has no rank", where)
            ranked_ok = False
        if isinstance(rank, bool) or not isinstance(rank, int) or rank < 1:
            c.fault(f"a rank is a whole number from 1, not {schema.describe(rank)}", where)
            ranked_ok = False
    if ranks:
        missing = [s for s in played if s not in ranks]
        if missing:
            c.fault(f"every seat a player holds is ranked (or none is: no result); "
                    f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not",
                    "result.ranks")
        elif ranked_ok:
            values = sorted(ranks.values())
            expected = [1 + sum(1 for v in values if v < r) for r in values]
            if values != expected:
                c.fault(f"ranks {', '.join(map(str, values))} are not places 1..N with ties "
                        f"(tied seats share a place and the next places are skipped: 1, 1, 3)",
                        "result.ranks")
    scores = result["scores"]
    if scores is None:
        return
    if not isinstance(scores, dict):
        c.fault(f"must be an object of seat: score, or null, not {schema.describe(scores)}",
                "result.scores")
        return
    for sid, score in scores.items():
        where = join_path("result.scores", sid)
        if sid not in played:
            c.fault(f"scores {sid!r}, which is not a seat a player holds", where)
        c.number(score, where, null=False)
    missing = [s for s in played if s not in scores]
    if missing:
        c.fault(f"every seat a player holds has a score; {', '.join(missing)} has none",
                "result.scores")


def _events(c: _Check, events: Any, kinds: dict[str, str] | None) -> None:
    if not isinstance(events, list):
        c.fault(f"must be a list of the game's public events, not {schema.describe(events)}",
                "events")
        return
    last = 0
    for i, event in enumerate(events):
        where = join_path("events", i)
        if not c.fields(event, where, EVENT_FIELDS):
            continue
        n = event["n"]
        if isinstance(n, bool) or not isinstance(n, int) or n < 1 or n > schema.MAX_JSON_INT:
            c.fault(f"an event's number is a whole number from 1, not {schema.describe(n)}",
                    join_path(where, "n"))
        elif n <= last:
            c.fault(f"event {n} comes after event {last}: the log's order is lost",
                    join_path(where, "n"))
        else:
            last = n
        c.line(event["kind"], join_path(where, "kind"), max_length=32, empty=False)
        seat = event["seat"]
        if seat is not None and kinds is not None and seat not in kinds:
            c.fault(f"{schema.describe(seat)} is not one of the seats", join_path(where, "seat"))
        if isinstance(event["data"], dict):
            c.json_value(event["data"], join_path(where, "data"))
        else:
            c.fault(f"must be an object, not {schema.describe(event['data'])}",
                    join_path(where, "data"))
        c.line(event["text"], join_path(where, "text"))


def _tail_faults(tail: Any) -> list[Fault]:
    """The tail's own shape: the hash and the site's one signature block (R33's form)."""
    c = _Check()
    if not c.fields(tail, "tail", ("hash", "signatures")):
        return c.faults
    c.pattern(tail["hash"], "tail.hash", schema.HASH_RE, "64 lower-case hex digits")
    sigs = tail["signatures"]
    if not c.fields(sigs, "tail.signatures", (schema.BODY_ROLE,)):
        return c.faults
    where = f"tail.signatures.{schema.BODY_ROLE}"
    block = sigs[schema.BODY_ROLE]
    if c.fields(block, where, ("registrar_id", "key_id", "signature")):
        c.line(block["registrar_id"], join_path(where, "registrar_id"), max_length=64,
               empty=False)
        c.pattern(block["key_id"], join_path(where, "key_id"), schema.KEY_ID_RE,
                  "'0x' and the last 8 hex digits of the fingerprint, upper-case (R33)")
        if not isinstance(block["signature"], str):
            c.fault(f"must be base64 text, not {schema.describe(block['signature'])}",
                    join_path(where, "signature"))
    return c.faults


def verify_document(doc: Any, *, signatures: Any = None, file: str | None = None,
                    ) -> list[Fault]:
    """Every fault of a signed record: its content (:func:`record_faults`), its tail, its hash
    against its content, and, when ``signatures`` (a ``verify.SignatureChecker``) is given,
    the site's signature against that keyring. Never raises on bad input."""
    if not isinstance(doc, dict):
        return [Fault(f"a game record is a JSON object, not {schema.describe(doc)}", "", file)]
    faults = record_faults(doc)
    if "tail" not in doc:
        faults.append(Fault("missing: the record is not sealed (no hash, no signature)",
                            "tail"))
        return [f.located(file) for f in faults]
    tail_faults = _tail_faults(doc["tail"])
    faults += tail_faults
    if tail_faults:
        return [f.located(file) for f in faults]
    try:  # a record whose content is wrong is still checked against its hash: was it changed?
        digest = record_hash(doc)
    except RecordError:
        digest = None  # cannot be canonicalised: record_faults has said why
    if digest is not None and digest != doc["tail"]["hash"]:
        faults.append(Fault("does not match the content (the record was changed after it "
                            "was hashed)", "tail.hash"))
    if signatures is not None:
        faults += signatures.check(doc["tail"], doc["tail"]["hash"], "tail", file)
    return [f.located(file) for f in faults]


def verify_file(path: str | os.PathLike[str], *, signatures: Any = None) -> list[Fault]:
    """``talu verify`` of one record file: read, parse strictly, :func:`verify_document`."""
    name = os.fspath(path)
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        return [Fault(f"cannot be read: {exc.strerror or exc}", "", name)]
    try:
        doc = loads(data)
    except RecordError as exc:
        return [f.located(name) for f in exc.faults]
    return verify_document(doc, signatures=signatures, file=name)
