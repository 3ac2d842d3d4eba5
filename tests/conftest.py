"""Fixtures shared by every test package (none of them imports Django: the cores' tests run
without it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.stack import IN_CI

CHROMIUM = os.environ.get("TALU_CHROMIUM", "/usr/bin/chromium")


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium driven by Playwright (a tool's own browser download does not work
    here); missing, it fails the test under CI and skips it elsewhere."""
    if not Path(CHROMIUM).exists():
        message = f"{CHROMIUM} is missing (apt-get install -y chromium)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                              args=["--no-sandbox", "--disable-gpu",
                                    "--disable-background-networking"])
        yield b
        b.close()
