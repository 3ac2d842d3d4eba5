"""Body API tokens: shown once, stored as a hash, revocable, last use noted sparingly."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest

from registry.models import BodyToken
from registry.tokens import find_token, issue_token, revoke_token

pytestmark = pytest.mark.django_db


def test_issue_find_revoke(body):
    plain = issue_token(body, "results desk")
    stored = BodyToken.objects.get()
    assert plain not in stored.key_hash and stored.key_hash == hashlib.sha256(
        plain.encode()).hexdigest()
    token = find_token(plain)
    assert token.body == body and token.last_used is not None
    assert find_token(plain + "x") is None and find_token("") is None
    revoke_token(token)
    assert find_token(plain) is None


def test_last_used_written_at_most_once_a_minute(body, django_assert_num_queries):
    plain = issue_token(body)
    find_token(plain)
    with django_assert_num_queries(1):  # read only
        find_token(plain)
    BodyToken.objects.update(last_used=BodyToken.objects.get().last_used - timedelta(minutes=2))
    with django_assert_num_queries(2):  # read and note the use
        find_token(plain)
