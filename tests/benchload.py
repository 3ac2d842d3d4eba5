"""benchmarks/bench_load.py loaded as a module, for the tests of its accounting and set-up."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_load.py"


def module() -> Iterator[ModuleType]:
    """The module, for a fixture to ``yield from``; registered in ``sys.modules`` meanwhile,
    as importlib's recipe says (msgspec resolves the annotations of the client's frame types
    through it)."""
    spec = importlib.util.spec_from_file_location("bench_load", PATH)
    loaded = importlib.util.module_from_spec(spec)
    sys.modules["bench_load"] = loaded
    try:
        spec.loader.exec_module(loaded)
        yield loaded
    finally:
        sys.modules.pop("bench_load", None)
