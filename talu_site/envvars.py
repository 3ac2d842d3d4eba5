"""The one way the project reads an environment variable: strict readers that stop the process
with a message naming the variable and what it accepts.

Every variable is read when the Django settings load (``talu_site/settings.py`` and what it
calls: ``channel_layer``, ``ratelimit``), so a bad value stops ``manage.py check``, ``migrate``
(``./dev serve`` runs it first), the server (``talu_site.serve``) and the worker
(``manage.py play_worker``) before any of them does anything, rather than the first time the
value is used (issue 35: ``TALU_POOL_WAVE=abc`` passed ``check``, and the worker failed later,
in its pool round). Code that uses a value reads the Django setting (``play.conf``). The one
lazy reader left is the ``talu`` command's ``TALU_KEYRING`` (it has no Django); it goes
through the same helper as the settings (``registry.records.keys.keyring_from``).

A value that is set but cannot be read raises ``ImproperlyConfigured`` rather than being
guessed at (``DEBUG=maybe`` is not False). Unset or empty (after trimming) gives the default
(the compose file passes ``${NAME:-}`` for what ``.env`` leaves out), except for a boolean, where
empty is false, as it always was: an empty ``DEBUG`` must not turn debugging on. A message
shows the value, except a secret's (``SECRET_KEY``, the channel layer's keys) and a URL's
password: messages end up in logs.

:data:`READ` names every variable read so far; ``tests/site/test_settings_at_start.py`` compares
it, and the reads it finds in the source, with the table of docs/deployment.md.
"""

from __future__ import annotations

import math
import os
import re
import warnings
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TypeVar
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

from play.games import text

T = TypeVar("T")

#: The name of every variable read by this process so far (tests compare it with the docs).
READ: set[str] = set()

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _raw(name: str) -> str | None:
    READ.add(name)
    return os.environ.get(name)


# A URL's password: a message shows the URL without it (messages end up in logs).
_PASSWORD = re.compile(r"(://[^/@:]*:)[^/]*@")


def hidden(raw: str) -> str:
    """How a secret's value is shown in a message: not at all."""
    return "(hidden)"


def without_password(raw: str) -> str:
    """How a URL is shown in a message: with ``***`` for its password."""
    return repr(_PASSWORD.sub(r"\1***@", raw))


def _refuse(name: str, shown: str, reason: str, accepts: str) -> NoReturn:
    raise ImproperlyConfigured(f"{name}={shown} {reason} ({accepts})")


def env_value(name: str, default: T, parse: Callable[[str], T], accepts: str, *,
              show: Callable[[str], str] = repr) -> T:
    """``parse`` of the variable's value, ``default`` when it is unset or empty.

    ``parse`` raises ``ValueError`` whose words say what is wrong, as the rest of a sentence
    that begins with the value (``"is not a URL"``); ``accepts`` says what would do; ``show``
    how the value appears in the message (:func:`hidden` for a secret). Every reader below is
    this one with its own ``parse``."""
    raw = _raw(name)
    if raw is None or not raw.strip():
        return default
    try:
        return parse(raw)
    except ValueError as exc:
        reason = str(exc)
    # Raised outside the except: the reason is the whole story (and the chained exception
    # could only repeat the value, which may be a secret).
    _refuse(name, show(raw), reason, accepts)


