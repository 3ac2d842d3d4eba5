"""What other apps add to the demo data (``manage.py demo_data``), without play importing them
(docs/architecture.md: the registry depends on play, never the other way round): the registry
registers a hook at start-up that gives the demo players their standings (issue 39, finding 8:
a fresh site had no S3 player, so a newcomer never saw the PSF hints)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Hook = Callable[[dict[str, Any]], None]
_hooks: list[tuple[str, Hook]] = []


def register(name: str, hook: Hook) -> None:
    """Run ``hook(users)`` (demo name -> account) after the demo players exist, before the
    sample games; registering again under a name replaces."""
    _hooks[:] = [(n, h) for n, h in _hooks if n != name] + [(name, hook)]


def run(users: dict[str, Any]) -> None:
    for _, hook in list(_hooks):
        hook(users)
