"""Accounts (sign up; log in/out are Django's) and player profiles."""

from __future__ import annotations

from django.contrib.auth import login
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from play.models import Game
from registry.forms import SignupForm
from registry.models import PROMOTION_LIMIT, Player


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("lobby")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("lobby")
    return render(request, "registration/signup.html", {"form": form})


def rating_chart(points: list[int], width: int = 480, height: int = 160, pad: int = 24) -> dict:
    """Coordinates of an inline-SVG rating-history line (no JavaScript, no library)."""
    if not points:
        return {}
    lo, hi = min(points), max(points)
    if hi == lo:
        lo, hi = lo - 10, hi + 10
    n = len(points)
    step = (width - 2 * pad) / max(n - 1, 1)

    def y(v: int) -> float:
        return round(height - pad - (v - lo) * (height - 2 * pad) / (hi - lo), 1)

    coords = [(round(pad + i * step, 1), y(v)) for i, v in enumerate(points)]
    return {
        "width": width, "height": height, "pad": pad,
        "polyline": " ".join(f"{x},{yy}" for x, yy in coords),
        "dots": [{"x": x, "y": yy, "v": v} for (x, yy), v in zip(coords, points, strict=True)],
        "lo": lo, "hi": hi, "y_lo": y(lo), "y_hi": y(hi),
    }


def profile(request, player_id: str):
    player = get_object_or_404(Player.objects.select_related("user"), player_id=player_id.upper())
    changes = list(player.rating_changes.select_related("game").order_by("created", "id"))
    points = [changes[0].old_rating] if changes else [player.rating]
    points += [c.rating_after for c in changes]
    games = (Game.objects.filter(Q(player_i=player.user) | Q(player_o=player.user))
             .select_related("player_i", "player_o").order_by("-created")[:30])
    limit = PROMOTION_LIMIT.get(player.stratum)
    return render(request, "registry/profile.html", {
        "p": player,
        "changes": list(reversed(changes))[:30],
        "chart": rating_chart(points),
        "games": games,
        "promotion_limit": limit,
        "win_rate": (round(100 * player.stratum_wins / player.stratum_games)
                     if player.stratum_games else None),
    })
