"""Rate limits per account and per address (issue 27, findings 4 and 10; ``talu_site.ratelimit``):
log-ins, sign-ups, challenges (and the number open at once), websocket handshakes, pool joins.
Runs again on PostgreSQL and Redis (the services lane of ``tests/lanes.py``), where the counters
are Redis's, shared by every server process."""

from __future__ import annotations

import itertools

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from play.lobby import challenges
from play.models import Challenge
from registry.models import Player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.rate_limits]

_addresses = (f"198.51.100.{n}" for n in itertools.count(10))


@pytest.fixture
def address() -> str:
    """An address of this test's own: counters of other tests never reach it."""
    return next(_addresses)


@pytest.fixture
def low(settings):
    def set_rates(**rates: str) -> None:
        settings.TALU_RATES = {**settings.TALU_RATES, **rates}

    return set_rates


def _login(client, username, password, address):
    return client.post(reverse("login"), {"username": username, "password": password},
                       REMOTE_ADDR=address)


def test_wrong_passwords_for_one_account_are_limited(client, players, make_user, low, address):
    """Finding 10: 30 wrong passwords were all answered normally. (An account of its own: a
    slowed account stays slowed for a day, on Redis into the next tests; registry/logins.py.)"""
    low(login_account="3/10minute", login_address="100/10minute")
    dana = make_user("dana").username
    codes = [_login(client, dana, "wrong", address).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    # Over the limit the right password from a new address does not help (it is not even
    # checked) ...
    refused = _login(client, dana, "pw-dana-x1", next(_addresses))
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert b"Too many failed log-ins" in refused.content
    assert "_auth_user_id" not in client.session
    # ... while another account logs in from the same address.
    ok = _login(client, players[1].username, "pw-bob-x1", address)
    assert ok.status_code == 302


def test_wrong_passwords_from_one_address_are_limited(client, players, low, address):
    low(login_account="100/10minute", login_address="3/10minute")
    for n in range(3):
        assert _login(client, f"nobody{n}", "wrong", address).status_code == 200
    assert _login(client, players[0].username, "pw-alice-x1", address).status_code == 429
    assert _login(client, players[0].username, "pw-alice-x1",
                  next(_addresses)).status_code == 302


def test_signups_from_one_address_are_limited(client, low, address):
    low(signup_address="2/hour")

    def signup(name, where):
        client.logout()
        return client.post(reverse("signup"), {"username": name, "password1": "a-Long-pass-77",
                                               "password2": "a-Long-pass-77"},
                           REMOTE_ADDR=where)

    assert [signup(n, address).status_code for n in ("u1", "u2", "u3")] == [302, 302, 429]
    assert not Player.objects.filter(user__username="u3").exists()
    assert signup("u4", next(_addresses)).status_code == 302


def test_one_player_cannot_fill_the_lobby(client, players, settings, low):
    """Finding 4: one account opened 200 challenges in 5 s; the lobby shows the newest 50, so
    everyone else's vanished."""
    settings.TALU_MAX_OPEN_CHALLENGES = 5
    alice, bob, carol = players
    challenges.open_challenge(carol)
    client.force_login(alice)
    for _ in range(8):
        client.post(reverse("challenge_new"), {"variant": "standard", "rated": "1",
                                               "side": "random"})
    assert Challenge.objects.filter(creator=alice, status=Challenge.OPEN).count() == 5
    page = client.get(reverse("lobby")).content.decode()
    assert "5 open challenges" in page  # the refusal, in words
    # carol's challenge is still offered to bob
    client.force_login(bob)
    state = client.get(reverse("lobby_state")).json()
    assert "carol" in [c["creator"] for c in state["challenges"]]
    # cancelling one makes room again
    mine = Challenge.objects.filter(creator=alice, status=Challenge.OPEN).first()
    challenges.cancel_challenge(alice, mine.pk)
    challenges.open_challenge(alice)


def test_opening_challenges_is_rate_limited(players, settings, low):
    settings.TALU_MAX_OPEN_CHALLENGES = 100
    low(challenge="3/10minute")
    alice = players[0]
    for _ in range(3):
        ch = challenges.open_challenge(alice)
        challenges.cancel_challenge(alice, ch.pk)  # cancelling does not give the budget back
    with pytest.raises(challenges.ChallengeError, match="Too many challenges"):
        challenges.open_challenge(alice)


def test_pool_joins_have_a_limit_ready_for_the_pool(low):
    from talu_site import ratelimit

    low(pool_join="2/minute")
    join = ratelimit.limit("pool_join")
    assert [join.hit("player-7") is None for _ in range(3)] == [True, True, False]
    assert join.hit("player-8") is None


@pytest.mark.asyncio
async def test_websocket_handshakes_per_address_are_limited(game, low, address):
    from channels.testing import WebsocketCommunicator

    from tests.site.wsutil import application

    low(ws_connect="2/minute")

    async def handshake(where):
        comm = WebsocketCommunicator(application(), f"/ws/game/{game.uuid}/",
                                     headers=[(b"origin", b"http://testserver"),
                                              (b"host", b"testserver")])
        comm.scope["client"] = (where, 40000)
        connected, _ = await comm.connect(timeout=5)
        assert connected
        first = await comm.receive_json_from(timeout=5)
        return comm, first

    opened = [await handshake(address) for _ in range(2)]
    assert [m["type"] for _, m in opened] == ["welcome", "welcome"]
    comm, refused = await handshake(address)
    assert refused["code"] == "rate_limited" and refused["retry_after"] > 0
    assert (await comm.receive_output(timeout=5))["code"] == 4429
    other, welcome = await handshake(next(_addresses))
    assert welcome["type"] == "welcome"
    for c, _ in [*opened, (other, None)]:
        await c.disconnect()
    assert await database_sync_to_async(game.events.count)() == 0


def test_a_bad_rate_stops_the_process_at_start_up(monkeypatch):
    from django.core.exceptions import ImproperlyConfigured

    from talu_site.ratelimit import parse_rate, rates_from_environment

    assert parse_rate("30/10minute").seconds == 600
    assert parse_rate("off") is None
    monkeypatch.setenv("TALU_RATE_LOGIN_ADDRESS", "lots")
    with pytest.raises(ImproperlyConfigured, match="TALU_RATE_LOGIN_ADDRESS='lots' is not a rate"):
        rates_from_environment()


_v6_networks = (f"2001:db8:{n:x}::" for n in itertools.count(1))


@pytest.mark.asyncio
@pytest.mark.parametrize("path", ["lobby", "game"])
async def test_lobby_and_game_sockets_count_an_ipv6_client_by_its_64(game, low, path):
    """The lobby's socket counted single IPv6 addresses (a client with a /64 takes a new
    address per handshake); both sockets count the /64, as every limit per address does."""
    from channels.testing import WebsocketCommunicator

    from tests.site.wsutil import application

    low(ws_connect="2/minute")
    net = next(_v6_networks)
    url = "/ws/lobby/" if path == "lobby" else f"/ws/game/{game.uuid}/"
    answers = []
    for n in range(3):
        comm = WebsocketCommunicator(application(), url,
                                     headers=[(b"origin", b"http://testserver"),
                                              (b"host", b"testserver")])
        comm.scope["client"] = (f"{net}{n + 1:x}", 40000)
        connected, _ = await comm.connect(timeout=5)
        assert connected
        answers.append((await comm.receive_json_from(timeout=5)).get("code"))
        await comm.disconnect()
    assert answers == [None, None, "rate_limited"]


def test_the_open_challenge_cap_holds_against_requests_at_once(players, settings, low):
    """The cap was counted, then the challenge created: requests at the same moment all saw
    room and all opened one (finding 4 was 200 challenges in 5 s). One player's openings now
    take turns."""
    import threading

    from django.db import connection

    settings.TALU_MAX_OPEN_CHALLENGES = 2
    low(challenge="1000/minute")
    alice = players[0]
    start = threading.Barrier(8)
    results = []

    def open_one():
        try:
            start.wait()
            challenges.open_challenge(alice)
            results.append("opened")
        except challenges.ChallengeError:
            results.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=open_one) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results) == ["opened"] * 2 + ["refused"] * 6, results
    assert Challenge.objects.filter(creator=alice, status=Challenge.OPEN).count() == 2


