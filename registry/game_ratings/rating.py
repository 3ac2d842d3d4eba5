"""Ratings of the games other than talu (issue 36): one Weng-Lin rating per player and game.

PURE (no Django). Talu keeps the book's ledger (R20-R30, ``registry.ledger``); every other
game's players get a Bayesian skill estimate (``mu``, the skill, and ``sigma``, how unsure it
is) from openskill's Plackett-Luce model: the library's default and the Weng-Lin paper's model
for a full ranking of any number of seats with ties (a two-seat game's winner is rank 1, a draw
is two rank 1s; Talat ranks three seats). The library is well kept and checked against its own
published example (``tests/registry/test_game_ratings_rating.py``); this module is its one
door, so the model and its parameters live in one place.

The model's own defaults are kept (mu 25, sigma 25/3, beta 25/6, tau 25/300): they are the
values its authors tuned and documented, and ``tau`` (a little uncertainty added before each
game) keeps a rating able to move after hundreds of games, as Glicko's growing deviation does.

Shown to people, a rating is an Elo-like number (``display``):

    display = 1500 + (mu - 25) * 200 / beta        (= 1500 + 48 * (mu - 25))

- 1500 for a new player (mu 25): the number chess players, lichess and Glicko start at;
- beta is the model's spread of one game's performance: a player ``beta`` ahead beats the
  other about 76% of the time. Arpad Elo's scale puts that same 76% at 200 points (his "class
  interval", a standard deviation of performance), so ``beta`` is mapped to 200 points and a
  gap on this scale means about what it means in Elo;
- the estimate itself (mu) is shown, not the conservative ``mu - 3 sigma`` of openskill's
  ``ordinal``: that one starts every newcomer at the bottom and lifts everyone's number just
  for playing (a settled average player would read ~2100 beside a newcomer's 1500), which an
  Elo reader would misread. The uncertainty is shown instead, as lichess does, by a ``?``
  after the number while the rating is provisional (``PROVISIONAL_SIGMA``).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from openskill.models import PlackettLuce

Seat = TypeVar("Seat", bound=Hashable)

#: The model and its parameters: openskill's documented defaults (see the module's words).
MODEL = PlackettLuce()
MU: float = MODEL.mu
SIGMA: float = MODEL.sigma
BETA: float = MODEL.beta

DISPLAY_START = 1500
#: Display points per unit of mu: ``beta`` (a 76% favourite) is Elo's 200 points.
DISPLAY_PER_MU: float = 200.0 / BETA
#: Provisional (shown with ``?``) while sigma is above this: 5.0 is 240 display points of
#: deviation, 60% of a newcomer's 8.33. Winning and losing in turn, it takes 11 games against
#: settled opponents (sigma 2) to come below it, 20 against other newcomers (measured);
#: lichess's ``?`` lasts a similar first stretch. Settled players then move about 15 points a
#: game between equals, as Elo with K 30 does.
PROVISIONAL_SIGMA = 5.0


class RatingError(ValueError):
    """Input that cannot be rated, in words a person can act on."""


@dataclass(frozen=True)
class Rating:
    """A player's rating in one game: the skill estimate and its uncertainty."""

    mu: float
    sigma: float

    def __post_init__(self) -> None:
        for name, value in (("mu", self.mu), ("sigma", self.sigma)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not math.isfinite(value):
                raise RatingError(f"a rating's {name} must be a finite number, not {value!r}")
        if self.sigma <= 0:
            raise RatingError(f"a rating's sigma must be above 0, not {self.sigma!r}")

    @property
    def display(self) -> int:
        return display(self)

    @property
    def provisional(self) -> bool:
        return provisional(self)


START = Rating(MU, SIGMA)


def display(rating: Rating) -> int:
    """The Elo-like number people see (1500 for a new player; the module's words say why)."""
    return round(DISPLAY_START + (rating.mu - MU) * DISPLAY_PER_MU)


def display_mu(number: float) -> float:
    """The mu a displayed number stands for (``display``'s inverse, before rounding)."""
    return MU + (number - DISPLAY_START) / DISPLAY_PER_MU


def provisional(rating: Rating) -> bool:
    """Whether the rating is still too unsure to stand on its own (shown with ``?``)."""
    return rating.sigma > PROVISIONAL_SIGMA


def shown(rating: Rating) -> str:
    """The number as shown: ``1626?`` while provisional, ``1544`` after."""
    return f"{display(rating)}{'?' if provisional(rating) else ''}"


def _check_ranks(ranks: Mapping[Seat, int]) -> None:
    for seat, rank in ranks.items():
        if isinstance(rank, bool) or not isinstance(rank, int) or rank < 1:
            raise RatingError(f"seat {seat!r}: a rank is a whole number from 1 (the best), "
                              f"not {rank!r}")


def rate(ranks: Mapping[Seat, int], ratings: Mapping[Seat, Rating]) -> dict[Seat, Rating]:
    """The ratings after one game: ``ranks`` gives each rated seat's place (1 best; equal
    ranks are a tie, so a draw of two is ``{a: 1, b: 1}``), ``ratings`` each seat's rating
    before it. Only the order of the ranks counts (1, 1, 3 is 1, 1, 2).

    Seats that are not rated (neutral seats, the computer) are left out by the caller. Fewer
    than two seats is no rated game: the ratings come back unchanged."""
    if set(ranks) != set(ratings):
        raise RatingError("every rated seat needs both a rank and a rating: "
                          f"ranks for {sorted(map(repr, ranks))}, "
                          f"ratings for {sorted(map(repr, ratings))}")
    _check_ranks(ranks)
    for seat, rating in ratings.items():
        if not isinstance(rating, Rating):
            raise RatingError(f"seat {seat!r}: not a Rating: {rating!r}")
    if len(ranks) < 2:
        return dict(ratings)
    seats = list(ranks)
    dense = {rank: place for place, rank in enumerate(sorted(set(ranks.values())), start=1)}
    teams = [[MODEL.rating(mu=ratings[s].mu, sigma=ratings[s].sigma)] for s in seats]
    after = MODEL.rate(teams, ranks=[float(dense[ranks[s]]) for s in seats])
    return {s: Rating(team[0].mu, team[0].sigma) for s, team in zip(seats, after, strict=True)}
