"""Helpers for the websocket tests (channels.testing.WebsocketCommunicator)."""

from __future__ import annotations

from channels.testing import WebsocketCommunicator

TIMEOUT = 5


def application():
    from talu_site.asgi import application as app

    return app


async def connect(game, cookie: bytes = b"", origin: bytes = b"http://testserver",
                  query: str = "ack=inline"):
    """Open a socket on ``game`` and read the welcome and the first full state. Like the
    browser board, it asks for acks inside updates (``query``; "" for the other form)."""
    headers = [(b"origin", origin), (b"host", b"testserver")]
    if cookie:
        headers.append((b"cookie", cookie))
    path = f"/ws/game/{game.uuid}/" + (f"?{query}" if query else "")
    comm = WebsocketCommunicator(application(), path, headers=headers)
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
    ``test_ws_ack_in_update.py`` checks the frames themselves. That update is kept on ``comm``
    (``talu_pending``), where ``comm.receive_nothing`` does not look: after ``receive``, ask
    ``nothing_pending(comm)`` too."""
    pending = comm.__dict__.setdefault("talu_pending", [])
    while True:
        msg = pending.pop(0) if pending else await comm.receive_json_from(timeout=timeout)
        if "ack" in types and msg["type"] == "update" and "ack" in msg:
            pending.insert(0, {k: v for k, v in msg.items() if k != "ack"})
            return {"type": "ack", **msg["ack"]}
        if msg["type"] in types:
            return msg
        assert msg["type"] in ("spectators", "update", "welcome", "game", "absence",
                               "probe", "notification"), msg
        if skipped is not None:
            skipped.append(msg)


def nothing_pending(comm) -> bool:
    """True when ``receive`` holds back no message of ``comm``."""
    return not comm.__dict__.get("talu_pending")


def step(frm: str, to: str, version: int, seq: str, kind: str = "move") -> dict:
    return {"type": "step", "version": version, "seq": seq,
            "step": {"kind": kind, "from": frm, "to": to}}


async def lobby_socket(cookie: bytes = b""):
    """Open a lobby socket (``/ws/lobby/``; logged in with ``cookie``) and read its welcome."""
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if cookie:
        headers.append((b"cookie", cookie))
    comm = WebsocketCommunicator(application(), "/ws/lobby/", headers=headers)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    assert (await comm.receive_json_from(timeout=TIMEOUT))["type"] == "welcome"
    return comm
