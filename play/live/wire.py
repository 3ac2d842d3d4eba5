"""The websocket's wire format (docs/protocol.md): encoding server frames, reading client ones.

Client frames are parsed here; ``play.commands.player`` turns a player's message into the
command path's typed ``Submission``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs

import orjson

# "warn" to "add_time" are an arbiter's only (R39, ``play.games.ARBITER_ONLY``); "offer" and
# "decline" are offers between players (a null game, a draw); the last three are chat beside
# the game (issue 39, ``play.chat.socket``).
CLIENT_TYPES = ("hello", "sync", "step", "end", "pass", "resign", "flag", "claim",
                "adjourn", "resume", "offer", "decline", "probe", "ping",
                "warn", "count_as_pass", "forfeit", "null", "add_time",
                "chat", "report", "mute")


log = logging.getLogger(__name__)


class WireError(ValueError):
    """A frame the server cannot read: ``code`` for the client's ``error`` message."""

    def __init__(self, code: str, message: str, seq: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.seq = seq


def encode(content: dict[str, Any]) -> str:
    """Compact JSON, by orjson: what ``json.dumps`` writes without spaces (non-ASCII as UTF-8
    rather than escaped), ten times faster on an update (the state and the notation;
    BENCHMARKS.md). An integer orjson cannot hold (past 64 bits) falls back to the standard
    library."""
    try:
        return orjson.dumps(content).decode()
    except TypeError:  # orjson.JSONEncodeError is one
        return json.dumps(content, separators=(",", ":"))


async def send_text(base_send: Callable[[dict[str, Any]], Awaitable[None]], text: str) -> None:
    """Send one text frame on a consumer's ``base_send``, dropping it if the socket has closed.

    A broadcast racing a disconnect (a crowd leaving at once, a lobby update arriving as its
    page closes) finds the protocol closed: there is nothing to tell the client any more, and
    its disconnect event follows and cleans up. Not a server error, so not a traceback
    (channels would log one as "Exception inside application"). What ``send(text_data=...)``
    does, without its two wrapping coroutines: every frame of every socket goes through here.
    """
    try:
        await base_send({"type": "websocket.send", "text": text})
    except Exception as err:  # autobahn's Disconnected, or the layer's closed-channel error
        log.debug("send on a closed websocket dropped: %s", err)


def with_member(text: str, key: str, value: Any) -> str:
    """``text``, an encoded JSON object, with one more member: the sender's copy of an update
    gets its ack without decoding and encoding the whole update again."""
    return f"{text[:-1]},{encode(key)}:{encode(value)}}}"


def parse(text_data: str | None, limit: int) -> dict[str, Any]:
    """A client frame as a message (a JSON object with a known ``type``), or ``WireError``."""
    if text_data is None:
        raise WireError("bad_message", "send JSON text frames, not binary")
    if len(text_data) > limit or len(text_data.encode("utf-8", "replace")) > limit:
        raise WireError("too_large", f"messages are limited to {limit} bytes")
    try:
        msg = orjson.loads(text_data)
    except ValueError:  # orjson's JSONDecodeError is one (NaN and lone surrogates too)
        raise WireError("bad_json", "that message is not valid JSON") from None
    if not isinstance(msg, dict):
        raise WireError("bad_message", "a message must be a JSON object with a 'type'")
    kind = msg.get("type")
    if kind not in CLIENT_TYPES:
        raise WireError("unknown_type", f"unknown message type {kind!r}; expected one of "
                        f"{', '.join(CLIENT_TYPES)}", seq=msg.get("seq"))
    if kind in ("hello", "sync"):
        last = msg.get("last_version")
        if last is not None and (isinstance(last, bool) or not isinstance(last, int)):
            raise WireError("bad_message", "last_version must be a whole number or null")
    return msg


def query(scope: dict[str, Any], name: str) -> str | None:
    """The last ``name=`` of the socket URL's query string, if any."""
    raw = parse_qs(scope.get("query_string", b"").decode("latin-1")).get(name)
    return raw[-1] if raw else None


def query_last_version(scope: dict[str, Any]) -> int | None:
    """``?last_version=N`` of a reconnecting client: its first update then holds what it
    missed (no race with steps broadcast between the handshake and a ``hello``)."""
    raw = query(scope, "last_version")
    if raw is None:
        return None
    try:
        value = int(raw)
    except ValueError:
        return None
    return value if value >= 0 else None


def plain(value: Any) -> bool:
    """A value safe to echo back as a ``seq``."""
    return isinstance(value, (str, int)) and not isinstance(value, bool) and len(str(value)) <= 64
