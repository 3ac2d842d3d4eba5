"""The cluster tests: real PostgreSQL, a private Redis and several daphne processes.

Each test module gets its own stack (``tests.cluster.harness.Cluster``), configured by the
module's ``CLUSTER_SERVERS``, ``CLUSTER_WORKERS`` and
``CLUSTER_ENV``. Without PostgreSQL or redis-server the tests
FAIL under ``CI=true`` and are skipped elsewhere.
"""

from __future__ import annotations

import pytest

from tests.cluster.harness import Cluster, require_stack


@pytest.fixture(scope="module")
def cluster(request):
    require_stack()
    servers = getattr(request.module, "CLUSTER_SERVERS", 2)
    workers = getattr(request.module, "CLUSTER_WORKERS", 1)
    env = getattr(request.module, "CLUSTER_ENV", {})
    with Cluster(servers, env=env, workers=workers) as cl:
        yield cl
