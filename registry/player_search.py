"""Finding people (issue 39): a player search by name, username or player id, from the site's
header, answering a list of profiles. Read-only and cheap: at most ``LIMIT`` rows, one query;
the query text goes through the site's one text check, so junk gets words, never a 500."""

from __future__ import annotations

from django.db.models import Q
from django.shortcuts import render

from play.games.text import TextError, clean_name
from registry.models import Player
from registry.scoring import strata

LIMIT = 50


def find(q: str) -> list[Player]:
    """Players whose username or display name holds ``q``, or whose id starts with it; an
    exact name first, then by name."""
    wanted = Q(user__username__icontains=q) | Q(display_name__icontains=q)
    if len(q) >= 4 and q.upper().isalnum():
        wanted |= Q(player_id__startswith=q.upper())
    found = list(Player.objects.filter(wanted).select_related("user", "body")[:LIMIT * 4])
    found.sort(key=lambda p: (p.name.lower() != q.lower(), p.name.lower()))
    return found[:LIMIT]


def search(request):
    """``/players/?q=ana``: the players found, each with a link to their profile."""
    raw = (request.GET.get("q") or "").strip()[:100]
    error, q, players = "", "", []
    if raw:
        try:
            q = clean_name(raw)
        except TextError as err:
            error = f"That search {err}."
        else:
            players = find(q)
    return render(request, "registry/player_search.html",
                  {"q": q or raw, "players": players, "error": error, "limit": LIMIT,
                   "is_id": strata.is_player_id(q.upper()) if q else False},
                  status=400 if error else 200)
