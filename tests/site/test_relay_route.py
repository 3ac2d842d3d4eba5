"""The benchmark relay (``benchmarks/relay.py``) is no part of the site: the site's routes have
no relay whatever the environment, and the benchmarks' own ASGI application relays every text
frame to its group and to nobody else, and serves the site's game sockets beside it."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

import play.routing
from tests.site.wsutil import TIMEOUT, application

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("value", [None, "true", "1"])
def test_the_site_routes_no_relay_whatever_the_environment(monkeypatch, value):
    import importlib

    if value is None:
        monkeypatch.delenv("TALU_BENCH_RELAY", raising=False)
    else:
        monkeypatch.setenv("TALU_BENCH_RELAY", value)
    routes = importlib.reload(play.routing).websocket_urlpatterns
    assert not any("relay" in str(p.pattern) for p in routes)


@pytest.mark.asyncio
async def test_site_refuses_relay_socket(monkeypatch):
    monkeypatch.setenv("TALU_BENCH_RELAY", "true")
    comm = WebsocketCommunicator(application(), "/ws/bench/relay/g1/",
                                 headers=[(b"origin", b"http://testserver"),
                                          (b"host", b"testserver")])
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected  # the site's answer to any path it does not serve (test_ws_no_route.py)
    assert (await comm.receive_json_from(timeout=TIMEOUT))["code"] == "not_found"
    assert (await comm.receive_output(timeout=TIMEOUT)) == {"type": "websocket.close",
                                                           "code": 4404}


@pytest.mark.asyncio
async def test_the_benchmark_application_relays_to_its_group_only(game):
    from benchmarks.relay import application as bench_app

    sender = WebsocketCommunicator(bench_app, "/ws/bench/relay/g1/")
    listener = WebsocketCommunicator(bench_app, "/ws/bench/relay/g1/")
    other = WebsocketCommunicator(bench_app, "/ws/bench/relay/g2/")
    for comm in (sender, listener, other):
        connected, _ = await comm.connect(timeout=TIMEOUT)
        assert connected
    await sender.send_to(text_data='{"n": 1, "anything": "goes"}')
    for comm in (sender, listener):  # the sender hears its own message: that is its echo
        assert await comm.receive_from(timeout=TIMEOUT) == '{"n": 1, "anything": "goes"}'
    assert await other.receive_nothing(timeout=0.2)
    for comm in (sender, listener, other):
        await comm.disconnect()
    # The site's own sockets are served by the same application.
    site = WebsocketCommunicator(bench_app, f"/ws/game/{game.uuid}/",
                                 headers=[(b"origin", b"http://testserver"),
                                          (b"host", b"testserver")])
    connected, _ = await site.connect(timeout=TIMEOUT)
    assert connected
    assert (await site.receive_json_from(timeout=TIMEOUT))["type"] == "welcome"
    await site.disconnect()
