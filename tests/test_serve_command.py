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
