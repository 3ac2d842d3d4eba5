"""Walk-in players (issue 38): at a club night everyone signs up from the club's one address,
and five sign-ups an hour from an address is the site's limit. So a registrar of the event's
body registers a player at the table and enters them in one step: with a username, a site
account (its first password shown once, for the player to log in with and change); without,
a registered player with no account (book 5.3.6: over the board only, as an online game is
played from an account).
"""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction

from registry.events.access import EventError
from registry.events.models import Entry, Event
from registry.events.services import _name, can_create, enter
from registry.models import Player
from registry.services import player_of


def may_register(user, event: Event) -> bool:
    """A registrar of the event's body (or staff), while the event is open."""
    return event.status != Event.CLOSED and can_create(user, event.body)


def register_walk_in(user, event: Event, name: str, username: str = "") -> tuple[Entry, str]:
    """Register and enter a walk-in player; the entry and the new account's first password
    ("" without an account)."""
    if not can_create(user, event.body):
        raise EventError("only a registrar of the event's body registers players for it",
                         "forbidden")
    name = _name(name, "a player's name")
    username = (username or "").strip()
    if not username:
        if event.venue == "online":
            raise EventError("an online event's players play from an account: give the "
                             "player a username")
        with transaction.atomic():
            player = Player.objects.create(display_name=name, body=event.body)
            return enter(event, player, player.player_id, name, player.rating), ""
    users = get_user_model()
    try:
        users.username_validator(username)
        if len(username) > 150:
            raise ValidationError("too long")
    except ValidationError:
        raise EventError(f"{username[:150]!r} cannot be a username: letters, digits and "
                         "@ . + - _ only, at most 150") from None
    if users.objects.filter(username__iexact=username).exists():
        raise EventError(f"the username {username!r} is taken: if it is this player's, "
                         "enter them by their player id")
    password = secrets.token_urlsafe(9)
    with transaction.atomic():
        account = users.objects.create_user(username, password=password)
        player = player_of(account)
        return enter(event, player, player.player_id, name, player.rating), password
