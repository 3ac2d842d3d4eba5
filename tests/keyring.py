"""The throw-away keyring the site signs records with in a test process, removed when it ends.

The site, API and registry tests each need ``TALU_KEYRING`` set before Django is set up; they
share one directory per process, and it goes at exit
with the gpg-agent that signing started there, so a test run leaves nothing in /tmp.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

from registry.records import keys


def session_keyring() -> str:
    """The keyring for ``TALU_KEYRING``: the one already set by this process or a developer,
    else a new directory, registered for removal. The caller sets the variable.

    One made by another test process (xdist's controller, whose environment its workers
    inherit) is not reused: two workers making the site's signing key in one keyring at once
    would race (``registry.records.keys`` locks between threads, not processes)."""
    given = os.environ.get("TALU_KEYRING")
    made = os.environ.get("TALU_TEST_KEYRING_MADE", "")
    if given and (made != given or os.environ.get("TALU_TEST_KEYRING_PID") == str(os.getpid())):
        return given
    path = tempfile.mkdtemp(prefix="talu-test-keyring-")
    atexit.register(_remove, path)
    os.environ["TALU_TEST_KEYRING_MADE"] = path
    os.environ["TALU_TEST_KEYRING_PID"] = str(os.getpid())
    return path


def use_session_keyring() -> str:
    """Set ``TALU_KEYRING`` to :func:`session_keyring` (before Django is set up, by the site,
    API and registry conftests), and the setting itself when pytest-django has read the
    settings already: in an xdist worker it does so before any conftest, with the keyring its
    controller made, which the worker must not share."""
    path = os.environ["TALU_KEYRING"] = session_keyring()
    conf = sys.modules.get("django.conf")
    if conf is not None and conf.settings.configured:
        conf.settings.TALU_KEYRING = Path(path)
    return path


def _remove(path: str) -> None:
    keys.stop_agent(path)
    shutil.rmtree(path, ignore_errors=True)
