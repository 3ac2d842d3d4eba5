"""A script of benchmarks/ (bench_load.py unless named) loaded as a module, for its tests."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def module(name: str = "bench_load") -> Iterator[ModuleType]:
    """The module, for a fixture to ``yield from``; registered in ``sys.modules`` meanwhile,
    as importlib's recipe says (msgspec and dataclasses resolve annotations through it)."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[name] = loaded
    try:
        spec.loader.exec_module(loaded)
        yield loaded
    finally:
        sys.modules.pop(name, None)
