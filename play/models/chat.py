"""Chat beside a game (issue 39): its messages, the reports of them, a viewer's mutes, and the
restrictions moderators put on an account.

Two channels a game: its players' and its spectators'. Spectators never read the players'
channel, during the game or after it (as lichess keeps a game's player chat to its players);
players read theirs only. What goes in and who sees what is ``play.chat``; the moderators'
page and actions are the registry's (``registry.moderation``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

PLAYERS, SPECTATORS = "players", "spectators"
CHANNELS = [(PLAYERS, "players"), (SPECTATORS, "spectators")]


class ChatMessage(models.Model):
    """One message of one channel of a game. Hidden by a moderator: kept (the report and the
    audit name it) but shown to nobody but moderators."""

    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="chat")
    channel = models.CharField(max_length=10, choices=CHANNELS)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="+")
    #: the author's name when it was written (the account may go; the words stay readable)
    name = models.CharField(max_length=150)
    text = models.CharField(max_length=300)
    created = models.DateTimeField(auto_now_add=True)
    hidden = models.BooleanField(default=False)
    hidden_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")
    hidden_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["game", "channel", "-id"], name="chat_recent")]


class ChatReport(models.Model):
    """A viewer's report of a message they could see, or of a player, with their reason; open
    until a moderator deals with it (``registry.moderation``)."""

    OPEN, DONE, DISMISSED = "open", "done", "dismissed"
    STATUSES = [(OPEN, "open"), (DONE, "dealt with"), (DISMISSED, "dismissed")]

    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="+")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                 related_name="+")
    message = models.ForeignKey(ChatMessage, null=True, blank=True, on_delete=models.CASCADE,
                                related_name="reports")
    reported = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="+")
    reason = models.CharField(max_length=300)
    created = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=10, choices=STATUSES, default=OPEN)
    handled_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    handled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "-created"], name="chat_report_open")]


class ChatMute(models.Model):
    """``user`` does not want to read ``muted``'s messages (their page leaves them out)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="one_mute")]


class Restriction(models.Model):
    """A moderator's restriction of an account: no chatting, or no rated play, until
    ``until`` (None: until lifted). Lifted restrictions are kept (``lifted``)."""

    CHAT, RATED = "chat", "rated"
    KINDS = [(CHAT, "chatting"), (RATED, "playing rated games")]

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="restrictions")
    kind = models.CharField(max_length=6, choices=KINDS)
    until = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(max_length=300)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    lifted = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user", "kind"], name="restriction_user")]

    @staticmethod
    def in_force(now=None) -> Q:
        """The restrictions in force at ``now``: not lifted, not run out."""
        now = now or timezone.now()
        return Q(lifted__isnull=True) & (Q(until__isnull=True) | Q(until__gt=now))
