"""The lobby's tables of more than two seats and its pool for three (issue 37). Thin: the
rules are ``play.lobby.tables`` and ``play.lobby.pool_three``.

Plain forms that come back to the lobby with a message (the lobby's script needs none of its
own to post them), or go to the game when the request started it; every change tells every
lobby page (``play.live.lobby``), whose poll then shows the table as it is, and the seated
players of a game just started are sent to it (``delivery.announce_pairing``, and the lobby's
poll of their games as a fallback)."""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from play.games import clock
from play.games.registry import computer_for, variant_of
from play.live import lobby as lobby_live
from play.live.delivery import announce_pairing, wake_computer
from play.lobby import pool_three, tables
from play.models import Game
from talu_site import clientaddr


def offered() -> bool:
    """Whether the lobby shows tables and the pool for three: only while the catalogue has a
    game of more than two seats (none on the live site until Talat is registered)."""
    return bool(tables.table_variants())


def lobby_context(user) -> dict[str, Any]:
    """What the lobby page adds for tables (nothing while no game has more seats)."""
    if not offered():
        return {"tables_offered": False}
    variants = tables.table_variants()
    seats = {v: [[s, variant_of(v).label(s)] for s in variant_of(v).played]
             for v, _ in variants}
    return {"tables_offered": True,
            "table_variants": variants,
            "table_seats": seats,
            "table_seats_first": seats[variants[0][0]],
            # the pool's computer seats only where the game has a computer
            "three_computer": computer_for(variants[0][0]) is not None,
            "time_presets": clock.PRESETS,
            "tables": [tables.table_json(t, user) for t in tables.open_tables()],
            "three_pools": pool_three.listing(),
            "three": pool_three.state(user),
            "fill_choices": pool_three.FILL_CHOICES}


def lobby_state(user) -> dict[str, Any]:
    """What the lobby's poll adds (``lobby/state.json``)."""
    if not offered():
        return {}
    return {"tables": [tables.table_json(t, user) for t in tables.open_tables()],
            "three": pool_three.state(user)}


def _started(game: Game | None):
    """Tell the seated players of a game a table has just started, and the computer."""
    if game is None:
        return None
    news = tables.started(game)
    async_to_sync(announce_pairing)(news)
    if news.computer:  # a computer seat may act first
        async_to_sync(wake_computer)()
    return redirect("game", game.uuid)


def _changed() -> None:
    async_to_sync(lobby_live.notify)()


def _level(request) -> int | None:
    raw = request.POST.get("level", "")
    return int(raw) if raw.isdigit() and len(raw) < 4 else None


@login_required
@require_POST
def table_open(request):
    data = request.POST
    time_control = data.get("time", "untimed")
    if time_control == "custom":
        time_control = data.get("custom_time", "")
    variant = data.get("variant", "")
    try:
        table = tables.open_table(
            request.user, variant, seat=data.get("seat", ""),
            rated=data.get("rated", "1") == "1", time_control=time_control,
            options=dict.fromkeys(data.getlist("options"), True),
            address=clientaddr.limit_key(clientaddr.of_request(request)))
    except tables.TableError as err:
        messages.error(request, f"The table was not opened: {err}.")
        return redirect("lobby")
    _changed()
    messages.success(request, f"Table opened: {table.variant_key} {table.time_label}. The "
                              "game starts when every seat is held.")
    return redirect("lobby")


def _seat_action(request, pk: int, act, done: str):
    try:
        game = act()
    except tables.TableError as err:
        messages.error(request, f"{str(err)[:1].upper()}{str(err)[1:]}.")
        return redirect("lobby")
    _changed()
    started = _started(game)
    if started is not None:
        return started
    messages.success(request, done)
    return redirect("lobby")


@login_required
@require_POST
def table_take(request, pk: int):
    seat = request.POST.get("seat", "")
    return _seat_action(request, pk, lambda: tables.take_seat(request.user, pk, seat),
                        "You took a seat: the game starts when every seat is held.")


@login_required
@require_POST
def table_give(request, pk: int):
    seat = request.POST.get("seat", "")
    level = _level(request)
    return _seat_action(request, pk,
                        lambda: tables.give_to_computer(request.user, pk, seat, level),
                        "The computer sits in that seat.")


@login_required
@require_POST
def table_take_back(request, pk: int):
    seat = request.POST.get("seat", "")
    return _seat_action(request, pk, lambda: tables.take_back(request.user, pk, seat),
                        "The seat is open again.")


@login_required
@require_POST
def table_leave(request, pk: int):
    return _seat_action(request, pk, lambda: tables.leave(request.user, pk),
                        "You left the table.")


@login_required
@require_POST
def table_close(request, pk: int):
    return _seat_action(request, pk, lambda: tables.close(request.user, pk),
                        "The table is closed.")


def _answer(request, ok: bool, text: str, status: int | None = None):
    """JSON for a script that asks for it, else back to the lobby with the words."""
    if request.headers.get("Accept", "").startswith("application/json"):
        return JsonResponse({"ok": ok, "message": text,
                             "three": pool_three.state(request.user)},
                            status=status or (200 if ok else 400))
    (messages.success if ok else messages.error)(request, text)
    return redirect("lobby")


@login_required
@require_POST
def three_join(request):
    """The pool for three: a preset's button (``pool``: "time control|rated") and the wait
    before the computer fills the empty seats (``fill_after``, minutes; 0 never)."""
    time_control, _, rated = request.POST.get("pool", "").partition("|")
    raw = request.POST.get("fill_after", "0")
    fill = int(raw) if raw.isdigit() and len(raw) < 3 else -1
    try:
        entry = pool_three.join(request.user, request.POST.get("variant", ""), time_control,
                                rated=rated == "1", fill_after=fill,
                                address=clientaddr.limit_key(clientaddr.of_request(request)))
    except pool_three.PoolThreeError as err:
        return _answer(request, False, str(err))
    _changed()
    fill_words = (f"; the computer fills the empty seats after {entry.fill_after} min"
                  if entry.fill_after else "")
    return _answer(request, True, f"Waiting for two more players: {entry.variant} "
                                  f"{entry.time_label} {'rated' if entry.rated else 'casual'}"
                                  f"{fill_words}.")


@login_required
@require_POST
def three_leave(request):
    try:
        left = pool_three.leave(request.user)
    except pool_three.PoolThreeError as err:
        if request.POST.get("beacon"):
            return HttpResponse(status=429)
        return _answer(request, False, str(err), status=429)
    if left:
        _changed()
    if request.POST.get("beacon"):
        return HttpResponse(status=204)
    return _answer(request, left, "You left the pool for three." if left
                   else "You are not waiting in the pool for three.")
