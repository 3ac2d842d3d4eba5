"""A websocket fuzzer over every message type (issue 27): hundreds of malformed, mistyped,
out-of-turn and oversized messages from a spectator, from the player not to move and from the
player to move (steps no rule allows), each answered by a documented message: never an
``ack`` (nothing applied), never ``server_error``, never an ERROR log line; the game unchanged
afterwards, and the sockets still working. Seeded, bounded (a few hundred messages, well under
a minute); runs again on PostgreSQL and Redis (the services lane, ``tests/lanes.py``)."""

from __future__ import annotations

import json
import random
import time

import pytest
from channels.db import database_sync_to_async

from play.commands.player import COMMAND_TYPES
from play.live import budget
from play.live.wire import CLIENT_TYPES
from tests.site.wsutil import application, connect, receive

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

MESSAGES_PER_SOCKET = 150
# Every type a client may send (the arbiter's too, and the probe's echo), and some it may not.
TYPES = (*CLIENT_TYPES, "launch", "", "STEP", None, 7, ["step"])
ANSWERS = {"update", "rejected", "error", "pong", "spectators", "game",
           # chat beside the game (issue 39): it changes nothing of the game
           "chat", "chat_refused", "reported", "muted"}
ERROR_CODES = {"bad_json", "bad_message", "unknown_type", "too_large", "not_found"}
# An arbiter's reason that no action takes (R39: a reason in words, 1 to 500 printable
# characters; an adjournment's at most 200): the arbiter's fuzzed actions are all refused.
NO_REASON = [None, 7, True, [], {"a": 1}, "x" * 3000]
# Junk where a square goes: never a square of the board, so no step can be legal by chance.
NOT_SQUARES = ["", "Z9", "A0", "A22", "I9", "\x00", "a\u202e2", "\ud800", " A2", "A-2", "AA"]
SCALARS = [None, True, False, 0, -1, 1, 2, 2 ** 63, 2 ** 64, -(2 ** 63) - 1, 1.5, 0.0, 1e308,
           "", "x", "0", "\u202e", "a\x00b", "\ud800", "\x1b[2J", "9" * 80, "line\nbreak"]


def _value(rng: random.Random, depth: int = 0):
    roll = rng.random()
    if depth < 2 and roll < 0.15:
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if depth < 2 and roll < 0.3:
        return {rng.choice(["kind", "from", "to", "x", ""]): _value(rng, depth + 1)
                for _ in range(rng.randint(0, 3))}
    return rng.choice(SCALARS)


def _step(rng: random.Random):
    if rng.random() < 0.3:
        return _value(rng)
    step = {"kind": rng.choice(["move", "capture", "exit", "stay", "end", "pass", "fly", "",
                                None, 3]),
            "from": rng.choice([*NOT_SQUARES, None, 5]), "to": _value(rng)}
    if rng.random() < 0.2:
        step.pop(rng.choice(list(step)))
    return step


def _message(rng: random.Random, kinds) -> str | bytes:
    roll = rng.random()
    if roll < 0.08:  # not JSON, or JSON of the wrong shape, or hostile JSON
        # (No empty frame: the test communicator cannot send one; test_ws_bad_messages.py.)
        return rng.choice(["\t", " ", "{", "null", "[]", "1", '"ping"', '{"type": null}',
                           '{"type": "ping"', "[" * 3000 + "]" * 3000, '{"type": NaN}',
                           '{"type":"ping","type":"step"}', '{"type": "ping", "x": 1e999}',
                           '{"type": "step", "seq": "\\ud800"}'])
    if roll < 0.1:
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 40)))
    msg = {"type": rng.choice(kinds)}
    for name in ("version", "seq", "step", "last_version", "extra", "side", "turn", "seconds",
                 "at", "t", "result"):
        if rng.random() < (0.7 if name in ("version", "seq", "step") else 0.3):
            msg[name] = _step(rng) if name == "step" else _value(rng)
    if rng.random() < 0.5:
        msg["reason"] = _value(rng)
    if kinds is ARBITER_KINDS:
        msg["reason"] = rng.choice(NO_REASON)
    if msg["type"] in COMMAND_TYPES and rng.random() < 0.5:
        msg["version"] = 0  # the game's version: past the staleness check, into the rules
    if rng.random() < 0.03:
        msg["pad"] = "x" * 5000  # over the message limit
    return json.dumps(msg)


