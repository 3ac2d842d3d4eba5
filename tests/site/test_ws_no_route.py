"""A websocket on a path the site does not serve is told so and closed (4404), like an unknown
game: never an HTTP 500 with a traceback in the server's log (Channels' router raises)."""

import pytest
from channels.testing import WebsocketCommunicator

from tests.site.wsutil import TIMEOUT, application, connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.mark.parametrize("path", ["/ws/game//", "/ws/game/not-a-uuid/", "/ws/", "/ws/chat/x/",
                                  "/nothing"])
async def test_unknown_paths_are_refused_cleanly(path, caplog):
    comm = WebsocketCommunicator(application(), path, headers=[(b"origin", b"http://testserver"),
                                                               (b"host", b"testserver")])
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    assert await comm.receive_json_from(timeout=TIMEOUT) == {
        "type": "error", "code": "not_found", "message": "there is no websocket at this path"}
    assert await comm.receive_output(timeout=TIMEOUT) == {"type": "websocket.close", "code": 4404}
    assert not [r for r in caplog.records if r.exc_info]


async def test_a_game_path_still_reaches_its_game(game):
    comm, welcome, first = await connect(game)
    assert welcome["type"] == "welcome" and first["type"] == "update"
    await comm.disconnect()
