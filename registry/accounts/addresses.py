"""The one check of an email address typed by a person: the sign-up form and the settings
page say the same words."""

from __future__ import annotations

from django.contrib.auth.base_user import BaseUserManager
from django.core.exceptions import ValidationError
from django.core.validators import EmailValidator

from play.games import text

#: RFC 5321's longest path, as Django's EmailField.
MAX_LENGTH = 254
_valid = EmailValidator()


def clean_address(value: object) -> str:
    """``value`` as an address to send to (its domain in lower case), or a ``ValidationError``
    a person can act on: control or bidi characters, too long, not an address."""
    reason = text.problem(value, max_length=MAX_LENGTH)
    if reason is not None:
        raise ValidationError(f"An email address {reason}.", code="invalid")
    address = str(value).strip()
    try:
        _valid(address)
    except ValidationError:
        raise ValidationError("That is not an email address: it looks like name@example.org.",
                              code="invalid") from None
    return BaseUserManager.normalize_email(address)
