"""Structure and types of STGE, STSE and STDGS documents (book 6.5.2, rulings R31, R34, R35).

Each ``check_*`` function takes a parsed YAML document and returns the list of every
:class:`~registry.records.errors.Fault` found, each with the path of its field
(``session.turns[4]``, ``sessions[1].board.O``; list indices count from 0). An empty list
means the document has the shape this module knows; it says nothing about hashes, signatures
or legality (see :mod:`registry.records.verify`).

Accepted spellings (R31): the side keys are ``I`` and ``O``; the book's ``0`` (which a YAML
reader returns as the *integer* 0 when unquoted) and ``player_0`` are accepted as ``O`` and
``player_O``. :func:`sides` and :func:`signature_roles` return the normalised view.

The module is strict about everything else: a field this format version does not define is a
fault (a typo such as ``turn:`` must not slip through), and so are ``ruleset_version`` or
``affiliated_body`` at the places the book prints them by a typesetting slip (R31 says where
they belong).
"""

from __future__ import annotations

import base64
import binascii
import datetime as _dt
import re
import uuid
from collections.abc import Mapping
from typing import Any

from play.games.talu.decisions import ARBITER_ACTIONS
from play.games.talu.variants import VARIANTS as TALU_VARIANTS
from registry.scoring.tally import CODES

from .errors import Fault, RecordError, join_path

STGE, STSE, STDGS = "STGE", "STSE", "STDGS"
FORMATS = (STGE, STSE, STDGS)
FORMAT_VERSION = "1.0.0"
RULESET_VERSION = "2.0.0"
NOTATION_VERSION = "1.0"
#: R3's variant names and R34's arbiter actions are the rules core's: one place each.
VARIANTS = tuple(TALU_VARIANTS)
SIDES = ("I", "O")
PLAYER_ROLES = {"I": "player_I", "O": "player_O"}
BODY_ROLE = "affiliated_body"
SIGNATURE_ROLES = ("player_I", "player_O", BODY_ROLE)  # the book's order

MAX_JSON_INT = 2**53 - 1  # RFC 8785 numbers are IEEE doubles: larger integers do not hash
HASH_RE = re.compile(r"^[0-9a-f]{64}$")
KEY_ID_RE = re.compile(r"^0x[0-9A-F]{8}$")
SQUARE_RE = re.compile(r"^[A-Za-z][1-9][0-9]?$")
TURN_REF_RE = re.compile(r"^[0-9]{3,} [IO0]$")


# --- small helpers --------------------------------------------------------------------------


def describe(value: Any) -> str:
    """A value's type in words, with the value when it is short (for messages)."""
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, int):
        return f"an integer ({value})"
    if isinstance(value, float):
        return f"a number ({value})"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"a string ({shown!r})"
    if value is None:
        return "nothing (null)"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, _dt.datetime | _dt.date):
        return f"a date ({value.isoformat()})"
    return f"a {type(value).__name__}"


def side_of(key: Any) -> str | None:
    """``"I"`` / ``"O"`` for a side key (``O``, ``0`` and integer 0 all mean O), else None."""
    if key == "I" and isinstance(key, str):
        return "I"
    if isinstance(key, bool):
        return None
    if key in ("O", "0") or (isinstance(key, int) and key == 0):
        return "O"
    return None


def role_of(key: Any) -> str | None:
    """The normalised signature role of a ``tail.signatures`` key (``player_0`` -> ``player_O``)."""
    if key in ("player_I", BODY_ROLE):
        return key
    if key in ("player_O", "player_0"):
        return "player_O"
    return None


def sides(mapping: Mapping[Any, Any]) -> dict[str, Any]:
    """``{"I": ..., "O": ...}`` from a side-keyed mapping that passed the checks."""
    out: dict[str, Any] = {}
    for key, value in mapping.items():
        side = side_of(key)
        if side is not None:
            out[side] = value
    return out


def signature_roles(signatures: Mapping[Any, Any] | None) -> dict[str, Any]:
    """``{"player_I": ..., "player_O": ..., "affiliated_body": ...}`` (only those present)."""
    out: dict[str, Any] = {}
    for key, value in (signatures or {}).items():
        role = role_of(key)
        if role is not None:
            out[role] = value
    return out


def board_squares(text: str) -> list[str]:
    """The squares of a ``<square_string>`` (``"A2 C2 D2"``), upper-cased."""
    return [sq.upper() for sq in text.split()]


