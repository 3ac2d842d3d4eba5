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
    into ``skipped`` when given.

    The update that carries a sender's own step carries its ack (an ``ack`` member,
    docs/protocol.md): asked for an ``ack``, that update answers as the ack it carries and is
    then still there, without it, for the next ask (as a separate ack and update would be).
    ``test_ws_ack_in_update.py`` checks the frames themselves."""
    pending = comm.__dict__.setdefault("talu_pending", [])
    while True:
        msg = pending.pop(0) if pending else await comm.receive_json_from(timeout=timeout)
        if "ack" in types and msg["type"] == "update" and "ack" in msg:
            pending.insert(0, {k: v for k, v in msg.items() if k != "ack"})
            return {"type": "ack", **msg["ack"]}
        if msg["type"] in types:
            return msg
        assert msg["type"] in ("spectators", "update", "welcome"), msg
        if skipped is not None:
            skipped.append(msg)


def step(frm: str, to: str, version: int, seq: str, kind: str = "move") -> dict:
    return {"type": "step", "version": version, "seq": seq,
            "step": {"kind": kind, "from": frm, "to": to}}
