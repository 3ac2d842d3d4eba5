"""Strict readers of environment variables, shared by the settings modules and ``play.conf``.

A value that is set but cannot be read stops the process with ``ImproperlyConfigured`` naming
the variable, rather than being guessed at (``DEBUG=maybe`` is not False).
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    """A strict boolean: anything but the usual spellings is an error, not False."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use true or false)")


def env_int(name: str, default: int, minimum: int = 1) -> int:
    """A whole number of at least ``minimum``; unset or empty gives ``default``."""
    value = env_number(name, default, minimum)
    if value != int(value):
        raise ImproperlyConfigured(f"{name}={os.environ.get(name)!r} is not a whole number")
    return int(value)


def env_number(name: str, default: float, minimum: float) -> float:
    """A number of at least ``minimum``; unset or empty gives ``default``."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a number") from None
    if value < minimum:
        raise ImproperlyConfigured(f"{name}={raw!r} must be at least {minimum}")
    return value