def format_of(doc: Any) -> str:
    """Which record a document is (STGE, STSE or STDGS); :class:`RecordError` when unknown.

    A document whose ``meta`` is missing is taken for what its other keys suggest, so that the
    structure check can name the missing fields.
    """
    if not isinstance(doc, Mapping):
        raise RecordError(Fault(f"expected a mapping at the top, got {describe(doc)}"))
    if "session" in doc:
        inner = doc["session"]
        meta = inner.get("meta") if isinstance(inner, Mapping) else None
        fmt = meta.get("format") if isinstance(meta, Mapping) else None
        if fmt in (STSE, None):
            return STSE
        raise RecordError(Fault(f"unknown format {fmt!r} for a session entry (expected STSE)",
                                "session.meta.format"))
    meta = doc.get("meta")
    if meta is None and "meta" not in doc:
        if "sessions" in doc or "tally" in doc:
            return STDGS
        if "game" in doc or "players" in doc:
            return STGE
        raise RecordError(Fault("missing: cannot tell which record this is", "meta"))
    if not isinstance(meta, Mapping):
        raise RecordError(Fault(f"expected a mapping, got {describe(meta)}", "meta"))
    fmt = meta.get("format")
    if fmt in (STGE, STDGS):
        return fmt
    if "format" not in meta:
        raise RecordError(Fault("missing: cannot tell which record this is", "meta.format"))
    if fmt == STSE:
        raise RecordError(Fault("a session entry is one mapping 'session:' holding id, meta, "
                                "start, turns, board and tail (R31)", "meta.format"))
    raise RecordError(Fault(f"unknown format {fmt!r} (expected STGE, STSE or STDGS)",
                            "meta.format"))


# --- the checker ----------------------------------------------------------------------------


