"""Accounts (sign up; log in/out are Django's), player profiles, the leaderboards and the
downloads of a site game's records."""

from __future__ import annotations

from datetime import datetime

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from registry import logins
from registry.accounts import verify
from registry.forms import AnpcForm, LoginForm, SignupForm
from registry.models import GameRecord, Player, RegistryGame
from registry.profiles import profile_of, rating_history
from registry.scoring import strata
from registry.scoring.strata import STRATA
from registry.services import player_of
from talu_site import clientaddr, ratelimit

SIGNUP_ADDRESS = ratelimit.limit("signup_address")


def _refused(request, template: str, context: dict, refusal: ratelimit.Refusal, what: str):
    """The page again with the limit's words, as a 429 with Retry-After."""
    messages.error(request, refusal.message(what))
    response = render(request, template, context, status=429)
    response["Retry-After"] = str(refusal.retry_after)
    return response


class LoginView(auth_views.LoginView):
    """Django's log-in. Its limits on failed attempts (issue 27, finding 10) are those of
    every way to log in, kept by the authentication backend (``registry.logins``); here a
    refused attempt is answered 429 with Retry-After, the form saying when to try again."""

    authentication_form = LoginForm

    def form_invalid(self, form):
        response = super().form_invalid(form)
        refusal = logins.refusal_of(self.request)
        if refusal is not None:
            response.status_code = 429
            response["Retry-After"] = str(refusal.retry_after)
        return response


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("lobby")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        # Accounts made from one address (issue 27): counted when one would be made.
        refusal = SIGNUP_ADDRESS.hit(clientaddr.limit_key(clientaddr.of_request(request)))
        if refusal is not None:
            # a club night signs many players up from one address (issue 38): the way round
            messages.info(request, "Signing up at a club event? Ask the event's registrar to "
                                   "register you: they can enter you from the event's page.")
            return _refused(request, "registration/signup.html", {"form": form}, refusal,
                            "new accounts from your address")
        user = form.save()
        if form.cleaned_data["email"]:  # issue 39: used once its link is followed
            verify.ask(user, form.cleaned_data["email"])
            messages.info(request, f"We sent a link to {form.cleaned_data['email']}: open it "
                                   f"to confirm your address.")
        login(request, user, backend="registry.logins.LimitedModelBackend")
        return redirect("lobby")
    return render(request, "registration/signup.html", {"form": form})


