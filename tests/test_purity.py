"""The cores stay pure: importing any module of the rules, scoring and records cores or of the
`talu` command must not import Django (the design's first rule)."""

import subprocess
import sys

CORES = ("play.games", "registry.scoring", "registry.records", "registry.events.pairing",
         "talu_cli", "play.lobby.pool_pairing")


def test_cores_import_without_django():
    code = (
        "import importlib, pkgutil, sys\n"
        f"for name in {CORES!r}:\n"
        "    pkg = importlib.import_module(name)\n"
        "    for info in pkgutil.walk_packages(getattr(pkg, '__path__', []), name + '.'):\n"
        "        if not info.name.endswith('__main__'): importlib.import_module(info.name)\n"
        "bad = [m for m in sys.modules if m == 'django' or m.startswith('django.')]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""
