"""The benchmark relay (play.relay) is off unless TALU_BENCH_RELAY is true, and when on it
relays every text frame to its group and to nobody else."""

from __future__ import annotations

import importlib

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.core.exceptions import ImproperlyConfigured

import play.routing
from tests.site.wsutil import TIMEOUT, application

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def routing(monkeypatch):
    """``play.routing`` re-imported under the environment the test sets; restored after."""

    def load(value: str | None):
        if value is None:
            monkeypatch.delenv("TALU_BENCH_RELAY", raising=False)
        else:
            monkeypatch.setenv("TALU_BENCH_RELAY", value)
        return importlib.reload(play.routing)

    yield load
    monkeypatch.delenv("TALU_BENCH_RELAY", raising=False)
    importlib.reload(play.routing)


def relay_paths(module) -> list[str]:
    return [str(p.pattern) for p in module.websocket_urlpatterns if "relay" in str(p.pattern)]


@pytest.mark.parametrize("value", [None, "", "false", "0", "off"])
def test_route_absent_by_default(routing, value):
    assert relay_paths(routing(value)) == []


@pytest.mark.asyncio
async def test_site_refuses_relay_socket_by_default(routing):
    routing(None)
    comm = WebsocketCommunicator(application(), "/ws/bench/relay/g1/",
                                 headers=[(b"origin", b"http://testserver"),
                                          (b"host", b"testserver")])
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected  # the site's answer to any path it does not serve (test_ws_no_route.py)
    assert (await comm.receive_json_from(timeout=TIMEOUT))["code"] == "not_found"
    assert (await comm.receive_output(timeout=TIMEOUT)) == {"type": "websocket.close",
                                                           "code": 4404}


def test_unclear_value_fails_loudly(routing):
    with pytest.raises(ImproperlyConfigured, match="TALU_BENCH_RELAY"):
        routing("maybe")


@pytest.mark.asyncio
async def test_relays_to_its_group_only(routing):
    app = URLRouter(routing("true").websocket_urlpatterns)
    sender = WebsocketCommunicator(app, "/ws/bench/relay/g1/")
    listener = WebsocketCommunicator(app, "/ws/bench/relay/g1/")
    other = WebsocketCommunicator(app, "/ws/bench/relay/g2/")
    for comm in (sender, listener, other):
        connected, _ = await comm.connect(timeout=TIMEOUT)
        assert connected
    await sender.send_to(text_data='{"n": 1, "anything": "goes"}')
    for comm in (sender, listener):  # the sender hears its own message: that is its echo
        assert await comm.receive_from(timeout=TIMEOUT) == '{"n": 1, "anything": "goes"}'
    assert await other.receive_nothing(timeout=0.2)
    for comm in (sender, listener, other):
        await comm.disconnect()
