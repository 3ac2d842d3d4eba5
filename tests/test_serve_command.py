"""``./dev serve`` starts daphne with a websocket handshake timeout of 30 s, as the Dockerfile
does (issue 27, finding 7: with daphne's 5 s default a burst of 900 sockets to one process lost
329 handshakes with no answer and nothing logged)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _timeout(text: str) -> int | None:
    m = re.search(r"--websocket_connect_timeout[\s\"',]+(\d+)", text)
    return int(m.group(1)) if m else None


def test_dev_serve_and_the_container_wait_30_s_for_a_handshake():
    serve = (ROOT / "dev").read_text().split("serve)", 1)[1].split(";;", 1)[0]
    assert "talu_site.serve" in serve
    assert _timeout(serve) == 30
    assert _timeout((ROOT / "Dockerfile").read_text()) == 30


def test_the_launcher_waits_30_s_whatever_starts_it(monkeypatch):
    """``python -m talu_site.serve`` without the option (the browser tests' live site, anyone
    starting it by hand) waits 30 s too; an explicit value is kept."""
    from daphne.cli import CommandLineInterface

    from talu_site import serve

    seen = {}

    def run(self, args):
        seen["timeout"] = self.parser.parse_args(args).websocket_connect_timeout

    monkeypatch.setattr(CommandLineInterface, "run", run)
    serve.main(["talu_site.asgi:application"])
    assert seen["timeout"] == 30
    serve.main(["--websocket_connect_timeout", "45", "talu_site.asgi:application"])
    assert seen["timeout"] == 45


def test_the_documented_ways_to_start_the_site_wait_30_s():
    """docs/deployment.md names the command line the containers run, with the option."""
    doc = (ROOT / "docs" / "deployment.md").read_text()
    for line in doc.splitlines():
        if "daphne talu_site.asgi:application" in line or "daphne -b" in line:
            assert _timeout(line) == 30, line
