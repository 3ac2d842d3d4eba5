"""Reading and writing record YAML so that every reader sees the same types.

Writing. PyYAML implements YAML 1.1, other readers YAML 1.2, and the two disagree on plain
(unquoted) scalars: under 1.1 ``on``/``yes``/``y``/``n`` are booleans, ``012`` is octal and
``1:20`` is sexagesimal; under 1.2 ``0o12`` is octal and ``1e3`` a float, which PyYAML writes
unquoted because to *it* they are strings. :func:`dump_yaml` therefore quotes (single quotes)
every string that *any* of the 1.1 types or the 1.2 core schema could read as something other
than a string, and, to be safe without being clever, every string that starts with a digit,
a sign, a dot or ``~``: version strings (``"2.0.0"``, ``"1.0"``), UUIDs and hashes that start
with a digit, notation lines. Integers (timestamps, ids, tally counts) are written plain: they
read back as integers under both versions. Keys go through the same rule. Mapping order is
kept (the book's order), anchors and aliases are never written, lines are never folded.

Reading. Only PyYAML's safe loader is used (``yaml.SafeLoader``: no Python objects), through a
subclass that only *rejects* more: duplicate keys (readers disagree on which one wins), aliases
and merge keys (records never need them, and they multiply size). Every YAML error becomes a
:class:`~registry.records.errors.RecordError` naming the line and column; nothing raises a raw
traceback.

Side spelling. PyYAML reads a bare key ``O`` or ``I`` as a string (neither is a YAML 1.1
boolean) but the book's ``0`` as the *integer* 0, and a bare ``0`` value likewise. The
normalisation to ``O`` happens in :mod:`registry.records.schema`, not here, so that
:mod:`registry.records.hashing` can hash the document exactly as written (R32).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import yaml

from .errors import Fault, RecordError

MAX_RECORD_BYTES = 16 * 1024 * 1024

# YAML 1.1 (https://yaml.org/type/bool.html, null.html) and 1.2 core-schema words that a reader
# resolves to a boolean or null when plain; compared exactly (YAML is case-sensitive here).
_SPECIAL_WORDS = frozenset(
    ("y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE",
     "false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL",
     "~", "=", "<<")
)
# Every number form of YAML 1.1 and of the 1.2 core schema (ints, floats, octal, hex, binary,
# sexagesimal, .inf, .nan) and every 1.1 timestamp starts with one of these characters.
_RISKY_FIRST = frozenset("0123456789+-.~")


def needs_quotes(text: str) -> bool:
    """True when a plain ``text`` could be read back as a non-string by a 1.1 or 1.2 reader."""
    if not text or text in _SPECIAL_WORDS or text[0] in _RISKY_FIRST:
        return True
    # Whatever PyYAML itself would resolve to a non-string (timestamps and the like).
    resolved = yaml.resolver.Resolver().resolve(yaml.ScalarNode, text, (True, False))
    return resolved != "tag:yaml.org,2002:str"


class _RecordQuoting:
    """Quotes retypable strings and never writes aliases (mixed into a safe dumper)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True

    def represent_str(self, data: str) -> yaml.ScalarNode:
        if needs_quotes(data):
            return self.represent_scalar("tag:yaml.org,2002:str", data, style="'")
        return self.represent_scalar("tag:yaml.org,2002:str", data)


class RecordDumper(_RecordQuoting, yaml.SafeDumper):
    """SafeDumper that quotes retypable strings and never writes aliases."""


RecordDumper.add_representer(str, RecordDumper.represent_str)

# The same representer on libyaml's emitter, when PyYAML was built with it (its wheels are):
# six times faster, and writing a long game's session entry and slip was a large part of the
# cost of ending a game (BENCHMARKS.md, issue 7). It writes the same text as the Python emitter,
# except that it escapes a few characters the other writes raw (those outside the Basic
# Multilingual Plane, NEL, ...) in double quotes; both read back as the same string.
if hasattr(yaml, "CSafeDumper"):

    class FastRecordDumper(_RecordQuoting, yaml.CSafeDumper):
        """``RecordDumper`` on libyaml's emitter."""

    FastRecordDumper.add_representer(str, FastRecordDumper.represent_str)
