"""A game's review, a player's list of games, the rematch (issue 24). Thin, like ``views``."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from play.computer.start import ComputerGameError, play_the_computer
from play.games.match.takebacks import standing
from play.games.protocol import EVERYONE
from play.games.protocol.result import place_of
from play.games.registry import parts_of
from play.live.delivery import wake_computer
from play.lobby import challenges, mygames, tables
from play.models import ComputerGame, Game
from talu_site import clientaddr

PAGE_SIZE = 25


def game_review(request, game_id):
    """Every position of the game after every step, for stepping through it (finished or
    live): the events everyone may see, without those a takeback undid (issue 39), replayed
    by the game's own review (``GameParts.review``); a 404 with words for a game that has
    none."""
    game = get_object_or_404(Game, uuid=game_id)
    review = parts_of(game.game).review
    if review is None:
        return JsonResponse({"error": "this game has no review"}, status=404)
    events = standing(game.events.filter(visibility=EVERYONE, version__lte=game.version)
                      .order_by("version").values_list("version", "kind", "data"))
    data = review(game.variant, events, game.options or {})
    data["version"] = game.version
    return JsonResponse(data)


def _outcome(game: Game, seat: str) -> str:
    """"won", "lost", "drawn" or "null" (``place_of``), "" while live; a row older than the
    seats' ranks by its winner's seat (talu's I or O)."""
    if game.status == Game.LIVE:
        return ""
    if not game.ranks:
        return "null" if game.winner in ("-", "") else "won" if game.winner == seat else "lost"
    return place_of(game.ranks, seat)


@login_required
def my_games(request):
    """The signed-in player's games, live first then the latest finished, with a search on
    the opponent's name, the variant or the result's words."""
    user = request.user
    q = (request.GET.get("q") or "").strip()[:100]
    # every game the user holds a seat in, of any game and any number of seats
    games = (Game.objects.filter(seats__user=user).prefetch_related("seats__user")
             .order_by("-status", "-created"))
    # status "live" sorts after "finished": live games first.
    if q:
        games = games.filter(mygames.search(q, user))
    page = Paginator(games, PAGE_SIZE).get_page(request.GET.get("page"))
    rows = []
    for g in page.object_list:
        seats = list(g.seats.all())
        mine = next(s for s in seats if s.user_id == user.pk)
        others = [s.user.get_username() for s in seats if s.user_id not in (None, user.pk)]
        rows.append({"game": g, "side": mine.seat, "opponent": ", ".join(others),
                     "outcome": _outcome(g, mine.seat)})
    # In play, "your turn" first and then by time left (issue 20, correspondence), above the
    # searchable list of every game (issue 24).
    return render(request, "play/my_games.html", {"rows": rows, "page": page, "q": q,
                                                  "in_play": mygames.my_games(user)})


@login_required
@require_POST
def _rematch_table(request, game: Game, side: str):
    """A game of more than two seats again (issue 37): a new table of the same variant, kind
    and clock, the asker in the same seat, the computer in its seats at its levels; the game
    starts at once when the computer held every other seat, else the others take their seats
    from the lobby."""
    computers = dict(ComputerGame.objects.filter(game=game).values_list("side", "level"))
    try:
        table = tables.open_table(request.user, game.variant_key, seat=side,
                                  rated=game.rated and not computers,
                                  time_control=game.time_control, options=game.options,
                                  address=clientaddr.limit_key(clientaddr.of_request(request)))
        new = None
        for seat, level in computers.items():
            new = tables.give_to_computer(request.user, table.pk, seat, level) or new
    except tables.TableError as err:
        messages.error(request, str(err))
        return redirect("game", game.uuid)
    if new is not None:
        async_to_sync(wake_computer)()  # the computer may have the first turn
        return redirect("game", new.uuid)
    messages.success(request, "Rematch table opened in the lobby: the game starts when the "
                              "others take their seats.")
    return redirect("lobby")


def rematch(request, game_id):
    """The same game again, colours swapped: the same variant, kind and clock. Against a
    person it is a challenge they accept; the computer accepts no challenge, so against it the
    new game (same level) starts at once."""
    game = get_object_or_404(Game.objects.select_related("player_i", "player_o"), uuid=game_id)
    side = game.side_of(request.user)
    if side is None or game.status == Game.LIVE:
        messages.error(request, "Only a player of a finished game can offer a rematch.")
        return redirect("game", game.uuid)
    if len(game.played_seats()) > 2:
        return _rematch_table(request, game, side)
    computer = ComputerGame.objects.filter(game=game).first()
    if computer is not None:
        try:
            new = play_the_computer(request.user, variant=game.variant_key, level=computer.level,
                                    side=computer.side, time_control=game.time_control)
        except ComputerGameError as err:
            messages.error(request, str(err))
            return redirect("game", game.uuid)
        async_to_sync(wake_computer)()  # the computer may have the first turn
        return redirect("game", new.uuid)
    opponent = game.player_o if game.player_i_id == request.user.pk else game.player_i
    try:
        challenges.open_challenge(request.user, variant=game.variant, rated=game.rated,
                                  opponent=opponent.get_username(),
                                  side=next(s for s in game.played_seats() if s != side),
                                  time_control=game.time_control,
                                  address=clientaddr.limit_key(clientaddr.of_request(request)))
    except challenges.ChallengeError as err:
        messages.error(request, str(err))
    else:
        messages.success(request, f"Rematch offered to {opponent.get_username()}: the game "
                                  "starts when it is accepted.")
    return redirect("lobby")
