"""deploy/nginx.conf in front of two server processes: play and /healthz work through it, and
a killed backend is routed around (new requests and reconnecting clients reach the other one).

The production config is used as written, with only the upstream addresses, the listening port
and the pid file replaced for this machine.
"""

import asyncio
import shutil
import subprocess
import urllib.request
from pathlib import Path

import pytest

from tests import stack
from tests.cluster.client import GameClient, assert_exactly_once_in_order, wait_all
from tests.cluster.harness import ROOT, free_port, port_open

pytestmark = [pytest.mark.services, pytest.mark.asyncio]

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def render(cluster, port: int, workdir: Path) -> Path:
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    for name, server in (("web1:8000", 0), ("web2:8000", 1)):
        assert name in text
        text = text.replace(name, f"127.0.0.1:{cluster.servers[server].port}")
    text = text.replace("listen 80 default_server;", f"listen 127.0.0.1:{port};")
    text = text.replace("pid /tmp/nginx.pid;", f"pid {workdir / 'nginx.pid'};")
    text = text.replace("access_log /dev/stdout;", f"access_log {workdir / 'access.log'};")
    text = text.replace("error_log /dev/stderr warn;", f"error_log {workdir / 'error.log'} warn;")
    conf = workdir / "nginx.conf"
    conf.write_text(text)
    return conf


@pytest.fixture(scope="module")
def proxy(cluster):
    if not Path(NGINX).exists():
        stack.require("nginx", ["not installed (apt-get install -y nginx-light)"])
    workdir = cluster.workdir / "nginx"
    workdir.mkdir()
    port = free_port()
    conf = render(cluster, port, workdir)
    check = subprocess.run([NGINX, "-t", "-c", str(conf), "-p", str(workdir)],
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    proc = subprocess.Popen([NGINX, "-c", str(conf), "-p", str(workdir), "-g", "daemon off;"],
                            stderr=subprocess.PIPE)
    for _ in range(100):
        if port_open(port):
            break
        asyncio.run(asyncio.sleep(0.1))
    yield port
    proc.terminate()
    proc.wait(15)


def get(port: int, path: str) -> int:
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}")
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status
    except urllib.error.HTTPError as err:
        return err.code


async def test_play_through_the_proxy_survives_a_killed_backend(cluster, proxy):
    seed = cluster.seed(players=("pat", "pru"), spectators=("vic", "val"))
    assert get(proxy, "/healthz") == 200
    names = ("pat", "pru", "vic", "val")
    clients = [await GameClient(cluster, 0, seed.game, seed.cookies[n], n, via=proxy).start()
               for n in names]
    pat, pru = clients[0], clients[1]
    try:
        await pat.play("move", "A2", "A3")
        await wait_all(clients, 1)

        cluster.servers[0].kill()
        # Plain requests are retried on the live backend: none fails.
        assert [get(proxy, "/healthz") for _ in range(6)] == [200] * 6
        assert get(proxy, "/lobby/state.json") == 200
        # Clients that were on the dead process reconnect through the proxy to the other.
        await pat.play("move", "A3", "A4")
        await pat.play("end")
        await pru.wait_version(3)
        await pru.play("pass")
        await wait_all(clients, 4)
        assert_exactly_once_in_order(clients, 4)
        # Some of the four were on the killed process (least_conn spreads them): they are the
        # ones that had to reconnect, so the routing around it was exercised.
        moved = [c.name for c in clients if c.connections > 1]
        assert moved, [c.report() for c in clients]
    finally:
        await asyncio.gather(*(c.close() for c in clients))
        cluster.servers[0].start()
