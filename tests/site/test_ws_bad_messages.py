"""Malformed JSON, unknown types, oversized and binary frames get an error message; the
connection stays usable and the server never fails."""

import json

import pytest
from channels.db import database_sync_to_async
from django.conf import settings

from tests.site.wsutil import connect, receive

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_bad_messages_answered_with_errors(game, players, cookies):
    comm, _, _ = await connect(game, await database_sync_to_async(cookies)(players[0]))
    big = json.dumps({"type": "ping", "pad": "x" * (settings.TALU_WS_MAX_MESSAGE + 10)})
    cases = [
        ("{not json", "bad_json"),
        ("[1, 2, 3]", "bad_message"),
        ('"step"', "bad_message"),
        (json.dumps({"type": "launch"}), "unknown_type"),
        (json.dumps({"no": "type"}), "unknown_type"),
        (big, "too_large"),
        (json.dumps({"type": "sync", "last_version": "three"}), "bad_message"),
        # What Python's json would have let through, the parser refuses as JSON (not a number,
        # a lone surrogate); an integer beyond 64 bits is no version either.
        ('{"type": "sync", "last_version": NaN}', "bad_json"),
        ('{"type": "ping", "pad": "\\ud800"}', "bad_json"),
        ('{"type": "sync", "last_version": 123456789012345678901234567890}', "bad_message"),
    ]
    for text, code in cases:
        await comm.send_to(text_data=text)
        msg = await receive(comm, "error")
        assert msg["code"] == code, (text[:40], msg)
        assert "Traceback" not in msg["message"]
    await comm.send_to(bytes_data=b"\x00\x01")
    assert (await receive(comm, "error"))["code"] == "bad_message"
    # Steps with broken fields are refused, never applied, never a crash.
    for bad in ({"type": "step", "version": "0", "seq": "q1", "step": {"kind": "move"}},
                {"type": "step", "version": 0, "seq": "q2", "step": "A2-A3"},
                {"type": "step", "version": 0, "seq": "q3", "step": {"kind": "move", "from": 5}},
                {"type": "step", "version": 0, "seq": ["x"], "step": None},
                {"type": "step", "version": 0, "seq": "q5",
                 "step": {"kind": "move", "from": "Z9", "to": "A3"}}):
        await comm.send_json_to(bad)
        reply = await receive(comm, "rejected", "ack")
        assert reply["type"] == "rejected" and reply["code"] == "bad_step", (bad, reply)
    # still connected and working
    await comm.send_json_to({"type": "ping"})
    assert (await receive(comm, "pong"))["version"] == 0
    assert await game.events.acount() == 0
    await comm.disconnect()


async def test_origin_not_allowed_is_refused(game):
    from channels.testing import WebsocketCommunicator

    from tests.site.wsutil import application

    comm = WebsocketCommunicator(application(), f"/ws/game/{game.uuid}/",
                                 headers=[(b"origin", b"http://evil.example")])
    connected, _ = await comm.connect(timeout=5)
    assert not connected
