"""Lobby and game pages. Thin: the lobby's logic is ``play.lobby``, a game's view
``play.gameview``."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import select_template
from django.urls import reverse
from django.views.decorators.http import require_POST

from play import gameview, ports, views_tables
from play.chat import messages as chat_messages
from play.commands import arbiter as arbiter_commands
from play.computer.account import is_computer
from play.computer.start import ComputerGameError, play_the_computer
from play.forms import ChallengeForm, ComputerForm, variant_seats
from play.games.clock import time_label
from play.games.registry import DEFAULT_GAME, GAMES, parts_of, variant_label, variant_of
from play.live import lobby as lobby_live
from play.live.delivery import wake_computer, wake_worker
from play.lobby import challenges, pool
from play.models import Challenge, Game
from play.templatetags.players import player as player_name
from play.templatetags.players import variant_words, versus
from talu_site import clientaddr


def _with_psf_marks(user, open_challenges) -> tuple[list, dict | None]:
    """R47: for an S3 viewer, each open challenge's creator rating, the expected rating change
    at the viewer's aNPc against them, and whether they are below the viewer's PSF (in
    ``c.psf``); nothing for S1/S2 viewers."""
    found = list(open_challenges)
    for c in found:
        c.psf = None
    if not user.is_authenticated:
        return found, None
    directory = ports.directory()
    ratings = directory.ratings_of({c.creator_id for c in found})
    hints = directory.psf_hints(user, {c.pk: ratings[c.creator_id] for c in found})
    for c in found:
        c.psf = None if hints is None else hints["against"][c.pk]
    return found, hints


def demo_game() -> Game | None:
    """A finished game worth watching for a newcomer (issue 39, finding 5: the longest recent
    game was a shuffling null game): of the recent games of the site's own game, one won on
    the board (no resignation, time or decision off the board, no null game), the longest;
    else the longest recent one."""
    recent = list(Game.objects.filter(status=Game.FINISHED, game=DEFAULT_GAME)
                  .order_by("-created").only("uuid", "version", "winner", "cause", "reason")[:50])
    won = [g for g in recent if g.winner not in ("", "-") and not g.cause
           and g.reason not in ("decision", "aborted", "forfeit")]
    return max(won or recent, key=lambda g: g.version, default=None)


def lobby(request):
    user = request.user
    open_challenges, hints = _with_psf_marks(user, challenges.open_challenges_for(user)[:50])
    ctx = {
        # "challenge this player" (a profile, the player search) fills in the opponent
        "form": ChallengeForm(initial={"opponent": (request.GET.get("opponent") or "")[:150]}),
        "variant_seats": variant_seats(),
        "computer_form": ComputerForm.for_user(user, auto_id="id_computer_%s"),
        "challenges": open_challenges,
        "psf": hints,
        "pools": [p for p in pool.pool_listing() if p["variant"] == "standard"],
        "pool_variants": pool.pool_variants(),
        "pairing": pool.state(user),
        "my_game_ids": [],
        "live": gameview.live_games(),
        "finished": Game.objects.filter(status=Game.FINISHED)
        .select_related("player_i", "player_o").order_by("-finished")[:10],
    }
    ctx["demo_game"] = demo_game()
    ctx.update(views_tables.lobby_context(user))  # issue 37: tables of more seats
    if user.is_authenticated:
        ctx["mine"] = Challenge.objects.filter(creator=user, status=Challenge.OPEN)
        ctx["my_games"] = list(Game.objects.filter(seats__user=user, status=Game.LIVE)
                               .select_related("player_i", "player_o").distinct())
        ctx["my_game_ids"] = [str(g.uuid) for g in ctx["my_games"]]
    return render(request, "play/lobby.html", ctx)


def lobby_state(request):
    """Polled by the lobby page: open challenges (with PSF marks for an S3 viewer, R47), live
    games, the user's new games, the pools' counts and the user's pairing state."""
    user = request.user
    open_challenges, _ = _with_psf_marks(user, challenges.open_challenges_for(user)[:50])
    data = {
        "challenges": [
            {"id": c.pk, "creator": c.creator.get_username(),
             "opponent": c.opponent.get_username() if c.opponent else None,
             "variant": variant_words(c), "rated": c.rated,
             "time_control": c.time_control, "time": time_label(c.time_control),
             **({"psf": c.psf} if c.psf else {})}
            for c in open_challenges
        ],
        "pools": pool.pool_listing(),
        "pairing": pool.state(user),
        "live": [
            {"id": str(g.uuid), "url": reverse("game", args=[g.uuid]),
             "variant": variant_label(g.variant_key),
             "I": player_name(g.player_i) if g.player_i_id else None,
             "O": player_name(g.player_o) if g.player_o_id else None,
             "title": versus(g, "labelled"), "rated": g.rated,
             "time": time_label(g.time_control)}
            for g in gameview.live_games()
        ],
        "my_games": [],
        **views_tables.lobby_state(user),  # issue 37: open tables, the pool for three
    }
    if user.is_authenticated:
        data["my_games"] = [
            {"id": str(g.uuid), "url": reverse("game", args=[g.uuid])}
            for g in Game.objects.filter(seats__user=user, status=Game.LIVE).distinct()
        ]
    return JsonResponse(data)


def _lobby_changed() -> None:
    """Every lobby page, on every process, refreshes now (``play.live.lobby``)."""
    async_to_sync(lobby_live.notify)()


