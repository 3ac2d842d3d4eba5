"""Moderation of chat beside games (issue 39): who moderates what, and each action, audited.

- **Who.** Site staff moderate every game's chat. An event's arbiters moderate the chat of
  their event's games: they see its reports and hide its messages. Restricting an account
  (no chatting, no rated play) reaches past one event, so it is staff's alone.
- **What.** Hide a message (kept, shown to nobody but moderators; live: every socket of its
  channel drops it, ``play.chat.socket.hidden``), dismiss a report, restrict an account until
  a time or until lifted, lift a restriction. A rated restriction also takes the account out
  of a rated pool and cancels its open rated challenges (the ways into a rated game check it
  too: ``play.chat.restrictions``).
- **Audit.** Every action is an ``AuditEntry`` (action ``moderate``), with the moderator,
  the game when there is one, the reason and what changed.

Bad input (an unknown message, a missing reason, a bad length of time) is
:class:`ModerationError` with words; nothing changes.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from play.chat import socket as chat_socket
from play.games.text import problem
from play.models import Challenge, ChatMessage, ChatReport, Game, PoolEntry, Restriction
from registry.models import AuditEntry, RegistryGame

#: The audit's action for every moderation (AuditEntry.action holds ten characters).
MODERATE = AuditEntry.MODERATE
MAX_DAYS = 3650


class ModerationError(ValueError):
    """A moderation refused, in words; ``status`` for the page's answer."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _event_games(user) -> Q:
    """The live games of the events ``user`` arbitrates, as a filter of ``Game``."""
    return Q(event_pairing__round__event__arbiters=user)


def is_moderator(user) -> bool:
    """Staff, or an arbiter of some event (for that event's games only)."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    return user.is_staff or user.arbiter_of.exists()


def may_moderate(user, game: Game) -> bool:
    """Whether ``user`` moderates ``game``'s chat: staff, or an arbiter of its event."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if user.is_staff:
        return True
    return Game.objects.filter(_event_games(user), pk=game.pk).exists()


def reports_for(user) -> QuerySet:
    """The reports ``user`` deals with: every one for staff, their events' games' for an
    arbiter."""
    found = ChatReport.objects.select_related("game", "reporter", "reported", "message",
                                              "message__user")
    if user.is_staff:
        return found
    return found.filter(game__in=Game.objects.filter(_event_games(user)))