def _check(frame, msg: dict) -> None:
    """An answer the protocol documents, and none that says something was applied or broke."""
    shown = frame if isinstance(frame, bytes) else frame[:200]
    assert msg.get("type") in ANSWERS, (shown, msg)
    if msg["type"] == "error":
        assert msg["code"] in ERROR_CODES, (shown, msg)
        assert "Traceback" not in msg["message"]
    if msg["type"] == "rejected":
        assert msg["code"] != "busy", (shown, msg)  # nothing here may make the database fail


async def _fuzz(comm, rng: random.Random, kinds) -> list[dict]:
    """Send the messages, each followed by a ping; every answer up to the pong, checked."""
    seen = []
    for _ in range(MESSAGES_PER_SOCKET):
        frame = _message(rng, kinds)
        if isinstance(frame, bytes):
            await comm.send_to(bytes_data=frame)
        else:
            await comm.send_to(text_data=frame)
        await comm.send_json_to({"type": "ping"})
        while True:
            msg = await comm.receive_json_from(timeout=10)
            _check(frame, msg)
            seen.append(msg)
            if msg["type"] == "pong":
                break
    return seen




# The site's staff arbitrate a game outside any event (R39): every type, each arbiter's action
# with a reason none takes (``NO_REASON``), so nothing may be applied.
ARBITER_KINDS = list(TYPES)


async def test_no_message_breaks_the_server_or_changes_the_game(game, players, cookies,
                                                                make_user, no_error_logs):
    alice, bob, carol = players
    staff = await database_sync_to_async(make_user)("dora")
    staff.is_staff = True
    await database_sync_to_async(staff.save)()
    rng = random.Random(27)
    cookie = database_sync_to_async(cookies)
    # The spectator may send anything at all; the player not to move anything but a
    # resignation (which a player may send at any time, and which ends the game) or an offer to
    # adjourn (R38: a player may offer it between turns, an event of the game); the player to
    # move only steps that no rule allows (junk where the squares go); the arbiter every type,
    # its actions without a reason any takes.
    everything = [t for t in TYPES]
    not_resign = [t for t in TYPES if t not in ("resign", "adjourn")]
    seen: list[dict] = []
    for user, kinds in ((carol, everything), (bob, not_resign), (alice, ["step"]),
                        (staff, ARBITER_KINDS)):
        comm, _welcome, first = await connect(game, await cookie(user))
        assert first["version"] == 0
        seen += await _fuzz(comm, rng, kinds)
        # Still usable: a resync answers with the untouched game.
        # (An answer to the last fuzzed sync may still come first: answers to syncs are sent
        # in delivery order, not necessarily before the pong.)
        await comm.send_json_to({"type": "sync", "last_version": None})
        while (msg := await comm.receive_json_from(timeout=10))["type"] != "update":
            _check("(after the last pong)", msg)
        assert msg["version"] == 0
        await comm.disconnect()
    codes = {m.get("code") for m in seen if m["type"] in ("rejected", "error")}
    # The fuzzer reached past the parser into the rules (not only malformed frames), and the
    # arbiter's actions past the permission check into their own checks.
    assert {"bad_step", "not_your_turn", "spectator", "bad_json", "unknown_type",
            "forbidden"} <= codes, codes
    assert any(m.get("code") == "bad_step" and "reason" in m.get("reason", "") for m in seen)
    assert await game.events.acount() == 0
    await game.arefresh_from_db()
    assert game.version == 0 and game.status == game.LIVE