else:  # pragma: no cover - PyYAML without libyaml
    FastRecordDumper = RecordDumper  # type: ignore[misc,assignment]


def dump_yaml(doc: Any) -> str:
    """The record's YAML text: book key order, UTF-8 friendly, safe types, ends with a newline."""
    return yaml.dump(
        doc,
        Dumper=FastRecordDumper,
        sort_keys=False,
        default_flow_style=False,
        allow_unicode=True,
        width=2**31 - 1,
        indent=2,
    )


class RecordLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that also rejects duplicate keys, aliases and merge keys."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None, None, "aliases (*name) are not allowed in records", event.start_mark
            )
        return super().compose_node(parent, index)

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise yaml.constructor.ConstructorError(
                    None, None, "merge keys (<<) are not allowed in records", key_node.start_mark
                )
        seen: dict[Any, Any] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                duplicate = key in seen
            except TypeError:  # unhashable key: let SafeLoader report it
                break
            if duplicate:
                raise yaml.constructor.ConstructorError(
                    "while reading a mapping",
                    node.start_mark,
                    f"duplicate key {key!r}",
                    key_node.start_mark,
                )
            seen[key] = True
        return super().construct_mapping(node, deep=deep)


def _yaml_fault(exc: yaml.YAMLError) -> Fault:
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        what = exc.problem or exc.context or "invalid YAML"
        if mark is not None:
            return Fault(f"broken YAML at line {mark.line + 1}, column {mark.column + 1}: {what}")
        return Fault(f"broken YAML: {what}")
    return Fault(f"broken YAML: {exc}")


def load_yaml(text: str | bytes) -> Any:
    """Parse one YAML document safely; raise :class:`RecordError` (never a YAML exception)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(f"not UTF-8 text (byte {exc.start})") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        doc = yaml.load(text, Loader=RecordLoader)  # RecordLoader is a SafeLoader
    except yaml.YAMLError as exc:
        raise RecordError(_yaml_fault(exc)) from None
    except (ValueError, TypeError, OverflowError) as exc:  # e.g. an impossible date
        raise RecordError(f"broken YAML: {exc}") from None
    except RecursionError:
        raise RecordError("broken YAML: nested too deeply") from None
    if doc is None:
        raise RecordError("empty document")
    return doc


def read_yaml_file(path: str | os.PathLike[str]) -> Any:
    """Read and parse a record file; a missing, unreadable or oversized file is a RecordError."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if not p.is_file():
            raise RecordError("not a regular file")
        if size > MAX_RECORD_BYTES:
            raise RecordError(f"file too large ({size} bytes, at most {MAX_RECORD_BYTES})")
        data = p.read_bytes()
    except FileNotFoundError:
        raise RecordError("no such file") from None
    except OSError as exc:
        raise RecordError(f"cannot read: {exc.strerror or exc}") from None
    return load_yaml(data)


def write_text_atomic(
    path: str | os.PathLike[str], text: str, *, overwrite: bool = False
) -> None:
    """Write ``text`` (UTF-8) to ``path`` all at once: a temp file in the same folder, renamed.

    A reader never sees a half-written record. With ``overwrite=False`` an existing file is an
    error (a game entry "is created once and must not be modified", book 6.5.2.1).
    """
    target = Path(path)
    if not overwrite and target.exists():
        raise RecordError(Fault("already exists; not overwritten", file=str(target)))
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        if overwrite:
            os.replace(tmp, target)
        else:
            # link() fails if the target appeared meanwhile: no silent overwrite race.
            try:
                os.link(tmp, target)
            except FileExistsError:
                raise RecordError(
                    Fault("already exists; not overwritten", file=str(target))
                ) from None
            except OSError:  # filesystems without hard links
                os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
