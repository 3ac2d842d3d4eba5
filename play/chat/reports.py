"""Reports and mutes (issue 39): a viewer reports a message they can see, or a player, with
a reason, for the moderators (``registry.moderation``); a viewer mutes an account, whose
messages their pages then leave out.

A report of a message the reporter cannot see (the players' channel from a spectator, a
hidden message, another game's) is refused in words: a report cannot be a way to learn what a
message said, nor to point moderators at something the reporter never read.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q

from play.chat.messages import ChatRefused, channel_of
from play.games import text as text_check
from play.models import ChatMessage, ChatMute, ChatReport, Game
from talu_site import ratelimit

REASON_LENGTH = 300


def _reason(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ChatRefused("bad_report", "say in a few words why you report it")
    value = value.strip()
    reason = text_check.problem(value, max_length=REASON_LENGTH)
    if reason is not None:
        raise ChatRefused("bad_report", f"the reason {reason}")
    return value


def _logged_in(user: Any) -> None:
    if user is None or not getattr(user, "is_authenticated", False):
        raise ChatRefused("login", "log in to report or mute")


def report(game_uuid: Any, user: Any, side: str | None, message_id: Any = None,
           player: Any = None, reason: Any = None) -> dict[str, Any]:
    """Store a report of message ``message_id`` or of account ``player`` seen beside the
    game; ``{"message": id}`` or ``{"player": name}``, or :class:`ChatRefused`."""
    _logged_in(user)
    game = Game.objects.filter(uuid=game_uuid).first()
    if game is None:
        raise ChatRefused("not_found", "there is no such game")
    words = _reason(reason)
    target: dict[str, Any]
    if message_id is not None:
        if isinstance(message_id, bool) or not isinstance(message_id, int):
            raise ChatRefused("bad_report", "name the message by its number")
        message = ChatMessage.objects.filter(pk=message_id, game=game,
                                             channel=channel_of(side), hidden=False).first()
        if message is None:
            raise ChatRefused("not_visible", "you cannot report that message: it is not one "
                              "you can see beside this game")
        if message.user_id == user.pk:
            raise ChatRefused("bad_report", "that message is your own")
        reported = message.user
        target = {"message": message.pk}
    elif isinstance(player, str) and player.strip():
        reported = _seen_player(game, user, side, player.strip())
        message = None
        target = {"player": reported.get_username()}
    else:
        raise ChatRefused("bad_report", "report a message or a player")
    refusal = ratelimit.limit("chat_report").hit(str(user.pk))
    if refusal is not None:
        raise ChatRefused("rate_limited", refusal.message("reports"))
    ChatReport.objects.create(game=game, reporter=user, message=message, reported=reported,
                              reason=words)
    return target


def _seen_player(game: Game, user: Any, side: str | None, name: str) -> Any:
    """The account called ``name`` that the reporter met at this game: one of its players,
    or a writer in the reporter's channel; else :class:`ChatRefused`."""
    account = get_user_model().objects.filter(username__iexact=name[:150]).first()
    if account is not None and account.pk != user.pk:
        plays = game.side_of(account) is not None
        wrote = ChatMessage.objects.filter(game=game, channel=channel_of(side),
                                           user=account, hidden=False).exists()
        if plays or wrote:
            return account
    if account is not None and account.pk == user.pk:
        raise ChatRefused("bad_report", "you cannot report yourself")
    raise ChatRefused("not_visible", f"there is no player called {name[:150]!r} at this game "
                      "to report")


def mute(user: Any, name: Any, muted: Any = True) -> dict[str, Any]:
    """``user`` mutes (or unmutes) the account ``name``: ``{"user": name, "muted": bool}``."""
    _logged_in(user)
    if not isinstance(name, str) or not name.strip():
        raise ChatRefused("bad_mute", "name the player to mute")
    account = get_user_model().objects.filter(username__iexact=name.strip()[:150]).first()
    if account is None:
        raise ChatRefused("bad_mute", f"there is no player called {name.strip()[:150]!r}")
    if account.pk == user.pk:
        raise ChatRefused("bad_mute", "you cannot mute yourself")
    if muted is False:
        ChatMute.objects.filter(Q(user_id=user.pk) & Q(muted=account)).delete()
    else:
        ChatMute.objects.get_or_create(user_id=user.pk, muted=account)
    return {"user": account.get_username(), "muted": muted is not False}