def _answer(request, ok: bool, text: str, status: int | None = None):
    """The lobby's script asks for JSON (it stays on the page); a plain form gets the lobby.
    ``status``: a refusal's own (429: too many), else 200 or 400."""
    if request.headers.get("Accept", "").startswith("application/json"):
        return JsonResponse({"ok": ok, "message": text, "pairing": pool.state(request.user)},
                            status=status or (200 if ok else 400))
    (messages.success if ok else messages.error)(request, text)
    return redirect("lobby")


@login_required
@require_POST
def pool_join(request):
    """Quick pairing (R47): one click on a preset's button puts the player in its pool."""
    variant = request.POST.get("variant", "standard")
    time_control, _, rated = request.POST.get("pool", "").partition("|")
    try:
        entry = pool.join(request.user, variant=variant, time_control=time_control,
                          rated=rated == "1", psf_only=request.POST.get("psf_only") == "1",
                          address=clientaddr.limit_key(clientaddr.of_request(request)))
    except pool.RateLimited as err:
        return _answer(request, False, str(err), status=429)
    except pool.PoolError as err:
        return _answer(request, False, str(err))
    if pool.wants_wave_now(entry):  # R47: a pair found now need not wait for the wave
        async_to_sync(wake_worker)()
    _lobby_changed()
    return _answer(request, True, f"Looking for an opponent: {entry.pool.variant} "
                                  f"{entry.pool.time_label} "
                                  f"{'rated' if entry.pool.rated else 'freeplay'}.")


@login_required
@require_POST
def pool_leave(request):
    """Cancel, or the lobby page left (its script sends this as a beacon): out at once, unless
    the player left too often (``ratelimit`` "pool_leave", issue 41)."""
    try:
        left = pool.leave(request.user)
    except pool.RateLimited as err:
        if request.POST.get("beacon"):  # the page is gone: nobody reads the words
            return HttpResponse(status=429)
        return _answer(request, False, str(err), status=429)
    if left:
        _lobby_changed()
    if request.POST.get("beacon"):  # the page is gone: nobody to tell, no message for later
        return HttpResponse(status=204)
    if left:
        return _answer(request, True, "You left the pool.")
    return _answer(request, False, "You are not waiting in a pool.")


@login_required
@require_POST
def challenge_new(request):
    form = ChallengeForm(request.POST)
    if not form.is_valid():
        words = "; ".join(e for errs in form.errors.values() for e in errs)
        messages.error(request, f"The challenge was not valid: {words}")
        return redirect("lobby")
    try:
        challenges.open_challenge(request.user, **form.cleaned_data,
                                  address=clientaddr.limit_key(clientaddr.of_request(request)))
    except challenges.ChallengeError as err:
        messages.error(request, str(err))
    else:
        _lobby_changed()
        messages.success(request, "Challenge opened. The game starts when it is accepted.")
    return redirect("lobby")


@login_required
@require_POST
def computer_new(request):
    """Play the computer: the game starts at once; if the computer has the first turn, the
    worker is woken to play it."""
    form = ComputerForm(request.POST)
    if not form.is_valid():
        said = ["Choose a variant, a level from 1 to 8 and a side."] if set(form.errors) - {
            "time_control"} else []
        messages.error(request, " ".join([*said, *form.errors.get("time_control", [])]))
        return redirect("lobby")
    try:
        game = play_the_computer(request.user, **form.cleaned_data)
    except ComputerGameError as err:
        messages.error(request, str(err))
        return redirect("lobby")
    async_to_sync(wake_computer)()  # the computer may have the first turn
    return redirect("game", game.uuid)


@login_required
@require_POST
def challenge_accept(request, pk: int):
    try:
        game = challenges.accept_challenge(request.user, pk)
    except challenges.ChallengeError as err:
        messages.error(request, str(err))
        return redirect("lobby")
    _lobby_changed()  # the challenger's lobby opens the game; everyone's loses the challenge
    return redirect("game", game.uuid)


@login_required
@require_POST
def challenge_cancel(request, pk: int):
    try:
        challenges.cancel_challenge(request.user, pk)
    except challenges.ChallengeError as err:
        messages.error(request, str(err))
    else:
        _lobby_changed()
    return redirect("lobby")


def game_page(request, game_id):
    game = get_object_or_404(Game.objects.select_related("player_i", "player_o"), uuid=game_id)
    side = game.side_of(request.user)
    initial = gameview.update_for(game, None, side)
    opponents = [u for _, u in game.holders() if u.pk != request.user.pk] if side else []
    parts, spec = parts_of(game.game), variant_of(game.variant_key)
    renderer = parts.renderer or game.game
    return render(request, "play/game.html", {
        "game": game,
        "side": side or "",
        "seat_label": variant_of(game.variant_key).label(side) if side else "",
        # The computer accepts no adjournment (R38) and no challenge: no Adjourn button, and
        # its rematch starts a new game at once (views_games.rematch).
        "vs_computer": any(is_computer(u) for u in opponents),
        "role": "player" if side else "spectator",
        "arbiter": not side and arbiter_commands.may_arbitrate(game, request.user),
        "initial": initial,
        "ws_path": f"/ws/game/{game.uuid}/",
        # the game's own: its renderer and controls, its notation's name, its seats and the
        # arbiter's commands it adds to the match's (talu's warn and count as pass)
        "renderer": renderer,
        "controls": select_template([f"games/{renderer}/controls.html",
                                     "games/controls.html"]).template.name,
        "notation_name": parts.notation,
        "variant_label": variant_label(game.variant_key),
        "options_set": sorted(k for k, v in (game.options or {}).items() if v is True),
        "seats": [s for s in spec.seats if s.played],
        "game_arbiter_commands": GAMES[game.game].rules.arbiter_commands,
        # the chat panel's start (issue 39): the viewer's channel and its recent messages
        "chat": chat_messages.page(game, request.user, side),
    })
