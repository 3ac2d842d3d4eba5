"""What may be said beside a game, who reads it, and the history a page shows (issue 39).

Two channels a game: a player writes to and reads the players' channel, anyone else (a
spectator, an arbiter) the spectators'. Spectators never read the players' channel, during
the game or after it: lichess keeps a game's player chat to its players once the game is over
too, and so does this site. A message is refused, in words and with nothing stored, when:

- the writer is not logged in;
- the game is an event's and its arbiters have not allowed chat (the event's ``chat``
  setting, asked through ``play.ports``: play knows nothing of events);
- the writer is restricted from chatting (``play.chat.restrictions``);
- the text is empty, longer than :data:`MAX_LENGTH`, or not one printable line (the site's
  one text check, ``play.games.text``: control and bidirectional characters are refused);
- the writer has sent more than the ``chat`` rate (``talu_site.ratelimit``, per account and
  shared by every server process; default five in ten seconds).
"""

from __future__ import annotations

from typing import Any

from play import ports
from play.games import text as text_check
from play.models import ChatMessage, ChatMute, Game
from play.models.chat import PLAYERS, SPECTATORS
from talu_site import ratelimit

MAX_LENGTH = 300  # characters of one message (the column's too)
HISTORY = 50  # messages of a channel a page shows when it opens


class ChatRefused(ValueError):
    """A chat message (or report, or mute) refused: ``code`` for clients, the words for
    people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def channel_of(side: str | None) -> str:
    """The channel a viewer reads and writes: a player's is the players', anyone else's the
    spectators'."""
    return PLAYERS if side else SPECTATORS


def chat_off(game: Game) -> str | None:
    """Why nobody may chat beside ``game``, or None when chat is on: an event's game has chat
    only when the event's arbiters allowed it (issue 39)."""
    if game.in_event and not ports.directory().chat_allowed(game):
        return ("chat is off in this event's games: its arbiters have not allowed it")
    return None


def checked_text(value: Any) -> str:
    """The message's text, trimmed and checked by the site's one text check, or
    :class:`ChatRefused` in words."""
    if not isinstance(value, str):
        raise ChatRefused("bad_text", "a chat message is text")
    value = value.strip()
    if not value:
        raise ChatRefused("bad_text", "a chat message cannot be empty")
    if len(value) > MAX_LENGTH:
        raise ChatRefused("too_long", f"a chat message is at most {MAX_LENGTH} characters; "
                          f"this one has {len(value)}")
    reason = text_check.problem(value, max_length=MAX_LENGTH)
    if reason is not None:
        raise ChatRefused("bad_text", f"a chat message {reason}")
    return value


def wire(message: ChatMessage) -> dict[str, Any]:
    """A message as the socket and the page carry it (docs/protocol.md, "Chat")."""
    return {"id": message.pk, "channel": message.channel, "user": message.name,
            "text": message.text, "at": int(message.created.timestamp() * 1000)}


def post(game_uuid: Any, user: Any, side: str | None, value: Any) -> dict[str, Any]:
    """Store ``user``'s message in their channel of the game; its wire form, or
    :class:`ChatRefused` (nothing stored)."""
    from play.chat import restrictions  # the models' module imports nothing of chat

    if user is None or not getattr(user, "is_authenticated", False):
        raise ChatRefused("login", "log in to chat")
    game = Game.objects.filter(uuid=game_uuid).only("pk", "in_event").first()
    if game is None:
        raise ChatRefused("not_found", "there is no such game")
    off = chat_off(game)
    if off is not None:
        raise ChatRefused("off", off)
    try:
        restrictions.check_chat(user)
    except restrictions.Restricted as err:
        raise ChatRefused("restricted", str(err)) from None
    words = checked_text(value)
    refusal = ratelimit.limit("chat").hit(str(user.pk))
    if refusal is not None:
        raise ChatRefused("rate_limited", refusal.message("chat messages"))
    message = ChatMessage.objects.create(game=game, channel=channel_of(side), user=user,
                                         name=user.get_username()[:150], text=words)
    return wire(message)


def history(game: Game, side: str | None, viewer: Any = None,
            limit: int = HISTORY) -> list[dict[str, Any]]:
    """The last ``limit`` messages of the viewer's channel, oldest first: none hidden by a
    moderator, none of an account the viewer muted."""
    found = ChatMessage.objects.filter(game=game, channel=channel_of(side), hidden=False)
    muted = muted_ids(viewer)
    if muted:
        found = found.exclude(user_id__in=muted)
    return [wire(m) for m in reversed(found.order_by("-id")[:limit])]


def muted_ids(viewer: Any) -> list[int]:
    if viewer is None or not getattr(viewer, "is_authenticated", False):
        return []
    return list(ChatMute.objects.filter(user_id=viewer.pk).values_list("muted_id", flat=True))


def page(game: Game, user: Any, side: str | None) -> dict[str, Any]:
    """What the game page's chat panel starts from (``static/play/chat.js``): the viewer's
    channel and its recent messages, whom they muted, the game's other players (to report
    one), whether they may write and, if not, why."""
    from django.contrib.auth import get_user_model

    off = chat_off(game)
    logged_in = user is not None and getattr(user, "is_authenticated", False)
    muted = muted_ids(user)
    names = list(get_user_model().objects.filter(pk__in=muted).values_list("username",
                                                                             flat=True))
    me = user.get_username() if logged_in else ""
    players = [u.get_username() for _, u in game.holders()
               if u is not None and u.get_username() != me]
    return {"channel": channel_of(side), "messages": [] if off else history(game, side, user),
            "muted": sorted(names), "me": me, "players": players,
            "off": off or "", "login": not logged_in, "max": MAX_LENGTH}
