"""Tables of more than two seats (issue 37): open one, take a seat, give one to the computer,
leave, close; the game starts when every seat is held.

A challenge is between two players (``play.lobby.challenges``); a variant whose ``played``
seats number more (Talat's three) is played from a table. A signed-in person opens one (the
variant, its options as a challenge checks them, rated or casual, the time control) and sits
in the seat they choose; others take the open seats; the creator may give an open seat to the
computer at a level, where the game has a computer (``computer_for``), and take it back before
the start. A seated person may leave before the start; the creator closes the table instead.

Every change of a table's seats runs in one transaction holding the table's row
(``select_for_update``; SQLite's immediate transactions serialise them anyway), so two people
taking the last two seats at once, or the same last seat, start exactly one game: the seat is
taken by a conditional update (``user`` still empty), the open seats are counted under the
lock, and the table moves from open to started by another (``status`` still open). The same
person never holds two seats of a table (checked here, and a unique constraint beside it).

A game with a computer seat is casual whatever the table asked (A9); the computer's seats are
``ComputerGame`` rows, one per seat, which the worker plays (``play.computer.mover``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.urls import reverse

from play.chat import restrictions
from play.computer.account import computer_user
from play.games import clock
from play.games.registry import (
    checked_options,
    computer_for,
    full_title,
    variant_choices,
    variant_of,
)
from play.lifecycle import StartError, start_table
from play.models import ComputerGame, Game, Table, TableSeat, ThreeEntry
from talu_site import ratelimit


class TableError(ValueError):
    """A table request refused, in words a user can read."""


@dataclass(frozen=True)
class Started:
    """A table's game just started: its uuid and the persons seated (``users``: whom the
    lobby socket tells, ``delivery.announce_pairing``)."""

    game: str
    users: tuple[int, ...]
    computer: bool


def table_variants() -> list[tuple[str, str]]:
    """(key, label) of every variant played by more than two: what a table may be (the
    two-seat variants are challenged)."""
    return [(v, label) for v, label in variant_choices() if len(variant_of(v).played) > 2]


def _spec(variant: str):
    if variant not in dict(table_variants()):
        try:
            spec = variant_of(variant)
        except KeyError:
            raise TableError(f"unknown variant {variant!r}") from None
        raise TableError(f"{spec.title} is played by {len(spec.played)}: challenge a player "
                         "for it instead of opening a table")
    return variant_of(variant)


def _levels(variant: str) -> tuple[int, ...]:
    """The computer's levels for ``variant``, or a refusal where its game has no computer."""
    player = computer_for(variant)
    if player is None:
        raise TableError(f"the computer does not play {variant_of(variant).title}")
    return tuple(player.levels)


