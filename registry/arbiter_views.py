"""The arbiter's console (R39): the live games an arbiter may act on, with their warning signs.

The page lists the games (the arbiter's appointments; every live game but their own for
staff) and polls ``/arbiter/state.json`` for the signs of each (R12-R14: the non-engagement
flag and runs, turns counting as passes, stalls), like the lobby polls its state. A game opens
on its own page, where an arbiter gets the same signs per turn and the actions
(``templates/play/game.html``). Reading only: the actions go through the one command path
(``play.commands.arbiter``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.urls import reverse

from play.commands import arbiter as arbiter_commands
from play.games.talu.signs import warning_signs
from play.models import Game
from play.store import engines
from registry import arbiters

MAX_GAMES = 50  # on one console (each is read from its state; staff see every live game)


def signs_of(game: Game) -> dict[str, Any]:
    """One game as the console shows it: who plays, where it stands, its warning signs."""
    state = engines.take(game)
    try:
        engine = state.engine
        signs = warning_signs(engine)
        side = engine.side_to_move
        row = {"id": str(game.uuid), "url": reverse("game", args=[game.uuid]),
               "I": game.player_i.get_username(), "O": game.player_o.get_username(),
               "variant": game.variant, "version": game.version, "round": engine.round,
               "to_move": side.value if side else None,
               "arbiter": [d.to_dict() for d in engine.arbiter], "signs": signs}
    finally:
        engines.put(game, state)
    return row


def _games(user) -> list[Game]:
    return list(arbiters.arbitrated_games(user).select_related("player_i", "player_o")
                .order_by("-created")[:MAX_GAMES])


@login_required
def console(request):
    games = [signs_of(g) for g in _games(request.user)]
    return render(request, "registry/arbiter_console.html", {"games": games})


@login_required
def console_state(request):
    return JsonResponse({"games": [signs_of(g) for g in _games(request.user)]})


@login_required
def game_signs(request, game_id):
    """One game's signs, for the arbiter panel of its page (refreshed after each update)."""
    game = Game.objects.select_related("player_i", "player_o").filter(uuid=game_id).first()
    if game is None or not arbiter_commands.may_arbitrate(game, request.user):
        raise Http404("No game of yours to arbitrate here.")
    return JsonResponse(signs_of(game))
