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
    """The keyring for ``TALU_KEYRING``: the one already set (a parent pytest's, a developer's),
    else a new directory, registered for removal. The caller sets the variable."""
    given = os.environ.get("TALU_KEYRING")
    if given:
        return given
    path = tempfile.mkdtemp(prefix="talu-test-keyring-")
    atexit.register(_remove, path)
    return path


def _remove(path: str) -> None:
    keys.stop_agent(path)
    shutil.rmtree(path, ignore_errors=True)
