"""The chat panel's start as JSON (issue 39): what a game page's panel reloads after its socket
comes back (messages sent or hidden meanwhile), the same as the page carries when it loads
(``play.chat.messages.page``)."""

from __future__ import annotations

from django.http import JsonResponse
from django.shortcuts import get_object_or_404

from play.chat import messages
from play.models import Game


def panel(request, game_id):
    game = get_object_or_404(Game.objects.select_related("player_i", "player_o"), uuid=game_id)
    side = game.side_of(request.user)
    return JsonResponse(messages.page(game, request.user, side))