def test_one_player_cannot_flood_the_computer(client, players, settings, low):
    """Beyond the findings, finding 4's fault in the computer's lobby button: one account could
    start games against the computer without end, each opening with the computer's thinking
    when it moves first, and so queue everyone else's computer games behind them. A cap on
    those in progress and a rate of starting them."""
    from play.computer.start import ComputerGameError, play_the_computer
    from play.models import ComputerGame, Game

    settings.TALU_MAX_COMPUTER_GAMES = 2
    low(computer_game="100/minute")
    alice = players[0]
    first = play_the_computer(alice, side="I")
    play_the_computer(alice, side="I")
    with pytest.raises(ComputerGameError, match="2 games against the computer in progress"):
        play_the_computer(alice, side="I")
    client.force_login(alice)
    page = client.post(reverse("computer_new"), {"variant": "standard", "level": "3",
                                                 "side": "I"}, follow=True).content.decode()
    assert "in progress" in page and ComputerGame.objects.count() == 2
    Game.objects.filter(pk=first.pk).update(status=Game.FINISHED)  # one ends: room again
    play_the_computer(alice, side="I")
    play_the_computer(players[1], side="I")  # another player's games are their own

    settings.TALU_MAX_COMPUTER_GAMES = 100
    low(computer_game="1/10minute")
    with pytest.raises(ComputerGameError, match="Too many games against the computer"):
        play_the_computer(players[2], side="I") and play_the_computer(players[2], side="I")