async def test_the_lobby_socket_answers_anything_and_stays_open(players, cookies, no_error_logs):
    """The lobby's socket (``/ws/lobby/``) takes no message: whatever comes is answered with
    ``bad_message`` (never a server error or a dropped socket), and it still hears the lobby."""
    from channels.testing import WebsocketCommunicator

    from play.live import lobby

    rng = random.Random(2727)
    comm = WebsocketCommunicator(application(), "/ws/lobby/",
                                 headers=[(b"origin", b"http://testserver"),
                                          (b"host", b"testserver"),
                                          (b"cookie", await database_sync_to_async(cookies)(
                                              players[0]))])
    connected, _ = await comm.connect(timeout=5)
    assert connected and (await comm.receive_json_from(timeout=5))["type"] == "welcome"
    for _ in range(MESSAGES_PER_SOCKET):
        frame = _message(rng, TYPES)
        if isinstance(frame, bytes):
            await comm.send_to(bytes_data=frame)
        else:
            await comm.send_to(text_data=frame)
        answer = await comm.receive_json_from(timeout=10)
        assert answer["type"] == "error" and answer["code"] == "bad_message", answer
    await lobby.notify()
    assert (await comm.receive_json_from(timeout=10)) == {"type": "changed"}
    await comm.disconnect()


# Where a flood of resyncs asks from: version 0 (the probe's), the state alone, far back,
# ahead, and values the parser refuses (unreadable messages count against the budget too).
FLOOD_FROM = [0, 0, 0, None, -1, 10 ** 6, "x", True, 1.5]
FLOOD_ERRORS = {"slow_down", "rate_limited", "bad_message"}


async def _flood(comm, rng: random.Random, n: int) -> None:
    for _ in range(n):
        await comm.send_to(text_data=json.dumps(
            {"type": rng.choice(["sync", "sync", "hello"]), "last_version": rng.choice(
                FLOOD_FROM)}))


async def _answers_until_closed(comm) -> tuple[list[dict], int]:
    """Every message the socket sends until it is closed, and the close code."""
    seen = []
    while True:
        out = await comm.receive_output(timeout=10)
        if out["type"] == "websocket.close":
            return seen, out.get("code")
        seen.append(json.loads(out["text"]))


@pytest.mark.rate_limits
async def test_a_flood_of_resyncs_gets_its_budget_then_words_then_a_close(
        game, players, cookies, no_error_logs):
    """The probe's class (issue 41, finding 9): anonymous spectators sending ``sync`` (from
    version 0, from anywhere, with junk) as fast as they can. Each gets at most its budget of
    resyncs (the site's defaults: 20 at once, two a second after), then ``slow_down`` in
    words, then ``rate_limited`` and a 4429 close; a player's step on the same game goes
    through meanwhile, and nothing else changes."""
    rng = random.Random(41)
    spectators = [(await connect(game))[0] for _ in range(4)]
    player, _, first = await connect(game, await database_sync_to_async(cookies)(players[0]))
    started = time.monotonic()
    for comm in spectators:
        await _flood(comm, rng, 80)
    step = first["state"]["legal_steps"][0]
    await player.send_json_to({"type": "step", "version": 0, "seq": "p1", "step": step})
    answer = await receive(player, "ack", "rejected", "error")
    assert answer["type"] == "ack" and answer["version"] == 1, answer
    for comm in spectators:
        seen, code = await _answers_until_closed(comm)
        elapsed = time.monotonic() - started
        assert code == 4429, seen[-3:]
        for msg in seen:
            assert msg["type"] in ("update", "error", "spectators"), msg
            if msg["type"] == "error":
                assert msg["code"] in FLOOD_ERRORS and "Traceback" not in msg["message"], msg
        # Each resync answered is one read of the game; the step's broadcast is one more.
        updates = [m for m in seen if m["type"] == "update"]
        assert len(updates) <= 20 + 2 * elapsed + 2, len(updates)
        slowed = [m for m in seen if m.get("code") == "slow_down"]
        assert slowed and all(m["retry_after"] >= 1 and "not handled" in m["message"]
                              for m in slowed)
        last = [m for m in seen if m["type"] == "error"][-1]
        assert last["code"] == "rate_limited" and last["retry_after"] >= 1, last
        refusals = [m for m in seen if m.get("code") in ("slow_down", "rate_limited")]
        assert len(refusals) == budget.STRIKES  # the last of them closes the socket
        await comm.disconnect()
    await player.disconnect()
    assert await game.events.acount() == 1  # the player's step, and nothing of the floods
