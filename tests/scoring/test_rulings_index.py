"""Every scoring ruling R20-R30 has at least one test named after it (``test_rNN_...``)."""

from __future__ import annotations

import ast
from pathlib import Path

HERE = Path(__file__).parent


def test_every_scoring_ruling_has_a_named_test():
    names = set()
    for path in HERE.glob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names |= {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    missing = [r for r in range(20, 31) if not any(n.startswith(f"test_r{r}_") for n in names)]
    assert missing == []
