"""Helpers for the websocket tests (channels.testing.WebsocketCommunicator)."""

from __future__ import annotations

from channels.testing import WebsocketCommunicator

TIMEOUT = 5


def application():
    from talu_site.asgi import application as app

    return app


async def connect(game, cookie: bytes = b"", origin: bytes = b"http://testserver"):
    """Open a socket on ``game`` and read the welcome and the first full state."""
    headers = [(b"origin", origin), (b"host", b"testserver")]
    if cookie:
        headers.append((b"cookie", cookie))
    comm = WebsocketCommunicator(application(), f"/ws/game/{game.uuid}/", headers=headers)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    welcome = await comm.receive_json_from(timeout=TIMEOUT)
    assert welcome["type"] == "welcome", welcome
    first = await receive(comm, "update")
    return comm, welcome, first


async def receive(comm, *types: str, timeout: float = TIMEOUT, skipped: list | None = None) -> dict:
    """The next message of one of ``types``; others (spectator counts, updates) are skipped,
    into ``skipped`` when given."""
    while True:
        msg = await comm.receive_json_from(timeout=timeout)
        if msg["type"] in types:
            return msg
        assert msg["type"] in ("spectators", "update", "welcome"), msg
        if skipped is not None:
            skipped.append(msg)


def step(frm: str, to: str, version: int, seq: str, kind: str = "move") -> dict:
    return {"type": "step", "version": version, "seq": seq,
            "step": {"kind": kind, "from": frm, "to": to}}
