"""The computer's site account: one account, marked by a ``ComputerAccount`` row.

Created on first use, with no usable password (nobody logs in as the computer). Its name is
``COMPUTER_NAME``; should a person already hold that name, the computer takes the first free
``COMPUTER_NAME-N``. Every place that shows a player asks ``is_computer``/``computer_ids``.
"""

from __future__ import annotations

import threading

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from play.models import ComputerAccount, ComputerGame

COMPUTER_NAME = "computer"

_ids: set[int] | None = None
_lock = threading.Lock()


def computer_user():
    """The computer's account (made on first use)."""
    mark = ComputerAccount.objects.select_related("user").order_by("pk").first()
    if mark is not None:
        return mark.user
    User = get_user_model()
    for n in range(100):
        name = COMPUTER_NAME if n == 0 else f"{COMPUTER_NAME}-{n}"
        if User.objects.filter(username__iexact=name).exists():
            continue
        try:
            with transaction.atomic():
                user = User(username=name)
                user.set_unusable_password()
                user.save()
                ComputerAccount.objects.create(user=user)
        except IntegrityError:  # another process made it first: take theirs
            mark = ComputerAccount.objects.select_related("user").order_by("pk").first()
            if mark is not None:
                return mark.user
            continue
        forget()
        return user
    raise RuntimeError("no free name for the computer's account")  # pragma: no cover


def computer_ids() -> set[int]:
    """The ids of the accounts marked as the computer (cached once there is one: a mark is
    never removed). None yet is not cached: another process may make the account (its
    ``forget`` reaches only itself), and this one would never see it (issue 24: no computer
    badge, an Adjourn button it never accepts)."""
    global _ids
    with _lock:
        if _ids is not None:
            return _ids
    ids = set(ComputerAccount.objects.values_list("user_id", flat=True))
    if ids:
        with _lock:
            _ids = ids
    return ids


def is_computer(user) -> bool:
    return user is not None and getattr(user, "pk", None) in computer_ids()


def forget() -> None:
    """Drop the cache (a new mark; tests)."""
    global _ids
    with _lock:
        _ids = None


def mark_computer(game, players: dict) -> None:
    """Mark the computer's seats in a game's players block (docs/protocol.md
    ``game.players``): ``"computer": {"level": N}`` on each seat it plays (a table of three may
    give it two, issue 37), ``None`` on a person's. No query for a two-seat game without the
    computer (the marked accounts are cached); a game of more seats asks its rows."""
    ids = computer_ids()
    levels: dict[str, int] = {}
    two = game.player_i_id is not None or game.player_o_id is not None
    if ids and (not two or game.player_i_id in ids or game.player_o_id in ids):
        levels = dict(ComputerGame.objects.filter(game_id=game.pk)
                      .values_list("side", "level"))
    for side, p in players.items():
        p["computer"] = {"level": levels[side]} if side in levels else None