def rating_chart(points: list[int], width: int = 480, height: int = 160, pad: int = 24,
                 dates: list[datetime | None] | None = None) -> dict:
    """Coordinates of an inline-SVG rating-history line (no JavaScript, no library), with its
    axes in words: "rating" up the side, and along the bottom the dates of the first, middle
    and last points (``dates``, one per point), or "first game" and "latest" without them
    (issue 39: the line alone had no dates or axis)."""
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
    when = [_day(d) for d in dates] if dates and len(dates) == n else [""] * n
    if any(when):
        picks = [(0, "start"), (n // 2, "middle"), (n - 1, "end")] if n > 2 else \
            [(0, "start"), (n - 1, "end")]
        shown: set[str] = set()
        x_labels = []
        for i, anchor in picks:
            if when[i] and when[i] not in shown:
                shown.add(when[i])
                x_labels.append({"x": str(coords[i][0]), "text": when[i], "anchor": anchor})
    else:
        x_labels = [{"x": str(coords[0][0]), "text": "first game", "anchor": "start"},
                    {"x": str(coords[-1][0]), "text": "latest", "anchor": "end"}]
    return {
        "width": width, "height": height, "pad": pad,
        "polyline": " ".join(f"{x},{yy}" for x, yy in coords),
        # Text already: the template would localise each of up to 600 numbers (a third of
        # the busiest profile's rendering time, BENCHMARKS.md issue 6).
        "dots": [{"x": str(x), "y": str(yy), "v": str(v), "when": w}
                 for (x, yy), v, w in zip(coords, points, when, strict=True)],
        "lo": lo, "hi": hi, "y_lo": y(lo), "y_hi": y(hi),
        "x_labels": x_labels, "y_dates": height - 4,
    }


def _day(at: datetime | None) -> str:
    """A chart's date: "Nov 28, 2026" (the same as the history table's ``M j, Y``)."""
    if at is None:
        return ""
    at = timezone.localtime(at) if timezone.is_aware(at) else at
    return f"{at:%b} {at.day}, {at.year}"


CHART_POINTS = 200
HEAVY_GAME_FIELDS = ("stgn", "tally", "figures")
RECENT = 30
PAGE_SIZE = 50


def _thin(points: list, limit: int = CHART_POINTS) -> list:
    """At most ``limit`` points of a long history, first and last kept (the chart's shape)."""
    if len(points) <= limit:
        return points
    step = (len(points) - 1) / (limit - 1)
    return [points[round(i * step)] for i in range(limit)]


def profile(request, player_id: str):
    """A player's page (book 6.6): rating, stratum, promotion progress, R29 metrics, PSF (R27)
    for S3, rating history and recent games. A constant number of queries, whatever the
    number of games."""
    if not strata.is_player_id(player_id.upper()):
        # Not an id at all (a NUL, which PostgreSQL's text refuses, or any other junk): no
        # such page, without asking the database.
        raise Http404("no such player")
    player = get_object_or_404(Player.objects.select_related("user", "body"),
                               player_id=player_id.upper())
    phases = list(player.phase_rating_changes.select_related("phase").order_by("-played_at"))
    history = rating_history(player, phases)
    points = [v for _, v in history]
    # The games' notation, tally and figures are not shown: not read (about a third of the
    # busiest profile's database time at 100,000 games, BENCHMARKS.md issue 6).
    changes = list(player.rating_changes.select_related("game__player_i", "game__player_o")
                   .defer(*(f"game__{f}" for f in HEAVY_GAME_FIELDS))
                   .order_by("-played_at", "-game_id")[:RECENT])
    games = list(RegistryGame.objects.filter(Q(player_i=player) | Q(player_o=player))
                 .exclude(status=RegistryGame.PLAYING)
                 # the live game's row for the decision's cause (R37: time, resignation...)
                 .select_related("player_i__user", "player_o__user", "body", "live")
                 .defer(*HEAVY_GAME_FIELDS, "live__stgn")
                 .order_by("-played_at", "-id")[:RECENT])
    own = request.user.is_authenticated and player.user_id == request.user.pk
    return render(request, "registry/profile.html", {
        "p": player,
        # aNPc moves only the S3 performance safety floor (R27): offered to S3 players only.
        "anpc_form": AnpcForm(initial={"anpc": player.anpc})
        if own and player.stratum == strata.TOP_STRATUM else None,
        "m": (m := profile_of(player)),
        "ei_words": _ei_words(m.get("ei_percent")),
        "changes": changes,
        # One point (no rated game yet) is no history: the words say so, not a lone dot.
        "chart": rating_chart(_thin(points), dates=_thin([at for at, _ in history]))
        if len(points) > 1 else {},
        "games": games,
        "strata": list(player.strata.all()),
        "phases": phases,
    })


def _ei_words(ei: float | None) -> str:
    """R29's exposure index in words beside its figure (issue 39: "-82.4%" meant nothing
    without the help): whether the player's opponents were weaker or stronger than them."""
    if not ei:
        return "your opponents were as strong as you" if ei == 0 else ""
    return ("your opponents were weaker than you" if ei < 0 else
            "your opponents were stronger than you")


def leaderboard(request, code: str | None = None):
    """Players ranked by rating within a stratum (R26): all three (top ten each) or one,
    paginated. Players appear after their first rated game."""
    if code is None:
        boards = []
        for number, stratum in STRATA.items():
            top = list(Player.objects.ranked(number).select_related("user")[:10])
            boards.append({"code": stratum.code, "name": stratum.name, "players": top})
        return render(request, "registry/leaderboard.html", {"boards": boards})
    number = {s.code: n for n, s in STRATA.items()}.get(code.upper())
    if number is None:
        raise Http404("no such stratum: S1, S2 or S3")
    ranked = Player.objects.ranked(number).select_related("user")
    page = Paginator(ranked, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "registry/leaderboard.html", {"stratum": STRATA[number],
                                                         "page": page})


@login_required
@require_http_methods(["POST"])
def set_anpc(request):
    """The signed-in player sets (or clears) their own aNPc (R27); it moves only their PSF."""
    player = player_of(request.user)
    form = AnpcForm(request.POST)
    if form.is_valid():
        player.anpc = form.cleaned_data["anpc"]
        player.save(update_fields=["anpc"])
        messages.success(request, "Your aNPc is saved." if player.anpc is not None
                         else "Your aNPc is back to the default of your last S3 games.")
    else:
        messages.error(request, "aNPc: " + " ".join(form.errors["anpc"]))
    return redirect("profile", player_id=player.player_id)


def game_record(request, game_id, kind: str, session: int = 0):
    """A record file of a site game (STGN, STGE, STSE n, STDGS), current revision."""
    kind = kind.upper()
    if kind not in dict(GameRecord.KINDS):
        raise Http404("no such record")
    rec = (GameRecord.objects.filter(game__game_id=game_id, kind=kind, session=session,
                                     superseded=False)
           .select_related("game").order_by("-revision").first())
    if rec is None:
        raise Http404("no such record")
    ctype = "text/plain" if kind == "STGN" else "application/yaml"
    resp = HttpResponse(rec.content, content_type=f"{ctype}; charset=utf-8")
    resp["Content-Disposition"] = f'attachment; filename="{rec.filename}"'
    return resp
