"""The scoring core and ``talu score`` never import Django (issue 3: pure Python)."""

from __future__ import annotations

import subprocess
import sys


def test_scoring_imports_without_django():
    code = (
        "import importlib, pkgutil, sys\n"
        "import registry.scoring as pkg\n"
        "for info in pkgutil.walk_packages(pkg.__path__, 'registry.scoring.'):\n"
        "    importlib.import_module(info.name)\n"
        "importlib.import_module('talu_cli.score')\n"
        "print(','.join(m for m in sys.modules if m.split('.')[0] == 'django'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""
