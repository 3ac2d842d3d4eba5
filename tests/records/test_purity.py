"""The records core and its CLI never import Django (issue 4: pure Python)."""

from __future__ import annotations

import subprocess
import sys


def test_records_import_without_django():
    code = (
        "import importlib, pkgutil, sys\n"
        "import registry.records as pkg\n"
        "for info in pkgutil.walk_packages(pkg.__path__, 'registry.records.'):\n"
        "    importlib.import_module(info.name)\n"
        "importlib.import_module('talu_cli.records')\n"
        "print(','.join(m for m in sys.modules if m.split('.')[0] == 'django'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""