class _Checker:
    def __init__(self) -> None:
        self.faults: list[Fault] = []

    def add(self, path: str, message: str) -> None:
        self.faults.append(Fault(message, path))

    def fields(
        self,
        value: Any,
        path: str,
        required: tuple[str, ...],
        optional: tuple[str, ...] = (),
        misplaced: Mapping[str, str] | None = None,
    ) -> bool:
        """Check ``value`` is a mapping with exactly these keys; True when it is a mapping."""
        if not isinstance(value, Mapping):
            self.add(path, f"expected a mapping, got {describe(value)}")
            return False
        for name in required:
            if name not in value:
                self.add(join_path(path, name), "missing")
        for key in value:
            if key in required or key in optional:
                continue
            where = join_path(path, str(key))
            if misplaced and key in misplaced:
                self.add(where, misplaced[key])
            elif not isinstance(key, str):
                self.add(where, f"unexpected key {describe(key)}")
            else:
                self.add(where, "unknown field")
        return True

    def string(self, value: Any, path: str, *, single_line: bool = True) -> bool:
        if not isinstance(value, str):
            hint = " (write it in quotes)" if isinstance(value, bool | int | float) else ""
            if value is None:
                hint = " (write 'null' in quotes if that is the value)"
            self.add(path, f"expected a string, got {describe(value)}{hint}")
            return False
        if not value.strip():
            self.add(path, "must not be empty")
            return False
        if single_line and ("\n" in value or "\r" in value):
            self.add(path, "must be a single line")
            return False
        return True

    def const(self, value: Any, path: str, expected: str, what: str) -> None:
        if not isinstance(value, str):
            self.add(path, f"expected the string {expected!r}, got {describe(value)}")
        elif value != expected:
            self.add(path, f"unsupported {what} {value!r} (this reader knows {expected!r})")

    def integer(self, value: Any, path: str, *, minimum: int = 0, what: str = "an integer") -> bool:
        if isinstance(value, bool) or not isinstance(value, int):
            self.add(path, f"expected {what}, got {describe(value)}")
            return False
        if value < minimum:
            self.add(path, f"expected {what} >= {minimum}, got {value}")
            return False
        if value > MAX_JSON_INT:
            self.add(path, f"{value} is too large (at most {MAX_JSON_INT})")
            return False
        return True

    def timestamp(self, value: Any, path: str) -> None:
        self.integer(value, path, what="a unix timestamp (whole seconds)")

    def pattern(self, value: Any, path: str, regex: re.Pattern[str], what: str) -> bool:
        if not self.string(value, path):
            return False
        if not regex.match(value):
            self.add(path, f"expected {what}, got {value!r}")
            return False
        return True

    def game_uuid(self, value: Any, path: str) -> None:
        if not self.string(value, path):
            return
        try:
            parsed = uuid.UUID(value)
        except ValueError:
            parsed = None
        if parsed is None or str(parsed) != value.lower():
            self.add(path, f"expected an RFC 4122 UUID like 'c8b7e901-...-...', got {value!r}")

    def side_mapping(self, value: Any, path: str) -> dict[str, tuple[str, Any]] | None:
        """Check a mapping keyed by the two sides; return side -> (path, value)."""
        if not isinstance(value, Mapping):
            self.add(path, f"expected a mapping with keys I and O, got {describe(value)}")
            return None
        out: dict[str, tuple[str, Any]] = {}
        for key, item in value.items():
            side = side_of(key)
            where = join_path(path, str(key))
            if side is None:
                self.add(where, "unknown side (expected I or O)")
            elif side in out:
                self.add(where, f"side {side} given twice (O and 0 are the same side)")
            else:
                out[side] = (where, item)
        for side in SIDES:
            if side not in out:
                self.add(join_path(path, side), "missing")
        return out

    # --- record parts ---

    def game(self, value: Any, path: str) -> None:
        # ``time_control`` (R38): optional, beside the book's fields, covered by the hash
        if not self.fields(value, path, ("id", "type", "ruleset_version", "notation_version"),
                           ("time_control",)):
            return
        if "time_control" in value:
            self.string(value["time_control"], join_path(path, "time_control"))
        if "id" in value:
            self.game_uuid(value["id"], join_path(path, "id"))
        if "type" in value:
            kind = value["type"]
            if self.string(kind, join_path(path, "type")) and kind not in VARIANTS:
                self.add(join_path(path, "type"),
                         f"unknown game type {kind!r} (expected one of {', '.join(VARIANTS)})")
        if "ruleset_version" in value:
            self.const(value["ruleset_version"], join_path(path, "ruleset_version"),
                       RULESET_VERSION, "ruleset version")
        if "notation_version" in value:
            self.const(value["notation_version"], join_path(path, "notation_version"),
                       NOTATION_VERSION, "notation version")

    def players(self, value: Any, path: str) -> None:
        found = self.side_mapping(value, path)
        for where, player in (found or {}).values():
            if self.fields(player, where, ("id", "name")):
                for name in ("id", "name"):
                    if name in player:
                        self.string(player[name], join_path(where, name))

    def tail(self, value: Any, path: str) -> None:
        if not self.fields(value, path, ("hash",), ("signatures",)):
            return
        if "hash" in value:
            self.pattern(value["hash"], join_path(path, "hash"), HASH_RE,
                         "a lower-case hex SHA-256 (64 characters)")
        if "signatures" not in value:
            return
        sigs = value["signatures"]
        spath = join_path(path, "signatures")
        if not isinstance(sigs, Mapping):
            self.add(spath, f"expected a mapping, got {describe(sigs)}")
            return
        seen: set[str] = set()
        for key, sig in sigs.items():
            where = join_path(spath, str(key))
            role = role_of(key)
            if role is None:
                self.add(where, "unknown signer (expected player_I, player_O or affiliated_body)")
                continue
            if role in seen:
                self.add(where, f"{role} given twice (player_O and player_0 are the same)")
                continue
            seen.add(role)
            required = ("key_id", "signature")
            if role == BODY_ROLE:
                required = ("registrar_id", *required)
            if not self.fields(sig, where, required):
                continue
            if "registrar_id" in sig:
                self.string(sig["registrar_id"], join_path(where, "registrar_id"))
            if "key_id" in sig:
                self.pattern(sig["key_id"], join_path(where, "key_id"), KEY_ID_RE,
                             "'0x' and the last 8 hex digits of the fingerprint, upper-case (R33)")
            if "signature" in sig:
                self.base64(sig["signature"], join_path(where, "signature"))

    def base64(self, value: Any, path: str) -> None:
        if not self.string(value, path):
            return
        try:
            raw = base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            self.add(path, "not valid base64")
            return
        if not raw:
            self.add(path, "empty signature")

    def session(self, value: Any, path: str) -> None:
        """The mapping under ``session:`` (or one item of a slip's ``sessions``)."""
        if not self.fields(value, path, ("id", "meta", "start", "turns", "board", "tail"),
                           ("arbiter", "clocks")):
            return
        if "clocks" in value:  # R38: each side's time left (seconds) at the session's end
            cpath = join_path(path, "clocks")
            if self.fields(value["clocks"], cpath, ("I", "O")):
                for side in ("I", "O"):
                    if side in value["clocks"]:
                        self.integer(value["clocks"][side], join_path(cpath, side),
                                     what="whole seconds")
        if "id" in value:
            self.integer(value["id"], join_path(path, "id"), minimum=1,
                         what="a positive integer")
        if "meta" in value:
            mpath = join_path(path, "meta")
            meta = value["meta"]
            if self.fields(meta, mpath,
                           ("format", "format_version", "created", "game_id", "previous_hash")):
                if "format" in meta:
                    fmt = meta["format"]
                    if fmt != STSE:
                        self.add(join_path(mpath, "format"),
                                 f"expected 'STSE' for a session, got {describe(fmt)}")
                if "format_version" in meta:
                    self.const(meta["format_version"], join_path(mpath, "format_version"),
                               FORMAT_VERSION, "format_version")
                if "created" in meta:
                    self.timestamp(meta["created"], join_path(mpath, "created"))
                if "game_id" in meta:
                    self.game_uuid(meta["game_id"], join_path(mpath, "game_id"))
                if "previous_hash" in meta:
                    self.pattern(meta["previous_hash"], join_path(mpath, "previous_hash"),
                                 HASH_RE, "a lower-case hex SHA-256 (64 characters)")
        if "start" in value:
            spath = join_path(path, "start")
            start = value["start"]
            if self.fields(start, spath, ("place", "time")):
                if "place" in start:
                    self.string(start["place"], join_path(spath, "place"))
                if "time" in start:
                    self.timestamp(start["time"], join_path(spath, "time"))
        if "turns" in value:
            self.turns(value["turns"], join_path(path, "turns"))
        if "board" in value:
            self.board(value["board"], join_path(path, "board"))
        if "arbiter" in value:
            self.arbiter(value["arbiter"], join_path(path, "arbiter"))
        if "tail" in value:
            self.tail(value["tail"], join_path(path, "tail"))

    def turns(self, value: Any, path: str) -> None:
        if not isinstance(value, list):
            self.add(path, f"expected a list of notation lines, got {describe(value)}")
            return
        for i, line in enumerate(value):
            self.string(line, join_path(path, i))

    def board(self, value: Any, path: str) -> None:
        found = self.side_mapping(value, path)
        for where, text in (found or {}).values():
            if not isinstance(text, str):
                self.add(where, f"expected a string of squares like 'A2 C2', got {describe(text)}"
                         + (" (write it in quotes)" if isinstance(text, int | float) else ""))
                continue
            squares = text.split()
            bad = [sq for sq in squares if not SQUARE_RE.match(sq)]
            if bad:
                self.add(where, f"not a square: {', '.join(repr(b) for b in bad)}")
            upper = [sq.upper() for sq in squares]
            dupes = sorted({sq for sq in upper if upper.count(sq) > 1})
            if dupes:
                self.add(where, f"square listed twice: {', '.join(dupes)}")

    def arbiter(self, value: Any, path: str) -> None:
        if not isinstance(value, list):
            self.add(path, f"expected a list of arbiter decisions, got {describe(value)}")
            return
        for i, item in enumerate(value):
            where = join_path(path, i)
            # ``at`` (issue 26): when a count_as_pass was decided after the end of the turn it
            # names, the last turn played then (optional beside R34's keys, hashed like them).
            # ``seconds``: R39's add_time, the time added to ``side``'s clock (a whole number).
            if not self.fields(item, where, ("turn", "action"),
                               ("side", "reason", "at", "seconds")):
                continue
            for key in ("turn", "at"):
                if key in item:
                    self.pattern(item[key], join_path(where, key), TURN_REF_RE,
                                 "a turn like '014 O'")
            if "action" in item:
                action = item["action"]
                apath = join_path(where, "action")
                if self.string(action, apath) and action not in ARBITER_ACTIONS:
                    self.add(apath,
                             f"unknown action {action!r} "
                             f"(expected one of {', '.join(ARBITER_ACTIONS)})")
            if "side" in item and side_of(item["side"]) is None:
                self.add(join_path(where, "side"), f"expected I or O, got {describe(item['side'])}")
            if item.get("action") == "add_time":
                for key in ("side", "seconds"):
                    if key not in item:
                        self.add(join_path(where, key), "missing (add_time names the side and "
                                 "the seconds added to its clock, R39)")
            if "seconds" in item:
                seconds = item["seconds"]
                if item.get("action") != "add_time":
                    self.add(join_path(where, "seconds"), "only an add_time item has seconds")
                elif isinstance(seconds, bool) or not isinstance(seconds, int) \
                        or not 0 < seconds <= MAX_JSON_INT:
                    self.add(join_path(where, "seconds"),
                             f"expected a whole number of seconds above 0, got "
                             f"{describe(seconds)}")
            if "reason" in item:
                self.string(item["reason"], join_path(where, "reason"), single_line=False)

    def tally(self, value: Any, path: str) -> None:
        if not isinstance(value, Mapping):
            self.add(path, f"expected a mapping, got {describe(value)}")
            return
        if "generated" not in value:
            self.add(join_path(path, "generated"), "missing")
        found: dict[str, tuple[str, Any]] = {}
        for key, item in value.items():
            where = join_path(path, str(key))
            if key == "generated":
                if self.fields(item, where, ("by", "at")):
                    if "by" in item:
                        self.string(item["by"], join_path(where, "by"))
                    if "at" in item:
                        self.timestamp(item["at"], join_path(where, "at"))
                continue
            role = role_of(key)
            if role in ("player_I", "player_O"):
                if role in found:
                    self.add(where, f"{role} given twice (player_0 is player_O)")
                else:
                    found[role] = (where, item)
            elif side_of(key) is not None:
                self.add(where, f"use {PLAYER_ROLES[side_of(key) or 'I']} (R31)")
            else:
                self.add(where, "unknown field")
        for role in ("player_I", "player_O"):
            if role not in found:
                self.add(join_path(path, role), "missing")
        for where, codes in found.values():
            if not self.fields(codes, where, CODES):
                continue
            for code in CODES:
                if code in codes:
                    self.integer(codes[code], join_path(where, code),
                                 what="a non-negative integer")


