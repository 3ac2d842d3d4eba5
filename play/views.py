"""Lobby, game pages and record downloads. Logic lives in ``play.services``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from play import services
from play.forms import ChallengeForm
from play.models import Challenge, Game
from registry.models import GameRecord


def lobby(request):
    user = request.user
    ctx = {
        "form": ChallengeForm(),
        "challenges": services.open_challenges_for(user)[:50],
        "live": services.live_games(),
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
             "variant": c.variant, "rated": c.rated}
            for c in services.open_challenges_for(user)[:50]
        ],
        "live": [
            {"id": str(g.uuid), "url": reverse("game", args=[g.uuid]), "variant": g.variant,
             "I": g.player_i.get_username(), "O": g.player_o.get_username(), "rated": g.rated}
            for g in services.live_games()
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
        messages.error(request, "The challenge was not valid.")
        return redirect("lobby")
    try:
        services.open_challenge(request.user, **form.cleaned_data)
    except services.ServiceError as err:
        messages.error(request, str(err))
    else:
        messages.success(request, "Challenge opened. The game starts when it is accepted.")
    return redirect("lobby")


@login_required
@require_POST
def challenge_accept(request, pk: int):
    try:
        game = services.accept_challenge(request.user, pk)
    except services.ServiceError as err:
        messages.error(request, str(err))
        return redirect("lobby")
    return redirect("game", game.uuid)


@login_required
@require_POST
def challenge_cancel(request, pk: int):
    try:
        services.cancel_challenge(request.user, pk)
    except services.ServiceError as err:
        messages.error(request, str(err))
    return redirect("lobby")


def game_page(request, game_id):
    game = get_object_or_404(Game.objects.select_related("player_i", "player_o"), uuid=game_id)
    side = game.side_of(request.user)
    initial = services.sync(game.uuid)
    return render(request, "play/game.html", {
        "game": game,
        "side": side or "",
        "role": "player" if side else "spectator",
        "initial": initial,
        "ws_path": f"/ws/game/{game.uuid}/",
    })


def game_record(request, game_id, kind: str, session: int = 0):
    game = get_object_or_404(Game, uuid=game_id)
    kind = kind.upper()
    if kind not in dict(GameRecord.KINDS):
        raise Http404("no such record")
    rec = (GameRecord.objects.filter(game__live=game, kind=kind, session=session, superseded=False)
           .select_related("game").order_by("-revision").first())
    if rec is None:
        raise Http404("no such record")
    ctype = "text/plain" if kind == "STGN" else "application/yaml"
    resp = HttpResponse(rec.content, content_type=f"{ctype}; charset=utf-8")
    resp["Content-Disposition"] = f'attachment; filename="{rec.filename}"'
    return resp
