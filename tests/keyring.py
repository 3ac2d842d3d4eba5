"""The throw-away keyring the site signs records with in a test process, removed when it ends.

The site, API and registry tests each need ``TALU_KEYRING`` set before Django is set up; they
share one directory per process (a child pytest inherits its parent's), and it goes at exit
with the gpg-agent that signing started there, so a test run leaves nothing in /tmp.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

from registry.records import keys


def session_keyring() -> str:
    """``TALU_KEYRING``, made (and registered for removal) only if nobody set it."""
    if not os.environ.get("TALU_KEYRING"):
        path = tempfile.mkdtemp(prefix="talu-test-keyring-")
        os.environ["TALU_KEYRING"] = path
        atexit.register(_remove, path)
    return os.environ["TALU_KEYRING"]


def _remove(path: str) -> None:
    keys.stop_agent(path)
    shutil.rmtree(path, ignore_errors=True)
