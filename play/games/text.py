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

Invisible characters that join or vary what is around them are ordinary text where they do
that, and refused elsewhere, where they would only hide something (two names that look the
same, bytes smuggled after a letter) (issue 41, finding 11): the zero-width joiner U+200D
between emoji (a family: man, ZWJ, woman, ZWJ, girl; the rainbow flag: white flag, U+FE0F, ZWJ,
rainbow) or after a virama (Indic conjuncts), the zero-width non-joiner U+200C after a virama
or between Arabic-script letters (Persian), a variation selector once after a character it can
vary (U+FE0F after an emoji or a keycap's digit), and the tag characters of the three
subdivision flags (England, Scotland, Wales).
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
ZWJ, ZWNJ = "\u200d", "\u200c"
EMOJI_VARIATIONS = frozenset("\ufe0e\ufe0f")  # text and emoji presentation
SKIN_TONES = frozenset(chr(c) for c in range(0x1F3FB, 0x1F400))
# Emoji that are neither symbols (category So or Sm) nor beyond ASCII: keycaps' bases (1,
# U+FE0F, U+20E3), and ‼ ⁉ ℹ 〰 〽 (punctuation and a letter by category).
EMOJI_BASES = frozenset("#*0123456789\u203c\u2049\u2139\u3030\u303d")
# The subdivision flags of the emoji standard (England, Scotland, Wales): a black flag and tag
# characters; any other run of tag characters hides ASCII text.
_TAG_FLAGS = re.compile("\U0001F3F4(?:" + "|".join(
    "".join(chr(0xE0000 + ord(c)) for c in code) for code in ("gbeng", "gbsct", "gbwls"))
    + ")\U000E007F")


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
    if not multiline:
        value = _TAG_FLAGS.sub("\U0001F3F4", value)  # a flag: its tags are its name
    for i, ch in enumerate(value):
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
        elif ch in (ZWJ, ZWNJ):
            if not _joins(value, i):
                return (f"must not contain the invisible joiner U+{ord(ch):04X} except "
                        "where it joins (emoji, or letters of a script that joins them)")
        elif _is_variation_selector(ch):
            if not _varies(value, i):
                return (f"must not contain the variation selector U+{ord(ch):04X} except "
                        "once right after a character it varies (U+FE0F after an emoji)")
        elif not ch.isprintable() and ch != " ":
            if ch in "\n\r\u2028\u2029":
                return "must be a single line"
            return f"must not contain the control character U+{ord(ch):04X}"
    return None


def _pictographic(ch: str) -> bool:
    """An emoji or another pictographic symbol (what a joiner or U+FE0F may follow)."""
    return ch > "\x7f" and unicodedata.category(ch) in ("So", "Sm")


def _emoji_before(value: str, i: int) -> bool:
    """Whether an emoji ends just before ``value[i]``: a pictograph, with its skin tone and
    its U+FE0F if any (a person with a skin tone, a white flag shown as an emoji)."""
    j = i - 1
    if j >= 0 and value[j] in EMOJI_VARIATIONS:
        j -= 1
    if j >= 0 and value[j] in SKIN_TONES:
        j -= 1
    return j >= 0 and _pictographic(value[j])


def _joins(value: str, i: int) -> bool:
    """Whether the joiner at ``value[i]`` joins: after a virama (both joiners: Indic
    conjuncts, as IDNA's CONTEXTJ rules allow them), the zero-width joiner between emoji (an
    emoji ZWJ sequence), the non-joiner between Arabic-script letters (Persian words)."""
    before = value[i - 1] if i else ""
    after = value[i + 1] if i + 1 < len(value) else ""
    if before and unicodedata.combining(before) == 9:  # a virama
        return True
    if value[i] == ZWJ:
        return bool(after) and _emoji_before(value, i) and _pictographic(after)
    return bool(after) and _arabic_letter(before) and _arabic_letter(after)


def _arabic_letter(ch: str) -> bool:
    return bool(ch) and unicodedata.category(ch).startswith("L") \
        and unicodedata.name(ch, "").startswith("ARABIC")


def _is_variation_selector(ch: str) -> bool:
    return "\ufe00" <= ch <= "\ufe0f" or "\U000e0100" <= ch <= "\U000e01ef"


def _varies(value: str, i: int) -> bool:
    """Whether the variation selector at ``value[i]`` follows a character it can vary, once:
    U+FE0E/U+FE0F an emoji; the others (standardized and ideographic variants) a letter or
    symbol beyond ASCII (a Han character of a name). Never a run (bytes smuggled as
    selectors), never after a space, an ASCII letter or nothing."""
    before = value[i - 1] if i else ""
    if not before or (before.isascii() and before not in EMOJI_BASES):
        return False
    if value[i] in EMOJI_VARIATIONS:
        return _pictographic(before) or before in EMOJI_BASES
    return unicodedata.category(before)[0] in "LS"


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
