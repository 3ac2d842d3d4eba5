"""The cluster tests: real PostgreSQL, a private Redis and several daphne processes.

One stack (``tests.cluster.harness.Cluster``) serves the whole test session: its database is a
copy of the migrated template, its Redis and processes start once. Each module states what it
needs (``CLUSTER_SERVERS``, ``CLUSTER_WORKERS``, ``CLUSTER_ENV``) and gets the stack so
configured (``Cluster.configure``: the same processes when they already are, new ones when the
configuration changes); tests are kept apart by their data, each seeding its own game and
accounts. The cluster tests run on one xdist worker (``xdist_group``), so one stack serves them
all. Without PostgreSQL or redis-server the tests FAIL under ``CI=true`` and are skipped
elsewhere.
"""

from __future__ import annotations

import pytest

from tests.cluster.harness import Cluster, require_stack

DEFAULT = (2, 1, {})


def configuration(module) -> tuple[int, int, dict[str, str]]:
    """What a test module asks of the stack: servers, workers, extra environment."""
    return (getattr(module, "CLUSTER_SERVERS", DEFAULT[0]),
            getattr(module, "CLUSTER_WORKERS", DEFAULT[1]),
            getattr(module, "CLUSTER_ENV", DEFAULT[2]))


def pytest_collection_modifyitems(config, items):
    """Every test here is a cluster test (the fast lane leaves them out: ``tests/lanes.py``);
    they share one xdist worker, hence one stack, and run with the modules on the default
    configuration first, so the stack's processes are restarted as seldom as possible."""
    ours = [i for i in items if i.nodeid.startswith("tests/cluster/")]
    for item in ours:
        item.add_marker(pytest.mark.cluster)
        item.add_marker(pytest.mark.xdist_group("cluster"))
    if ours:
        first = items.index(ours[0])
        mine = set(ours)
        rest = [i for i in items if i not in mine]
        ours.sort(key=lambda i: configuration(i.module) != DEFAULT)  # stable: file order kept
        items[:] = rest[:first] + ours + rest[first:]


@pytest.fixture(scope="session")
def cluster_stack():
    require_stack()
    with Cluster(servers=DEFAULT[0], workers=DEFAULT[1]) as cl:
        yield cl


@pytest.fixture(scope="module")
def cluster(request, cluster_stack):
    yield cluster_stack.configure(*configuration(request.module))
