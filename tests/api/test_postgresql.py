"""The API tests again on PostgreSQL (production's database) and Redis (the cache behind the
throttles and the rate limits, as in production), in a child pytest (``tests/stack.py``): the
schemathesis run over the whole API among them (issue 27)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import stack

STACK = "api-postgresql"
HERE = Path(__file__).parent

pytestmark = pytest.mark.services


def test_api_suite_on_postgresql(tmp_path):
    me = stack.relative(__file__)
    modules = sorted(stack.relative(p) for p in HERE.glob("test_*.py")
                     if p.name != "test_schema.py")  # the schema is database-free
    stack.run_child(STACK, modules, caller=f"{me}::test_api_suite_on_postgresql",
                    keyring=tmp_path / "keyring", redis=True, timeout=1800)


if stack.is_child(STACK):  # collected in the child run only

    @pytest.mark.django_db
    def test_child_really_uses_postgresql():
        from django.core.cache import caches
        from django.db import connection

        assert connection.vendor == "postgresql"
        assert type(caches["default"]).__name__ == "SharedRedisCache"
