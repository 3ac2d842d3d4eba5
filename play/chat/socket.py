"""Chat on the game socket (issue 39; docs/protocol.md, "Chat"): the consumer hands the
client's ``chat``, ``report`` and ``mute`` messages here, and a stored message reaches its
channel's sockets through the game's group, each socket keeping what its viewer may read
(``audience``): a player's socket the players' channel, any other the spectators'.

Every answer is on the socket: a refusal is ``chat_refused`` with a ``code`` and the words
(nothing stored), a report is answered ``reported``, a mute ``muted``.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from play.chat import messages, reports
from play.chat.messages import ChatRefused
from play.live.delivery import group_name, layer_call
from play.live.threads import in_db_pool
from play.live.wire import encode

TYPES = ("chat", "report", "mute")


async def handle(consumer: Any, msg: dict[str, Any]) -> None:
    """One chat message of the client's, answered on its socket; a stored chat message goes
    to its channel on every server process."""
    kind = msg["type"]
    user, side, game = consumer.user, consumer.side, consumer.game_id
    try:
        if kind == "chat":
            stored = await in_db_pool(messages.post)(game, user, side, msg.get("text"))
            await publish(game, stored["channel"], {"type": "chat", "message": stored})
        elif kind == "report":
            target = await in_db_pool(reports.report)(game, user, side, msg.get("message"),
                                                      msg.get("player"), msg.get("reason"))
            await consumer.send_json({"type": "reported", **target})
        else:
            done = await in_db_pool(reports.mute)(user, msg.get("user"), msg.get("muted", True))
            await consumer.send_json({"type": "muted", **done})
    except ChatRefused as err:
        await consumer.send_json({"type": "chat_refused", "of": kind, "code": err.code,
                                  "message": str(err)})


async def publish(game_uuid: Any, channel: str, frame: dict[str, Any]) -> None:
    """``frame`` to the sockets of ``channel`` (players or spectators) of the game."""
    await layer_call(get_channel_layer().group_send, group_name(game_uuid),
                     {"type": "chat.frame", "channel": channel, "text": encode(frame)})


def hidden(game_uuid: Any, message_id: int, channel: str) -> None:
    """Tell the channel's sockets that a moderator hid a message (from a view: sync)."""
    async_to_sync(publish)(game_uuid, channel, {"type": "chat_hidden", "id": message_id})


def audience(side: str | None, channel: str) -> bool:
    """Whether a socket of ``side`` (None: not a player) reads ``channel``."""
    return channel == messages.channel_of(side)