def env_bool(name: str, default: bool) -> bool:
    """A strict boolean: anything but the usual spellings is an error, not False."""
    raw = _raw(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    _refuse(name, repr(raw), "is not a boolean", "true or false")


def _line(value: str, max_length: int | None = None) -> str:
    """``value`` when it is one line of external text (``play.games.text``), else the
    ``ValueError`` that says what is wrong."""
    reason = text.problem(value, max_length=max_length)
    if reason is not None:
        raise ValueError(reason)
    return value


def _number(raw: str, minimum: float) -> float:
    try:
        value = float(raw)
    except ValueError:
        raise ValueError("is not a number") from None
    if not math.isfinite(value):
        raise ValueError("is not a number")
    if value < minimum:
        raise ValueError(f"is less than {minimum:g}")
    return value


def env_number(name: str, default: float, minimum: float, unit: str = "a number") -> float:
    """A number of at least ``minimum``; ``unit`` says what it counts (``"seconds"``)."""
    return env_value(name, default, lambda raw: _number(raw, minimum),
                     f"{unit}, at least {minimum:g}")


def env_int(name: str, default: int, minimum: int = 1, unit: str = "") -> int:
    """A whole number of at least ``minimum`` (``"1e3"`` and ``"5.0"`` are whole numbers) of
    ``unit`` (``"bytes"``)."""
    def parse(raw: str) -> int:
        try:
            value = _number(raw, minimum)
        except ValueError as exc:
            raise ValueError(str(exc).replace("a number", "a whole number")) from None
        if value != int(value):
            raise ValueError("is not a whole number")
        return int(value)

    return env_value(name, default, parse,
                     f"a whole number{f' of {unit}' if unit else ''}, at least {minimum}")


def env_choice(name: str, default: str, choices: Sequence[str], *, fold_case: bool = False,
               ) -> str:
    """One of ``choices`` (spelled as there; in any case with ``fold_case``)."""
    def parse(raw: str) -> str:
        value = raw.strip()
        for choice in choices:
            if value == choice or (fold_case and value.lower() == choice.lower()):
                return choice
        raise ValueError("is not one of the choices")

    return env_value(name, default, parse, "one of " + ", ".join(choices))


def env_text(name: str, default: str, accepts: str = "one line of text", *,
             max_length: int | None = None, forbidden: str = "", pattern: str | None = None,
             mismatch: str = "is not of that form", strip: bool = True, secret: bool = False,
             ) -> str:
    """One line of text (``play.games.text``: printable, no bidirectional control), trimmed
    unless ``strip`` is false; at most ``max_length`` characters, none of ``forbidden``, and
    all of it matching ``pattern`` when given (else ``mismatch`` says what it is not). A
    ``secret`` is not shown in the message."""
    def parse(raw: str) -> str:
        value = _line(raw.strip() if strip else raw, max_length)
        if any(ch in forbidden for ch in value):
            raise ValueError(f"must not contain any of {forbidden}")
        if pattern is not None and re.fullmatch(pattern, value) is None:
            raise ValueError(mismatch)
        return value

    return env_value(name, default, parse, accepts, show=hidden if secret else repr)


def env_list(name: str, parse_item: Callable[[str], T], accepts: str, *, secret: bool = False,
             ) -> list[T]:
    """Comma-separated items, each trimmed and read by ``parse_item`` (empty items are
    skipped; unset or empty is the empty list). Items that are ``secret`` are not shown."""
    def parse(raw: str) -> list[T]:
        out = []
        for item in raw.split(","):
            item = item.strip()
            if not item:
                continue
            try:
                _line(item)
            except ValueError as exc:
                raise ValueError(f"has an item that {exc}") from None
            try:
                out.append(parse_item(item))
            except ValueError as exc:
                what = "an item that" if secret else f"{item!r}, which"
                raise ValueError(f"has {what} {exc}") from None
        return out

    return env_value(name, [], parse, accepts, show=hidden if secret else repr)


def env_url(name: str, default: str, schemes: Sequence[str], accepts: str, *,
            query: bool = True) -> str:
    """A URL with one of ``schemes`` and a host (a path for ``unix``), trimmed; no fragment,
    and no query unless ``query``."""
    def parse(raw: str) -> str:
        value = _line(raw.strip())
        try:
            parts = urlsplit(value)
            parts.port  # noqa: B018 - raises for a port that is not a number
        except ValueError:
            raise ValueError("is not a URL") from None
        where = parts.path if parts.scheme == "unix" else parts.netloc
        if parts.scheme not in schemes or not where or " " in value:
            raise ValueError("is not a URL of that kind")
        if parts.fragment or (parts.query and not query):
            raise ValueError(f"must not have a {'fragment' if parts.fragment else 'query'}")
        return value

    return env_value(name, default, parse, accepts, show=without_password)


def env_database_url(name: str, default: str, engines: Sequence[str], accepts: str,
                     ) -> dict[str, Any]:
    """Django's ``DATABASES`` entry for a database URL (django-environ's ``db_url``), whose
    engine must be one of ``engines``."""
    import environ

    def parse(raw: str) -> dict[str, Any]:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # "Engine not recognized": refused below
                config = environ.Env.db_url_config(raw.strip())
        except (ImproperlyConfigured, KeyError, ValueError) as exc:
            raise ValueError(f"is not a database URL: {exc}") from None
        if config.get("ENGINE") not in engines:
            raise ValueError("is not a database URL of that kind")
        return config

    return env_value(name, parse(default), parse, accepts, show=without_password)


def env_email_url(name: str, default: str, accepts: str) -> dict[str, Any]:
    """Django's ``EMAIL_*`` settings for an email URL (django-environ's ``email_url``)."""
    import environ

    def parse(raw: str) -> dict[str, Any]:
        try:
            return environ.Env.email_url_config(raw.strip())
        except (ImproperlyConfigured, KeyError, ValueError):
            raise ValueError("is not an email URL") from None

    return env_value(name, parse(default), parse, accepts, show=without_password)


# A host name as Django's ALLOWED_HOSTS takes it: a name or an address ("play.example.org",
# "127.0.0.1"), ".example.org" for the domain and its subdomains, "[::1]", or "*".
_HOST = re.compile(r"\*|\.?[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*|\[[0-9A-Fa-f:.]+\]")
# An origin as CSRF_TRUSTED_ORIGINS takes it: a scheme and a host (Django 4: the scheme is
# required), "*." for any subdomain, an optional port, nothing after it.
_ORIGIN = re.compile(r"https?://(\*\.)?[A-Za-z0-9_.-]+(:[0-9]+)?|https?://\[[0-9A-Fa-f:.]+\](:[0-9]+)?")


def _host(item: str) -> str:
    if _HOST.fullmatch(item) is None:
        raise ValueError("is not a host name")
    return item


def _origin(item: str) -> str:
    if _ORIGIN.fullmatch(item) is None:
        raise ValueError("is not an origin")
    return item


def env_hosts(name: str, accepts: str) -> list[str]:
    """Comma-separated host names for ``ALLOWED_HOSTS`` (no scheme, port or path: Django
    would never match them)."""
    return env_list(name, _host, accepts)


def env_origins(name: str, accepts: str) -> list[str]:
    """Comma-separated origins for ``CSRF_TRUSTED_ORIGINS`` (``https://play.example.org``)."""
    return env_list(name, _origin, accepts)


def env_email_address(name: str, default: str, accepts: str) -> str:
    """A sender's address, bare or with a name (``talu <noreply@example.org>``), one line."""
    from email.utils import parseaddr

    def parse(raw: str) -> str:
        value = _line(raw.strip())
        _, address = parseaddr(value)
        local, at, domain = address.rpartition("@")
        if not (local and at and domain) or " " in address:
            raise ValueError("is not an email address")
        return value

    return env_value(name, default, parse, accepts)
