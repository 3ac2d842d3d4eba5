"""A frame sent to a socket whose page has just closed is dropped, not raised.

A lobby update (a pool wave, a challenge) or a game's broadcast can reach a consumer in the
moment between the client closing and daphne's disconnect event. daphne's protocol then raises
autobahn's ``Disconnected``; channels logs that as "Exception inside application" with a
traceback in the server's log (CI saw one from the lobby in the 200-player pool test). There
is nobody left to tell, and the disconnect that follows cleans up, so both consumers drop the
frame (``play.live.wire.send_text``).
"""

from __future__ import annotations

import asyncio
import logging

import pytest
from autobahn.exception import Disconnected

from play.live.lobby import LobbyConsumer


async def _closed(message):
    raise Disconnected("Attempt to send on a closed protocol")


def test_a_lobby_update_to_a_closed_socket_is_dropped(caplog):
    consumer = LobbyConsumer()
    consumer.base_send = _closed
    with caplog.at_level(logging.DEBUG, logger="play.live.wire"):
        asyncio.run(consumer.lobby_changed({"type": "lobby.changed"}))
        asyncio.run(consumer.lobby_paired({"type": "lobby.paired",
                                           "game": "5b1f0d0e-0000-4000-8000-000000000000"}))
    assert [r.levelno for r in caplog.records] == [logging.DEBUG, logging.DEBUG]
    assert "closed protocol" in caplog.records[0].getMessage()


def test_a_lobby_frame_to_an_open_socket_is_sent():
    sent = []

    async def record(message):
        sent.append(message)

    consumer = LobbyConsumer()
    consumer.base_send = record
    asyncio.run(consumer.lobby_changed({"type": "lobby.changed"}))
    assert sent == [{"type": "websocket.send", "text": '{"type":"changed"}'}]


def test_the_game_socket_uses_the_same_guard():
    """One guard for both consumers: the game socket's frames go through ``wire.send_text``."""
    from play.live.consumer import GameConsumer

    consumer = GameConsumer()
    consumer.base_send = _closed
    asyncio.run(consumer.send_json({"type": "spectators", "count": 1}))


def test_anything_but_a_text_frame_keeps_channels_behaviour():
    consumer = LobbyConsumer()
    consumer.base_send = _closed
    with pytest.raises(Disconnected):
        asyncio.run(consumer.send(bytes_data=b"\x00"))