# --- entry points ---------------------------------------------------------------------------

_TOP_MISPLACED = {
    "ruleset_version": "belongs under game (R31)",
    "notation_version": "belongs under game (R31)",
}


def check_game_entry(doc: Any) -> list[Fault]:
    """Faults of an STGE document (top-level ``meta``, ``game``, ``players``, ``tail``)."""
    c = _Checker()
    if not c.fields(doc, "", ("meta", "game", "players", "tail"), misplaced=_TOP_MISPLACED):
        return c.faults
    if "meta" in doc and c.fields(doc["meta"], "meta", ("format", "format_version", "created")):
        meta = doc["meta"]
        if "format" in meta and meta["format"] != STGE:
            c.add("meta.format", f"expected 'STGE', got {describe(meta['format'])}")
        if "format_version" in meta:
            c.const(meta["format_version"], "meta.format_version", FORMAT_VERSION,
                    "format_version")
        if "created" in meta:
            c.timestamp(meta["created"], "meta.created")
    if "game" in doc:
        c.game(doc["game"], "game")
    if "players" in doc:
        c.players(doc["players"], "players")
    if "tail" in doc:
        c.tail(doc["tail"], "tail")
    return c.faults


def check_session_entry(doc: Any) -> list[Fault]:
    """Faults of an STSE document (one top-level ``session`` mapping, R31)."""
    c = _Checker()
    if not c.fields(doc, "", ("session",), misplaced={
            BODY_ROLE: "belongs under session.tail.signatures (R31)",
            "tail": "belongs under session (R31)"}):
        return c.faults
    if "session" in doc:
        c.session(doc["session"], "session")
    return c.faults