def default_level(variant: str) -> int:
    """The level the computer plays at when nobody chose one (the pool's filled seats): the
    middle of its levels."""
    levels = _levels(variant)
    return levels[(len(levels) - 1) // 2]


def open_table(user, variant: str, seat: str = "", rated: bool = True,
               time_control: str = "untimed", options: dict[str, Any] | None = None,
               address: str | None = None) -> Table:
    """Open a table of ``variant`` with ``user`` in ``seat`` (the variant's seat id; the
    first when empty). Limited like challenges: ``TALU_MAX_OPEN_CHALLENGES`` open tables a
    person, and the rate of opening them (``ratelimit`` "challenge")."""
    spec = _spec(variant)
    try:
        options = checked_options(variant, options or {})
    except ValueError as err:
        raise TableError(str(err)) from None
    try:
        time_control = str(clock.parse(time_control))
    except clock.TimeControlError as err:
        raise TableError(str(err)) from None
    seat = seat or spec.played[0]
    if seat not in spec.played:
        raise TableError(f"{spec.title} has no seat {seat!r}: its seats are "
                         + ", ".join(spec.played))
    if rated and (words := restrictions.rated_refusal(user)) is not None:
        raise TableError(words)
    refusal = ratelimit.limit("challenge").hit(str(user.pk))
    if refusal is None and address is not None:
        refusal = ratelimit.limit("challenge_address").hit(address)
    if refusal is not None:
        raise TableError(refusal.message("tables opened"))
    with transaction.atomic():
        # one person's openings take turns (their account's row locked), so the cap holds
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        cap = settings.TALU_MAX_OPEN_CHALLENGES
        if Table.objects.filter(creator=user, status=Table.OPEN).count() >= cap:
            raise TableError(f"you already have {cap} open tables: close one, or wait until "
                             "one starts")
        table = Table.objects.create(creator=user, game_key=spec.game, variant=spec.name,
                                     options=options, rated=rated, time_control=time_control)
        TableSeat.objects.bulk_create([
            TableSeat(table=table, seat=s, order=n, user=user if s == seat else None)
            for n, s in enumerate(spec.played)])
    return table


def _locked(table_id: int) -> Table:
    """The open table, its row held until the transaction ends; a refusal otherwise."""
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None or table.status != Table.OPEN:
        raise TableError("that table is no longer open" if table is None
                         or table.status == Table.CLOSED else "that table's game has started")
    return table


def _seat(table: Table, seat: str) -> TableSeat:
    row = TableSeat.objects.filter(table=table, seat=seat).first()
    if row is None:
        raise TableError(f"the table has no seat {seat!r}")
    return row


def take_seat(user, table_id: int, seat: str) -> Game | None:
    """Sit ``user`` in the open ``seat``; the game if that filled the table (it has started)."""
    with transaction.atomic():
        table = _locked(table_id)
        row = _seat(table, seat)
        if TableSeat.objects.filter(table=table, user=user).exists():
            raise TableError("you already sit at this table: one seat a person")
        if table.rated and (words := restrictions.rated_refusal(user)) is not None:
            raise TableError(words)
        try:
            with transaction.atomic():  # the constraint's refusal undoes only this
                taken = TableSeat.objects.filter(pk=row.pk, user__isnull=True,
                                                 level__isnull=True).update(user=user)
        except IntegrityError:  # the same person in another seat at the same moment
            raise TableError("you already sit at this table: one seat a person") from None
        if not taken:
            raise TableError(f"seat {row.seat} is taken")
        return _start_if_full(table)


def give_to_computer(user, table_id: int, seat: str, level: int | None = None) -> Game | None:
    """The creator gives the open ``seat`` to the computer at ``level`` (its game's levels);
    the game if that filled the table."""
    with transaction.atomic():
        table = _locked(table_id)
        if table.creator_id != user.pk:
            raise TableError("only the table's creator gives a seat to the computer")
        levels = _levels(table.variant_key)
        level = default_level(table.variant_key) if level is None else level
        if not isinstance(level, int) or level not in levels:
            raise TableError(f"the computer's level is a number from {min(levels)} to "
                             f"{max(levels)}")
        if clock.parse(table.time_control).kind == clock.CORRESPONDENCE:
            raise TableError("the computer plays untimed or on a live clock, not by "
                             "correspondence")
        row = _seat(table, seat)
        if not TableSeat.objects.filter(pk=row.pk, user__isnull=True,
                                        level__isnull=True).update(level=level):
            raise TableError(f"seat {row.seat} is taken")
        return _start_if_full(table)


def take_back(user, table_id: int, seat: str) -> None:
    """The creator takes a computer's seat back (open again) before the start."""
    with transaction.atomic():
        table = _locked(table_id)
        if table.creator_id != user.pk:
            raise TableError("only the table's creator takes a computer's seat back")
        row = _seat(table, seat)
        if not TableSeat.objects.filter(pk=row.pk, level__isnull=False).update(level=None):
            raise TableError(f"the computer does not hold seat {row.seat}")


def leave(user, table_id: int) -> None:
    """A seated person leaves before the start; the creator closes the table instead."""
    with transaction.atomic():
        table = _locked(table_id)
        if table.creator_id == user.pk:
            raise TableError("you opened this table: close it instead of leaving it")
        if not TableSeat.objects.filter(table=table, user=user).update(user=None):
            raise TableError("you do not sit at this table")


def close(user, table_id: int) -> None:
    """The creator closes the open table; nobody plays at it."""
    with transaction.atomic():
        table = _locked(table_id)
        if table.creator_id != user.pk:
            raise TableError("only the table's creator closes it")
        Table.objects.filter(pk=table.pk, status=Table.OPEN).update(status=Table.CLOSED)


def take_out(user) -> bool:
    """A deactivated account (``play.lobby.deactivation``) leaves the open tables: its seats
    open again, the tables it opened closed, and out of the pool for three; whether anything
    changed."""
    with transaction.atomic():
        closed = Table.objects.filter(creator=user, status=Table.OPEN).update(
            status=Table.CLOSED)
        freed = TableSeat.objects.filter(user=user, table__status=Table.OPEN).update(user=None)
        gone = ThreeEntry.objects.filter(user=user, status=ThreeEntry.WAITING).delete()[0]
    return bool(closed or freed or gone)


def _start_if_full(table: Table) -> Game | None:
    """Start the table's game when no seat is open (inside the caller's transaction, the
    table's row held): persons in their seats, the computer's account in its own (a
    ``ComputerGame`` row each, at its level); casual where a computer sits (A9)."""
    seats = list(TableSeat.objects.filter(table=table).select_related("user").order_by("order"))
    if any(s.is_open for s in seats):
        return None
    if not Table.objects.filter(pk=table.pk, status=Table.OPEN).update(status=Table.STARTED):
        return None  # started (or closed) meanwhile: not twice
    return start_seated(table.variant_key, seats, rated=table.rated,
                        time_control=table.time_control, options=table.options or None,
                        table=table)


def start_seated(variant: str, seats: list[TableSeat], rated: bool, time_control: str,
                 options: dict[str, Any] | None = None, table: Table | None = None) -> Game:
    """Start the game of ``seats`` (in playing order; each a person's or the computer's at a
    level; saved or not), inside the caller's transaction: the pool for three starts its
    games here too. Not rated with a computer seat (A9)."""
    computers = [s for s in seats if s.user_id is None]
    robot = computer_user() if computers else None
    players = [s.user if s.user_id is not None else robot for s in seats]
    try:
        game = start_table(variant, players, rated=rated and not computers,
                           time_control=time_control, options=options)
    except StartError as err:
        raise TableError(str(err)) from None
    ComputerGame.objects.bulk_create([ComputerGame(game=game, side=s.seat, level=s.level)
                                      for s in computers])
    if table is not None:
        Table.objects.filter(pk=table.pk).update(game=game)
    return game


def started(game: Game) -> Started:
    """What the lobby socket tells of a table's new game."""
    users = tuple(game.seats.filter(kind="person").values_list("user_id", flat=True))
    return Started(str(game.uuid), users,
                   ComputerGame.objects.filter(game=game).exists())


def open_tables(limit: int = 50) -> list[Table]:
    """The open tables, newest first, with their seats and who holds them: of the variants
    the catalogue plays (a game taken out of it leaves its tables unlisted, not a broken
    lobby)."""
    known = dict(table_variants())
    return [t for t in Table.objects.filter(status=Table.OPEN).select_related("creator")
            .prefetch_related("seats__user")[:limit] if t.variant_key in known]


def table_json(table: Table, viewer=None) -> dict[str, Any]:
    """A table as the lobby shows it (its page and its poll alike): the seats with who sits,
    which are open, and what ``viewer`` may do at each."""
    me = getattr(viewer, "pk", None) if getattr(viewer, "is_authenticated", False) else None
    spec = variant_of(table.variant_key)
    mine = table.creator_id == me
    seated = any(s.user_id == me for s in table.seats.all()) if me else False
    computer = computer_for(table.variant_key) is not None
    seats = []
    for s in table.seats.all():
        who = (s.user.get_username() if s.user_id is not None
               else f"computer (level {s.level})" if s.level is not None else None)
        seats.append({
            "seat": s.seat, "label": spec.label(s.seat), "who": who,
            "open": s.is_open, "computer": s.level is not None,
            "may_take": bool(me) and s.is_open and not seated,
            "may_give": mine and s.is_open and computer,
            "may_take_back": mine and s.level is not None,
            "may_leave": s.user_id == me and not mine and me is not None,
        })
    has_computer = any(s.level is not None for s in table.seats.all())
    return {"id": table.pk, "variant": table.variant_key,
            "title": full_title(table.variant_key), "creator": table.creator.get_username(),
            "rated": table.rated and not has_computer, "time": table.time_label,
            "mine": mine, "seats": seats,
            "levels": list(_levels(table.variant_key)) if mine and computer else [],
            "url": reverse("lobby") + f"#table-{table.pk}"}
