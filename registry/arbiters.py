"""Arbiters (R39): who is appointed, who may act as arbiter on a game, and the audit trail.

An affiliated body appoints site accounts as arbiters of its events (``registry.events``:
the event's arbiters act on every game of the event) or of one game. An event's games are its
arbiters' and those the event's body appoints for one of them (issue 38: the club runs its
event though the site's body holds its online games' records); an appointment for one by
anyone else is refused, and one made before that rule counts for nothing. Site staff may
arbitrate any game outside an event.
Players of a game never arbitrate it, spectators never can (R39).
Appointing and removing are audited, and so is every action an arbiter takes (``acted``),
with the arbiter's name. The actions
themselves are commands on the one command path (``play.commands.arbiter``); this module only
answers *who* and keeps the trail.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from play.models import Game
from registry.access import can_manage
from registry.models import AffiliatedBody, ArbiterAppointment, AuditEntry, RegistryGame


class ArbiterError(ValueError):
    """An appointment that cannot be made or removed; ``status`` the HTTP answer."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _plays(game: RegistryGame, user) -> bool:
    live = game.live
    if live is not None:
        return user.pk in (live.player_i_id, live.player_o_id)
    return user.pk in (game.player_i.user_id, game.player_o.user_id)


def can_appoint(game: RegistryGame, *, user=None, body: AffiliatedBody | None = None) -> bool:
    """The game's body (its token or a registrar) or staff: who manages the game's records
    (``registry.access.can_manage``) appoints its arbiters too; for a game of an event, the
    event's body as well (issue 38: a club's online event games are held by the site's body,
    yet the club runs the event). ``appoint`` then decides whether the appointment stands."""
    return can_manage(game, user=user, body=body) or _event_body_acts(game, user, body)


def _event_body(game: RegistryGame) -> AffiliatedBody | None:
    """The body whose event holds ``game`` (through its live game's pairing), or None."""
    if game.live_id is None:
        return None
    return AffiliatedBody.objects.filter(
        events__event_rounds__pairings__game_id=game.live_id).first()


def _event_body_acts(game: RegistryGame, user, body: AffiliatedBody | None) -> bool:
    """Whether the request comes from the body of ``game``'s event: its token, or a
    registrar of it."""
    owner = _event_body(game)
    if owner is None:
        return False
    if body is not None:
        return body.pk == owner.pk
    return bool(user is not None and getattr(user, "is_authenticated", False)
                and owner.registrars.filter(pk=user.pk).exists())


def appoint(game: RegistryGame, arbiter, *, by_user=None, by_body=None,
            reason: str = "") -> ArbiterAppointment:
    """Appoint ``arbiter`` (an account) for ``game`` on behalf of the game's body; audited."""
    if not getattr(arbiter, "is_active", False):
        raise ArbiterError("that account cannot be appointed (inactive)")
    body_id = game.body_id
    if game.live_id is not None and _event_of(game.live_id) is not None:
        # R39: an event's games are its arbiters': those named on the event, or appointed for
        # one of its games by the event's body (issue 38), never by anyone else
        if not _event_body_acts(game, by_user, by_body):
            raise ArbiterError("this game is a game of an event: its arbiters are the "
                               "event's (R39), named on the event or appointed for this game "
                               "by the event's body", 409)
        body_id = _event_body(game).pk
    if _plays(game, arbiter):
        raise ArbiterError(f"{arbiter.get_username()} plays this game: a player never "
                           "arbitrates their own game (R39)")
    try:
        with transaction.atomic():
            appointment = ArbiterAppointment.objects.create(
                body_id=body_id, user=arbiter, game=game, appointed_by=by_user)
            AuditEntry.objects.create(
                action=AuditEntry.APPOINT, game=game, reason=reason, actor_user=by_user,
                actor_body=by_body, after={"arbiter": arbiter.get_username(),
                                           "body": game.body.registrar_id})
    except IntegrityError:
        raise ArbiterError(f"{arbiter.get_username()} is an arbiter of this game already",
                           409) from None
    return appointment


def dismiss(game: RegistryGame, arbiter, *, by_user=None, by_body=None,
            reason: str = "") -> ArbiterAppointment:
    """End ``arbiter``'s appointment for ``game`` (kept, marked removed); audited."""
    with transaction.atomic():
        appointment = (ArbiterAppointment.objects.select_for_update()
                       .filter(game=game, user=arbiter, removed=None).first())
        if appointment is None:
            raise ArbiterError(f"{arbiter.get_username()} is not an arbiter of this game", 404)
        appointment.removed = timezone.now()
        appointment.save(update_fields=["removed"])
        AuditEntry.objects.create(
            action=AuditEntry.DISMISS, game=game, reason=reason, actor_user=by_user,
            actor_body=by_body, before={"arbiter": arbiter.get_username(),
                                        "body": game.body.registrar_id})
    return appointment