def test_challenges_and_pool_joins_are_limited_per_address_too(client, make_user, low,
                                                                address):
    """Accounts are cheap to make over days (sign-ups are limited per address per hour): the
    limits per player have a limit per address beside them, through every door (the lobby's
    form and the pool's API)."""
    from rest_framework.test import APIClient

    low(challenge="100/10minute", challenge_address="3/10minute",
        pool_join="100/minute", pool_join_address="2/minute")
    people = [make_user(f"sock{n}") for n in range(4)]
    for person in people:
        client.force_login(person)
        client.post(reverse("challenge_new"), {"variant": "standard", "rated": "1",
                                               "side": "random"}, REMOTE_ADDR=address)
    assert Challenge.objects.filter(status=Challenge.OPEN).count() == 3
    assert "Too many challenges" in client.get(reverse("lobby")).content.decode()
    client.post(reverse("challenge_new"), {"variant": "standard", "rated": "1",
                                           "side": "random"}, REMOTE_ADDR=next(_addresses))
    assert Challenge.objects.filter(status=Challenge.OPEN).count() == 4  # another address

    api = APIClient()
    codes = []
    for person in people[:3]:
        api.force_authenticate(person)
        codes.append(api.post("/api/v1/pool/me/", {"variant": "standard",
                                                "time_control": "fischer 180+2",
                                                "rated": True}, format="json",
                              REMOTE_ADDR=address).status_code)
    assert codes == [201, 201, 429]


def test_every_limit_is_documented_with_its_default():
    """docs/deployment.md lists every rate limit (its variable and default), as the issue
    asks: an operator reads there what a client is allowed."""
    from pathlib import Path

    from talu_site.ratelimit import DEFAULTS

    doc = (Path(__file__).resolve().parents[2] / "docs" / "deployment.md").read_text()
    for name, default in DEFAULTS.items():
        assert f"| `TALU_RATE_{name.upper()}` | `{default}` |" in doc, name
