"""The arbiter's console (R39): the live games an arbiter may act on, with their warning signs.

The page lists the games (the arbiter's appointments; every live game but their own for
staff) and polls ``/arbiter/state.json`` for the signs of each (R12-R14: the non-engagement
flag and runs, turns counting as passes, stalls; R36-R37: the clocks and each player's
absence), like the lobby polls its state. A game opens
on its own page, where an arbiter gets the same signs per turn and the actions
(``templates/play/game.html``). Reading only: the actions go through the one command path
(``play.commands.arbiter``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import F
from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from play.commands import arbiter as arbiter_commands
from play.games.clock import ms, parse
from play.games.registry import rules_of, seat_words, variant_label, variant_of
from play.games.talu.signs import warning_signs
from play.live import presence
from play.models import Game
from play.store import engines
from registry import arbiters
from registry.services import is_book_game

MAX_GAMES = 50  # on one console (each is read from its state; staff see every live game)


def signs_of(game: Game, away: dict[str, Any] | None = None) -> dict[str, Any]:
    """One game as the console shows it: who plays, where it stands, its warning signs, its
    clocks and its players' absences (``away``: ``presence.away_sides`` of this game, read
    here when not given)."""
    now = timezone.now()
    if away is None:
        away = presence.away_sides([game])[game.pk]
    state = engines.take(game)
    try:
        engine = state.engine
        match = rules_of(state)
        names = {seat: user.get_username() for seat, user in game.holders()}
        seats = list(variant_of(game.variant_key).played)
        book = is_book_game(game.game)  # talu's warning signs (R12-R14) and turn numbers
        side = engine.side_to_move if book else None
        to_move = (side.value if side else None) if book else match.side_to_move(state)
        row = {"id": str(game.uuid), "url": reverse("game", args=[game.uuid]),
               "I": names.get(seats[0], ""), "O": names.get(seats[-1], ""),
               "players": [{"seat": seat, "label": seat_words(seat, game.variant_key),
                            "name": names.get(seat, "")} for seat in seats],
               "variant": variant_label(game.variant_key), "version": game.version,
               "round": engine.round if book else match.rules.turns(engine) + 1,
               "to_move": to_move or None,
               "arbiter": [d.to_dict() for d in engine.arbiter] if book else [],
               "signs": warning_signs(engine) if book else None,
               "clock": _clock(state.clock, ms(now)),
               "absence": _absence(away, game.time_control, now, seats),
               "event": _event_of(game)}
    finally:
        engines.put(game, state)
    return row


def _event_of(game: Game) -> dict[str, Any] | None:
    """The event round and board of an event's game (what an arbiter calls its "round"; the
    game's own ``round`` is its turn number, R8), or None outside any event."""
    from registry.events.models import Pairing

    p = (Pairing.objects.filter(game_id=game.pk).select_related("round__event")
         .values("round__event_id", "round__event__name", "round__number", "board").first())
    if p is None:
        return None
    return {"name": p["round__event__name"], "round": p["round__number"], "board": p["board"],
            "url": reverse("event", args=[p["round__event_id"]]) + f"?round={p['round__number']}"}


def _clock(clock: Any, now: int) -> dict[str, Any] | None:
    """A timed game's clocks now (R36): each side's time left in all (ms), which runs, who is
    still in the opening turn; None for an untimed game. The console counts the running one
    down between its polls from ``server_time``."""
    if clock is None:
        return None
    return {"control": str(clock.tc), "label": clock.tc.label(),
            "left": {side: clock.left(side, now) for side in clock.seats},
            "running": clock.running, "opening": sorted(clock.opening), "server_time": now}


def _absence(away: dict[str, Any], time_control: str, now,
             seats: list[str] | None = None) -> dict[str, Any]:
    """Each side's absence (R37): ``gone`` ms since every connection of its player closed
    (None: connected), the game's claim ``limit`` (None: untimed and correspondence games
    are never claimed) and whether the opponent may claim now."""
    limit = parse(time_control).absence_ms
    out: dict[str, Any] = {}
    for side in seats or ("I", "O"):
        since = away.get(side)
        gone = None if since is None else max(0, int((now - since).total_seconds() * 1000))
        out[side] = {"gone": gone, "limit": limit,
                     "claimable": gone is not None and limit is not None and gone >= limit}
    return out


def _games(user) -> list[Game]:
    # R39: the games of the arbiter's events first (the console's first purpose), newest first
    return list(arbiters.arbitrated_games(user).select_related("player_i", "player_o")
                .order_by(F("event_pairing__id").desc(nulls_last=True), "-created")[:MAX_GAMES])


def _rows(user) -> list[dict[str, Any]]:
    games = _games(user)
    away = presence.away_sides(games)
    return [signs_of(g, away[g.pk]) for g in games]


@login_required
def console(request):
    return render(request, "registry/arbiter_console.html", {"games": _rows(request.user)})


@login_required
def console_state(request):
    return JsonResponse({"games": _rows(request.user)})


@login_required
def game_signs(request, game_id):
    """One game's signs, for the arbiter panel of its page (refreshed after each update)."""
    game = Game.objects.select_related("player_i", "player_o").filter(uuid=game_id).first()
    if game is None or not arbiter_commands.may_arbitrate(game, request.user):
        raise Http404("No game of yours to arbitrate here.")
    return JsonResponse(signs_of(game))
