"""The one check of every string that comes from outside (issue 27): names, reasons, a step's
``seq``, record text, query and path parameters.

Why one place: each way in (the API, the sign-up form, the admin, a management command, the
websocket) once had its own partial check, and what one let through broke another: a NUL is
refused by PostgreSQL's text (a 500 there, fine on SQLite), a lone surrogate cannot be encoded
as UTF-8 (a 500 on the database or on the way out), a right-to-left override (U+202E) in a
name turns the rest of a profile page's line around, and a newline in a name makes a record the
record builder refuses. Every caller asks :func:`problem` (or :func:`clean_name`) and answers
its words as a 400 / a form error / a ``bad_step``; nothing here knows Django.

The kinds of text:

* a **name** (a player's display name, a username): one line, normalised (NFC, runs of spaces
  made one, trimmed), printable, no bidirectional controls, at most ``max_length``;
* a **line** (a reason, a ``seq``, a query parameter): printable, one line, no bidi controls;
* **text** (a record file, a multi-line note): tabs and line breaks allowed, no other control
  character, no NUL, no lone surrogate.
"""

from __future__ import annotations

import re
import unicodedata

# Bidirectional embedding, override and isolate controls, and the implicit marks: shown, they
# reorder the text around them (U+202E "RIGHT-TO-LEFT OVERRIDE" reverses what follows).
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")
TEXT_WHITESPACE = frozenset("\t\n\r")
_SPACES = re.compile(" +")


class TextError(ValueError):
    """A string refused, with words a person can act on."""


def _is_surrogate(ch: str) -> bool:
    return "\ud800" <= ch <= "\udfff"


def problem(value: object, *, max_length: int | None = None, multiline: bool = False,
            allow_bidi: bool = False) -> str | None:
    """What is wrong with ``value`` as external text, or None when it may be kept and shown.

    ``multiline`` allows tabs and line breaks (record files); otherwise the value must be one
    printable line. Bidi controls are refused unless ``allow_bidi`` (record text, which is
    YAML read by the records core, not shown as running text, allows them)."""
    if not isinstance(value, str):
        return "must be text"
    if max_length is not None and len(value) > max_length:
        return f"must be at most {max_length} characters"
    for ch in value:
        if ch == "\x00":
            return "must not contain a NUL character"
        if _is_surrogate(ch):
            return "must be valid Unicode text (it holds a lone surrogate)"
        if ch in BIDI_CONTROLS:
            if allow_bidi:
                continue
            return (f"must not contain the bidirectional control U+{ord(ch):04X}, which "
                    "reorders the text shown around it")
        if multiline:
            # Text: a YAML file or a note; only control characters (category Cc) are out.
            if ch not in TEXT_WHITESPACE and unicodedata.category(ch) == "Cc":
                return f"must not contain the control character U+{ord(ch):04X}"
        elif not ch.isprintable() and ch != " ":
            if ch in "\n\r\u2028\u2029":
                return "must be a single line"
            return f"must not contain the control character U+{ord(ch):04X}"
    return None


def check(value: object, **kwargs) -> str:
    """``value`` itself when :func:`problem` finds nothing, else :class:`TextError`."""
    reason = problem(value, **kwargs)
    if reason is not None:
        raise TextError(reason)
    assert isinstance(value, str)
    return value


def normalise_name(value: str) -> str:
    """A name as it is stored: Unicode NFC (one spelling of "é"), every run of spaces one
    space, no space at either end. Done before :func:`problem`, so a name that differs from
    another only by its spacing or composition is the same name."""
    return _SPACES.sub(" ", unicodedata.normalize("NFC", value)).strip()


def clean_name(value: object, *, max_length: int = 200) -> str:
    """A display name, normalised and checked (see the module's doc); TextError if refused."""
    if not isinstance(value, str):
        raise TextError("must be text")
    # Spaces of every width (no-break, thin, ideographic: category Zs) are one space; anything
    # else is checked before normalising, which would hide it (a newline made a space).
    value = "".join(" " if unicodedata.category(ch) == "Zs" else ch for ch in value)
    reason = problem(value, max_length=4 * max_length)
    if reason is None:
        value = normalise_name(value)
        reason = "must not be empty" if not value else problem(value, max_length=max_length)
    if reason is not None:
        raise TextError(reason)
    return value