def check_slip(doc: Any) -> list[Fault]:
    """Faults of an STDGS document (R35)."""
    c = _Checker()
    if not c.fields(doc, "", ("meta", "game", "players", "sessions", "tally"),
                    misplaced=_TOP_MISPLACED):
        return c.faults
    if "meta" in doc and c.fields(doc["meta"], "meta", ("format", "format_version")):
        meta = doc["meta"]
        if "format" in meta and meta["format"] != STDGS:
            c.add("meta.format", f"expected 'STDGS', got {describe(meta['format'])}")
        if "format_version" in meta:
            c.const(meta["format_version"], "meta.format_version", FORMAT_VERSION,
                    "format_version")
    if "game" in doc:
        c.game(doc["game"], "game")
    if "players" in doc:
        c.players(doc["players"], "players")
    if "sessions" in doc:
        sessions = doc["sessions"]
        if not isinstance(sessions, list):
            c.add("sessions", f"expected a list of sessions, got {describe(sessions)}")
        elif not sessions:
            c.add("sessions", "a game slip needs at least one session")
        else:
            for i, session in enumerate(sessions):
                c.session(session, join_path("sessions", i))
    if "tally" in doc:
        c.tally(doc["tally"], "tally")
    return c.faults


CHECKS = {STGE: check_game_entry, STSE: check_session_entry, STDGS: check_slip}


def check_document(doc: Any) -> tuple[str | None, list[Fault]]:
    """``(format, faults)`` for any record document; format is None when it cannot be told."""
    try:
        fmt = format_of(doc)
    except RecordError as exc:
        return None, exc.faults
    return fmt, CHECKS[fmt](doc)
