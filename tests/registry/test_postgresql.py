"""The ledger's PostgreSQL paths (COPY, compare-in-database, advisory lock, DISTINCT ON):
the registry tests again in a child pytest on PostgreSQL (``tests/stack.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import stack

STACK = "registry-pg"
HERE = Path(__file__).parent
MODULES = ("test_annul_cascade.py", "test_archiving.py", "test_correct.py", "test_recompute.py",
           "test_submission.py", "test_submission_rejected.py", "test_promotion_threshold.py",
           "test_live_rating_matches_recompute.py", "test_commands.py", "test_profile_page.py",
           "test_leaderboard.py", "test_large_ratings.py", "test_phase_ratings.py")

pytestmark = pytest.mark.services


def test_registry_suite_on_postgresql(tmp_path):
    me = stack.relative(__file__)
    modules = [stack.relative(HERE / m) for m in MODULES] + [me]
    stack.run_child(STACK, modules, caller=f"{me}::test_registry_suite_on_postgresql",
                    keyring=tmp_path / "keyring")


if stack.is_child(STACK):  # collected in the child run only

    @pytest.mark.django_db
    def test_child_really_uses_postgresql():
        from django.db import connection

        assert connection.vendor == "postgresql"