def _reason(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ModerationError("give a reason: it goes in the audit trail")
    value = value.strip()
    if (why := problem(value, max_length=300)) is not None:
        raise ModerationError(f"the reason {why}")
    return value


def _audit(user, game: Game | None, reason: str, before: dict[str, Any],
           after: dict[str, Any]) -> None:
    registry_game = (RegistryGame.objects.filter(live_id=game.pk).first()
                     if game is not None else None)
    AuditEntry.objects.create(action=MODERATE, actor_user=user, game=registry_game,
                              reason=reason, before=before, after=after)


def hide(user, message_id: Any, reason: Any) -> ChatMessage:
    """Hide a message for everyone (its open reports are then dealt with), audited; the
    sockets of its channel drop it at once."""
    message = ChatMessage.objects.select_related("game").filter(
        pk=_id(message_id)).first()
    if message is None:
        raise ModerationError("there is no such message", 404)
    if not may_moderate(user, message.game):
        raise ModerationError("you do not moderate this game's chat", 403)
    why = _reason(reason)
    if message.hidden:
        raise ModerationError("that message is hidden already", 409)
    now = timezone.now()
    with transaction.atomic():
        ChatMessage.objects.filter(pk=message.pk).update(hidden=True, hidden_by=user,
                                                         hidden_at=now)
        ChatReport.objects.filter(message=message, status=ChatReport.OPEN).update(
            status=ChatReport.DONE, handled_by=user, handled_at=now)
        _audit(user, message.game, why, {"message": message.pk, "hidden": False},
               {"message": message.pk, "hidden": True, "by": message.name,
                "text": message.text, "channel": message.channel})
    chat_socket.hidden(message.game.uuid, message.pk, message.channel)
    message.hidden = True
    return message


def dismiss(user, report_id: Any, reason: Any) -> ChatReport:
    """Close a report with nothing done, audited."""
    report = ChatReport.objects.select_related("game").filter(pk=_id(report_id)).first()
    if report is None:
        raise ModerationError("there is no such report", 404)
    if not may_moderate(user, report.game):
        raise ModerationError("you do not moderate this game's chat", 403)
    why = _reason(reason)
    if report.status != ChatReport.OPEN:
        raise ModerationError("that report is closed already", 409)
    with transaction.atomic():
        ChatReport.objects.filter(pk=report.pk).update(
            status=ChatReport.DISMISSED, handled_by=user, handled_at=timezone.now())
        _audit(user, report.game, why, {"report": report.pk, "status": ChatReport.OPEN},
               {"report": report.pk, "status": ChatReport.DISMISSED})
    return report


def restrict(user, username: Any, kind: Any, days: Any, reason: Any,
             game: Game | None = None) -> Restriction:
    """Restrict an account from chatting or from rated play, for ``days`` (blank: until
    lifted); staff only, audited. A rated restriction takes the account out of a rated pool
    and cancels its open rated challenges."""
    if not (user.is_authenticated and user.is_staff):
        raise ModerationError("only site staff restrict accounts", 403)
    if kind not in (Restriction.CHAT, Restriction.RATED):
        raise ModerationError("restrict from chatting or from rated play")
    name = username.strip() if isinstance(username, str) else ""
    target = get_user_model().objects.filter(username__iexact=name[:150]).first() \
        if name else None
    if target is None:
        raise ModerationError(f"there is no account called {name[:150]!r}", 404)
    if target.pk == user.pk:
        raise ModerationError("you cannot restrict your own account")
    until = _until(days)
    why = _reason(reason)
    with transaction.atomic():
        made = Restriction.objects.create(user=target, kind=kind, until=until, reason=why,
                                          created_by=user)
        taken_out = cancelled = 0
        if kind == Restriction.RATED:
            taken_out = PoolEntry.objects.filter(user=target, status=PoolEntry.WAITING,
                                                 pool__rated=True).delete()[0]
            cancelled = Challenge.objects.filter(creator=target, status=Challenge.OPEN,
                                                 rated=True).update(
                status=Challenge.CANCELLED)
        _audit(user, game, why, {"account": target.get_username(), "restricted": False},
               {"account": target.get_username(), "restriction": made.pk, "kind": kind,
                "until": until.isoformat() if until else None,
                "pool_left": taken_out, "challenges_cancelled": cancelled})
    return made


def lift(user, restriction_id: Any, reason: Any) -> Restriction:
    """Lift a restriction in force before its time; staff only, audited."""
    if not (user.is_authenticated and user.is_staff):
        raise ModerationError("only site staff lift restrictions", 403)
    found = Restriction.objects.select_related("user").filter(
        Restriction.in_force(), pk=_id(restriction_id)).first()
    if found is None:
        raise ModerationError("there is no such restriction in force", 404)
    why = _reason(reason)
    with transaction.atomic():
        Restriction.objects.filter(pk=found.pk).update(lifted=timezone.now())
        _audit(user, None, why, {"restriction": found.pk, "account": found.user.get_username(),
                                 "kind": found.kind, "lifted": False},
               {"restriction": found.pk, "lifted": True})
    return found


def _id(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ModerationError(f"{str(value)[:20]!r} is not a number") from None


def _until(days: Any):
    """The end of a restriction ``days`` from now; None (until lifted) for a blank."""
    if days in (None, ""):
        return None
    try:
        n = int(days)
    except (TypeError, ValueError):
        raise ModerationError("the length is a whole number of days, or blank for "
                              "until lifted") from None
    if not 1 <= n <= MAX_DAYS:
        raise ModerationError(f"the length is from 1 to {MAX_DAYS} days, or blank for "
                              "until lifted")
    return timezone.now() + timedelta(days=n)
