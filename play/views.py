"""Lobby and game pages. Thin: the lobby's logic is ``play.lobby``, a game's view
``play.gameview``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from play import gameview
from play.forms import ChallengeForm
from play.games.clock import time_label
from play.lobby import challenges, mygames
from play.models import Challenge, Game


def lobby(request):
    user = request.user
    ctx = {
        "form": ChallengeForm(),
        "challenges": challenges.open_challenges_for(user)[:50],
        "live": gameview.live_games(),
        "finished": Game.objects.filter(status=Game.FINISHED)
        .select_related("player_i", "player_o").order_by("-finished")[:10],
    }
    if user.is_authenticated:
        ctx["mine"] = Challenge.objects.filter(creator=user, status=Challenge.OPEN)
        ctx["my_games"] = Game.objects.filter(
            Q(player_i=user) | Q(player_o=user), status=Game.LIVE
        ).select_related("player_i", "player_o")
    return render(request, "play/lobby.html", ctx)


def lobby_state(request):
    """Polled by the lobby page: open challenges, live games, and the user's new games."""
    user = request.user
    data = {
        "challenges": [
            {"id": c.pk, "creator": c.creator.get_username(),
             "opponent": c.opponent.get_username() if c.opponent else None,
             "variant": c.variant, "rated": c.rated,
             "time_control": c.time_control, "time": time_label(c.time_control)}
            for c in challenges.open_challenges_for(user)[:50]
        ],
        "live": [
            {"id": str(g.uuid), "url": reverse("game", args=[g.uuid]), "variant": g.variant,
             "I": g.player_i.get_username(), "O": g.player_o.get_username(), "rated": g.rated,
             "time": time_label(g.time_control)}
            for g in gameview.live_games()
        ],
        "my_games": [],
    }
    if user.is_authenticated:
        data["my_games"] = [
            {"id": str(g.uuid), "url": reverse("game", args=[g.uuid])}
            for g in Game.objects.filter(Q(player_i=user) | Q(player_o=user), status=Game.LIVE)
        ]
    return JsonResponse(data)


@login_required
@require_POST
def challenge_new(request):
    form = ChallengeForm(request.POST)
    if not form.is_valid():
        words = "; ".join(e for errs in form.errors.values() for e in errs)
        messages.error(request, f"The challenge was not valid: {words}")
        return redirect("lobby")
    try:
        challenges.open_challenge(request.user, **form.cleaned_data)
    except challenges.ChallengeError as err:
        messages.error(request, str(err))
    else:
        messages.success(request, "Challenge opened. The game starts when it is accepted.")
    return redirect("lobby")


@login_required
@require_POST
def challenge_accept(request, pk: int):
    try:
        game = challenges.accept_challenge(request.user, pk)
    except challenges.ChallengeError as err:
        messages.error(request, str(err))
        return redirect("lobby")
    return redirect("game", game.uuid)


@login_required
@require_POST
def challenge_cancel(request, pk: int):
    try:
        challenges.cancel_challenge(request.user, pk)
    except challenges.ChallengeError as err:
        messages.error(request, str(err))
    return redirect("lobby")


@login_required
def my_games_page(request):
    """The player's games in play, "your turn" first, by time left (correspondence)."""
    return render(request, "play/mygames.html", {"games": mygames.my_games(request.user)})


def game_page(request, game_id):
    game = get_object_or_404(Game.objects.select_related("player_i", "player_o"), uuid=game_id)
    side = game.side_of(request.user)
    initial = gameview.update_for(game, None, side)
    return render(request, "play/game.html", {
        "game": game,
        "side": side or "",
        "role": "player" if side else "spectator",
        "initial": initial,
        "ws_path": f"/ws/game/{game.uuid}/",
    })
