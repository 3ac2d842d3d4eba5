"""The signed tokens in the links the site mails: an address's verification (expires) and a
notice's unsubscribe (does not: an old mail's link still works). Signed with SECRET_KEY,
each kind under its own salt, so one kind's token is never taken for the other's."""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing

VERIFY_SALT = "talu.accounts.verify-email"
UNSUBSCRIBE_SALT = "talu.accounts.unsubscribe"
#: How long a verification link works.
VERIFY_MAX_AGE = 3 * 24 * 3600


class Expired(Exception):
    """A verification link older than ``VERIFY_MAX_AGE``."""


class Invalid(Exception):
    """A link that was not made by this site (altered, cut short, or another site's)."""


@dataclass(frozen=True)
class Verification:
    user_id: int
    email: str


def verification(user_id: int, email: str) -> str:
    return signing.TimestampSigner(salt=VERIFY_SALT).sign_object({"u": user_id, "e": email})


def read_verification(token: str) -> Verification:
    try:
        data = signing.TimestampSigner(salt=VERIFY_SALT).unsign_object(
            token, max_age=VERIFY_MAX_AGE)
    except signing.SignatureExpired:
        raise Expired from None
    except (signing.BadSignature, ValueError, UnicodeError):
        raise Invalid from None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int) or \
            not isinstance(data.get("e"), str):
        raise Invalid
    return Verification(data["u"], data["e"])


def unsubscribe(user_id: int, kind: str) -> str:
    return signing.Signer(salt=UNSUBSCRIBE_SALT).sign_object({"u": user_id, "k": kind})


def read_unsubscribe(token: str) -> tuple[int, str]:
    try:
        data = signing.Signer(salt=UNSUBSCRIBE_SALT).unsign_object(token)
    except (signing.BadSignature, ValueError, UnicodeError):
        raise Invalid from None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int) or \
            not isinstance(data.get("k"), str):
        raise Invalid
    return data["u"], data["k"]
