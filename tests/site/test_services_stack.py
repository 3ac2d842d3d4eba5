"""The websocket tests again on PostgreSQL and Redis, in a child pytest with both set
(``tests/stack.py``: fails under CI when they are unreachable, skipped elsewhere)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import stack

STACK = "services"
HERE = Path(__file__).parent

pytestmark = pytest.mark.services


def test_websocket_suite_on_postgresql_and_redis(tmp_path):
    me = stack.relative(__file__)
    modules = sorted(stack.relative(p) for p in HERE.glob("test_ws_*.py"))
    modules += [me, stack.relative(HERE / "test_arbiter_and_resign.py"),
                stack.relative(HERE / "test_sync_consistency.py"),
                stack.relative(HERE / "test_steplog.py"),
                stack.relative(HERE / "test_steplog_batch.py"),
                stack.relative(HERE / "test_presence_heartbeat.py"),
                stack.relative(HERE / "test_presence_counts.py"),
                stack.relative(HERE / "test_hardening_pages.py"),
                stack.relative(HERE / "test_rate_limits.py"),
                # issue 22: row locks of an unplayed decision and of the co-champions' follow
                stack.relative(HERE / "test_hettlandic_corrections.py")]
    stack.run_child(STACK, modules, caller=f"{me}::test_websocket_suite_on_postgresql_and_redis",
                    keyring=tmp_path / "keyring", redis=True, timeout=600)


if stack.is_child(STACK):  # collected in the child run only

    @pytest.mark.django_db
    def test_child_really_uses_postgresql_and_redis():
        from channels.layers import get_channel_layer
        from django.db import connection

        assert connection.vendor == "postgresql"
        assert type(get_channel_layer()).__name__ == "PipelinedPubSubChannelLayer"
