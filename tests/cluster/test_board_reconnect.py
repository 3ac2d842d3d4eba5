"""The browser board (static/play/board.js) rides out the death of its server process.

A player's board is open on process 0; the opponent plays from process 1. Process 0 is killed
(SIGKILL) and a step is played while it is down. When it is back, the board reconnects by
itself (backoff), naming its last version in the URL, and shows the step it missed, without a
page reload. Real headless Chromium (Debian's), driven by Playwright.
"""

from __future__ import annotations

import json

import pytest
from websockets.sync.client import connect

pytestmark = pytest.mark.services


def play(ws, version: int, seq: str, frm: str, to: str) -> None:
    ws.send(json.dumps({"type": "step", "version": version, "seq": seq,
                        "step": {"kind": "move", "from": frm, "to": to}}))
    while True:
        msg = json.loads(ws.recv(timeout=60))
        if msg["type"] == "update" and "ack" in msg:  # the step's update, its ack inside
            assert msg["ack"] == {"seq": seq, "version": version + 1}, msg
            return
        if msg["type"] in ("ack", "rejected"):
            assert msg == {"type": "ack", "seq": seq, "version": version + 1}, msg
            return


def test_board_reconnects_and_catches_up(cluster, browser):
    from playwright.sync_api import expect

    seed = cluster.seed(players=("ivo", "opal"))
    base = cluster.servers[0].base_url
    ctx = browser.new_context()
    ctx.add_cookies([{"name": "sessionid", "value": seed.cookies["opal"].split("=", 1)[1],
                      "url": base}])
    page = ctx.new_page()
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(f"{base}/games/{seed.game}/")
    assert page.get_attribute("#game", "data-side") == "O"
    expect(page.locator("#conn")).to_have_text("live", timeout=30000)
    page.evaluate("window.__sameDocument = true")

    def version() -> str:
        return page.get_attribute("#game", "data-version")

    with connect(cluster.ws_url(1, seed.game), additional_headers=cluster.headers(
            1, seed.cookies["ivo"]), open_timeout=60) as ivo:
        play(ivo, 0, "ivo-1", "A2", "A3")
        # A selector, not wait_for_function: the site's CSP refuses a string evaluated as code.
        expect(page.locator("#game")).to_have_attribute("data-version", "1", timeout=30000)

        cluster.servers[0].kill()
        expect(page.locator("#conn")).not_to_have_text("live", timeout=30000)
        play(ivo, 1, "ivo-2", "A3", "A4")  # missed by the board while its process is down
        cluster.servers[0].start()

        expect(page.locator("#game")).to_have_attribute("data-version", "2", timeout=60000)
        expect(page.locator("#conn")).to_have_text("live", timeout=30000)
    assert page.evaluate("window.__sameDocument") is True, "the page was not reloaded"
    assert sockets[-1].endswith("?ack=inline&last_version=1"), sockets
    assert version() == "2"
    ctx.close()