def arbiters_of(game: RegistryGame) -> list[ArbiterAppointment]:
    return list(ArbiterAppointment.objects.filter(game=game, removed=None)
                .select_related("user", "body"))


def may_arbitrate(live_game: Any, user) -> bool:
    """R39: whether ``user`` may act as arbiter on ``live_game`` (a ``play.Game``): an arbiter
    of the game's event (and nobody else on an event's game: not staff, not an appointment
    for the one game, except one the event's body appointed: issue 38), or for a game outside
    any event site staff or an arbiter appointed for the game by its body; never one of its
    players, never anyone else."""
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    if user.pk in (live_game.player_i_id, live_game.player_o_id):
        return False
    event = _event_of(live_game.pk)
    if event is not None:
        return get_user_model().objects.filter(pk=user.pk, arbiter_of=event).exists() or \
            ArbiterAppointment.objects.filter(
                game__live_id=live_game.pk, user=user, removed=None,
                body__events=event).exists()
    if user.is_staff:
        return True
    return ArbiterAppointment.objects.filter(
        game__live_id=live_game.pk, user=user, removed=None,
        body_id=_body_of(live_game)).exists()


def _event_of(live_id: int) -> int | None:
    """The id of the event whose round holds the live game ``live_id`` (R41), or None: a
    game outside any event. Read through the pairing's relation, so this module needs nothing
    of the events app but its table."""
    return (Game.objects.filter(pk=live_id)
            .values_list("event_pairing__round__event", flat=True).first())


def appointed_by(live_game: Any, user, body: AffiliatedBody) -> bool:
    """Whether ``body`` appointed ``user`` (still in office) for ``live_game``, or for the
    event of ``body`` the game belongs to: a body's token may then send that arbiter's
    decisions (club software acting for its arbiter)."""
    if user is None or not user.is_active or \
            user.pk in (live_game.player_i_id, live_game.player_o_id):
        return False
    if (event := _event_of(live_game.pk)) is not None:  # R39: the event's arbiters'
        return Game.objects.filter(pk=live_game.pk, event_pairing__round__event__arbiters=user,
                                   event_pairing__round__event__body=body).exists() or \
            ArbiterAppointment.objects.filter(game__live_id=live_game.pk, user=user,
                                              removed=None, body=body,
                                              body__events=event).exists()
    return ArbiterAppointment.objects.filter(game__live_id=live_game.pk, user=user,
                                             removed=None, body=body,
                                             game__body=body).exists()


def _body_of(live_game: Any) -> Any:
    """The id of the body a live game belongs to (its registry entry's), as a subquery."""
    return RegistryGame.objects.filter(live_id=live_game.pk).values("body_id")[:1]


def arbitrated_games(user) -> QuerySet:
    """The live games ``user`` may arbitrate (``may_arbitrate``): those of the events they
    arbitrate, those outside any event a body appointed them for, and for staff every game
    outside an event; never their own. The caller orders them (the console: the events'
    games first)."""
    live = Game.objects.filter(status=Game.LIVE)
    if user is None or not getattr(user, "is_authenticated", False):
        return live.none()
    mine = live.exclude(player_i=user).exclude(player_o=user)
    appointed = ArbiterAppointment.objects.filter(user=user, removed=None)
    allowed = Q(event_pairing__round__event__arbiters=user) | Q(
        event_pairing__isnull=True, pk__in=appointed.values("game__live_id")) | Q(
        pk__in=appointed.filter(  # one game of an event, by the event's body (issue 38)
            game__live__event_pairing__round__event__body=F("body")).values("game__live_id"))
    if user.is_staff:
        allowed |= Q(event_pairing__isnull=True)
    return mine.filter(pk__in=mine.filter(allowed).values("pk"))


def acted(live_game: Any, user, command: dict[str, Any], version: int,
          body: AffiliatedBody | None = None) -> None:
    """The audit entry of an arbiter's action on a live game (R39: with the arbiter's name)."""
    archived = RegistryGame.objects.filter(live_id=live_game.pk).first()
    AuditEntry.objects.create(
        action=AuditEntry.ARBITRATE, game=archived, reason=str(command.get("reason") or ""),
        actor_user=user, actor_body=body,
        after={**command, "arbiter": user.get_username(), "version": version,
               "game_id": str(live_game.uuid)})


def account(username: Any):
    """The active account named ``username``, or None."""
    if not isinstance(username, str) or not username.strip():
        return None
    return get_user_model().objects.filter(username=username.strip(), is_active=True).first()
