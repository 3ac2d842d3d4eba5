"""A player's games in play, most urgent first (correspondence, R36): "your turn" games by the
time left on your clock, then those waiting on the opponent, then adjourned games by the time
their arbiter set for the resumption (R38), then untimed ones.

Read from the game rows and their seats (the append keeps each game's seat to move and
deadline on its row), so the list costs two queries however many games a player has going,
of any game and any number of seats.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from play.models import Game, Seat


@dataclass(frozen=True, slots=True)
class MyGame:
    game: Game
    side: str  # the player's seat
    opponent: str  # the other players' names (", " between them in a game of more)
    your_turn: bool
    left: timedelta | None  # on the running clock (yours when it is your turn); None untimed

    @property
    def adjourned(self) -> bool:
        """Nobody is to move: the game is adjourned (R38)."""
        return not self.game.to_move

    #: Until the resumption an arbiter set (R38; None: no time set), from the row's
    #: ``resume_at``.
    resumes_in: timedelta | None = None

    @property
    def left_text(self) -> str:
        """ "2 days 3 h", "5 h 12 min", "3 min 20 s", or "" (no clock runs)."""
        return span_text(self.left)

    @property
    def resumes_in_text(self) -> str:
        """How long until play resumes at the arbiter's time, as ``left_text``; "" none set."""
        return span_text(self.resumes_in)


def span_text(span: timedelta | None) -> str:
    """ "2 days 3 h", "5 h 12 min", "3 min 20 s", or "" for None."""
    if span is None:
        return ""
    s = max(0, int(span.total_seconds()))
    d, h, m = s // 86400, s % 86400 // 3600, s % 3600 // 60
    if d:
        return f"{d} day{'s' if d > 1 else ''} {h} h"
    if h:
        return f"{h} h {m} min"
    return f"{m} min {s % 60} s"


def my_games(user, now: datetime | None = None) -> list[MyGame]:
    """``user``'s live games: their turn first, each part by time left, then adjourned games
    by their resumption time (R38), untimed last."""
    now = now or timezone.now()
    mine = {s.game_id: s for s in Seat.objects.filter(user=user, game__status=Game.LIVE)
            .select_related("game").order_by("game_id", "order")}
    others: dict[int, list[str]] = {pk: [] for pk in mine}
    for game_id, name in (Seat.objects.filter(game_id__in=list(mine), user__isnull=False)
                          .exclude(user=user).order_by("game_id", "order")
                          .values_list("game_id", "user__username")):
        others[game_id].append(name)
    out = []
    for seat in mine.values():
        g = seat.game
        left = g.deadline - now if g.deadline is not None else None
        resumes = g.resume_at - now if g.resume_at is not None else None
        out.append(MyGame(g, seat.seat, ", ".join(others[g.pk]), g.to_move == seat.seat, left,
                          resumes))
    big = timedelta(days=10_000)
    out.sort(key=lambda m: (not m.your_turn, m.left is None, m.left or big,
                            m.resumes_in is None, m.resumes_in or big,
                            -m.game.created.timestamp()))
    return out


def search(q: str, user) -> Q:
    """The games a search on "My games" names: by the opponent's name, the variant, or the
    result's words as the list shows them ("won", "lost", "resigned", "time"...; the stored
    reason alone said "decision" for a resignation, so a search for what the list reads found
    nothing). Any game and any number of seats: names and places come from the seats (a
    win is a first place that someone else did not share), with the two-seat columns kept for
    rows older than the seats' ranks."""
    seats = Seat.objects.filter(game=OuterRef("pk"))
    found = (Exists(seats.filter(user__username__icontains=q).exclude(user=user))
             | Q(player_i__username__icontains=q) | Q(player_o__username__icontains=q)
             | Q(variant__icontains=q) | Q(game__icontains=q) | Q(reason__icontains=q))
    won = (Q(player_i=user, winner="I") | Q(player_o=user, winner="O")
           | (Exists(seats.filter(user=user, rank=1)) & Exists(seats.filter(rank__gt=1))))
    lost = (Q(player_i=user, winner="O") | Q(player_o=user, winner="I")
            | Exists(seats.filter(user=user, rank__gt=1)))
    words = set(q.lower().replace(":", " ").split())
    if words & {"won", "win", "wins"}:
        found |= won
    if words & {"lost", "loss", "lose"}:
        found |= lost
    if words & {"null", "draw"}:
        found |= Q(status=Game.FINISHED, winner__in=("-", "")) & ~Q(reason="aborted")
    for word, cause in (("resign", "resignation"), ("time", "time"), ("left", "abandonment"),
                        ("abort", "aborted")):
        if any(w.startswith(word) for w in words):
            found |= Q(cause=cause) | Q(reason=cause)
    if words & {"live", "playing"}:
        found |= Q(status=Game.LIVE)
    if "freeplay" in words:
        found |= Q(rated=False)
    return found
