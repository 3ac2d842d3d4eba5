"""Lobby and game pages. Thin: the lobby's logic is ``play.lobby``, a game's view
``play.gameview``."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from play import gameview
from play.commands import arbiter as arbiter_commands
from play.computer.start import ComputerGameError, play_the_computer
from play.forms import ChallengeForm, ComputerForm
from play.games.clock import time_label
from play.live.delivery import wake_worker
from play.lobby import challenges
from play.models import Challenge, Game


def lobby(request):
    user = request.user
    ctx = {
        "form": ChallengeForm(),
        "computer_form": ComputerForm(auto_id="id_computer_%s"),
        "challenges": challenges.open_challenges_for(user)[:50],
        "live": gameview.live_games(),
        "finished": Game.objects.filter(status=Game.FINISHED)
        .select_related("player_i", "player_o").order_by("-finished")[:10],
    }
    # A finished game worth watching for a newcomer: the longest of the recent ones (a real
    # game, not a three-pass forfeit; the demo data's sample is one).
    recent = Game.objects.filter(status=Game.FINISHED).order_by("-created").only(
        "uuid", "version")[:50]  # the (status, -created) index: no scan of every game
    ctx["demo_game"] = max(recent, key=lambda g: g.version, default=None)
    if user.is_authenticated:
        ctx["mine"] = Challenge.objects.filter(creator=user, status=Challenge.OPEN)
        ctx["my_games"] = list(Game.objects.filter(
            Q(player_i=user) | Q(player_o=user), status=Game.LIVE
        ).select_related("player_i", "player_o"))
        ctx["my_game_ids"] = [str(g.uuid) for g in ctx["my_games"]]
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
def computer_new(request):
    """Play the computer: the game starts at once; if the computer has the first turn, the
    worker is woken to play it."""
    form = ComputerForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a variant, a level from 1 to 8 and a side.")
        return redirect("lobby")
    try:
        game = play_the_computer(request.user, **form.cleaned_data)
    except ComputerGameError as err:
        messages.error(request, str(err))
        return redirect("lobby")
    async_to_sync(wake_worker)()
    return redirect("game", game.uuid)


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


def game_page(request, game_id):
    game = get_object_or_404(Game.objects.select_related("player_i", "player_o"), uuid=game_id)
    side = game.side_of(request.user)
    initial = gameview.update_for(game, None, side)
    return render(request, "play/game.html", {
        "game": game,
        "side": side or "",
        "role": "player" if side else "spectator",
        "arbiter": not side and arbiter_commands.may_arbitrate(game, request.user),
        "initial": initial,
        "ws_path": f"/ws/game/{game.uuid}/",
    })
