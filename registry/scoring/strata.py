"""Strata, sub-strata and the 20-75-75 promotion rule (book 6.2, R26).

A stratum decides which model rates a player and where their rating starts. Promotion is
checked after every rated decided game and needs all three conditions at once; there is no
demotion. Numbers are R26's (which copy the book's tables), not recomputed, because the book
rounds them "to a convenient value" inconsistently (see :func:`convenient_limit`).
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from fractions import Fraction

from registry.scoring.rounding import round_half_up

START_RATING = 250  # R26: every new player, in S1
MIN_GAMES = 20  # R26 "20"
MIN_WIN_SHARE = Fraction(3, 4)  # R26 first "75"
PLAYER_ID_LENGTH = 18
_PLAYER_ID = re.compile(r"[A-Z0-9]{18}")
_ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


@dataclass(frozen=True, slots=True)
class Stratum:
    """One row of the book's stratum table (6.2.1)."""

    number: int
    code: str
    name: str
    base: int
    higher_limit: int | None
    promotion_limit: int | None
    #: Sub-stratum starts: gamma, beta, alpha, and the end of alpha (R26's table).
    bands: tuple[int, int, int, int]

    @property
    def model(self) -> str:
        """The stratum's own scoring model (R25): S1 rates S1 players, and so on."""
        return self.code


STRATA: dict[int, Stratum] = {
    1: Stratum(1, "S1", "amateur", 250, 500, 440, (250, 345, 440, 500)),
    2: Stratum(2, "S2", "advanced", 500, 1000, 875, (500, 690, 880, 1000)),
    3: Stratum(3, "S3", "professional", 1000, None, None, (1000, 1375, 1750, 2000)),
}
TOP_STRATUM = 3

#: R26 / book 6.2.1: the S3 sub-strata have names of their own, and 2000+ is "elite".
S3_TITLES = {"gamma": "expert", "beta": "master", "alpha": "grand-master", "elite": "elite player"}


def stratum(number: int) -> Stratum:
    try:
        return STRATA[number]
    except KeyError:
        raise ValueError(f"no stratum S{number}: strata are S1, S2, S3") from None


def model_for(number: int) -> str:
    """The scoring model of stratum ``number`` (R25)."""
    return stratum(number).model


def promotion_limit_arithmetic(base: int, higher_limit: int) -> Fraction:
    """Book 6.2.1: base + 75% of the distance to the higher limit (S1: 437.5)."""
    return base + Fraction(3, 4) * (higher_limit - base)


def convenient_limit(value: Fraction | int) -> int:
    """The book's "rounded to a convenient value": half up to a multiple of 5.

    It is the one rounding that yields both of the book's limits (437.5 -> 440, 875 -> 875);
    to 10 would give 880 for S2. R26 fixes the limits as constants anyway; this function only
    shows where they come from.
    """
    return 5 * round_half_up(Fraction(value) / 5)


def substratum(number: int, rating: int) -> str:
    """R26 sub-stratum: "gamma", "beta", "alpha", or "elite" (S3 from 2000).

    Bands start inclusive (345 is S1 beta). Below the base is gamma (R26); above an S1/S2
    stratum's higher limit, a player not yet promoted is still alpha.
    """
    bands = stratum(number).bands
    if number == TOP_STRATUM and rating >= bands[3]:
        return "elite"
    if rating >= bands[2]:
        return "alpha"
    if rating >= bands[1]:
        return "beta"
    return "gamma"


def is_promotion_due(number: int, games: int, wins: int, rating: int) -> bool:
    """R26 20-75-75: games >= 20 and wins/games >= 75% and rating > limit (strictly above).

    ``games`` and ``wins`` count rated decided games in the current stratum only. The share
    is compared exactly (4 wins >= 3 games), so 15 of 20 qualifies and 14 of 19 does not.
    """
    progress = promotion_progress(number, games, wins, rating)
    return progress is not None and (progress["games_ok"] and progress["win_rate_ok"]
                                     and progress["rating_ok"])


def promotion_progress(number: int, games: int, wins: int, rating: int) -> dict | None:
    """Where a player stands against each of R26's three conditions (what the profile shows);
    None in S3, which has nowhere to go."""
    limit = stratum(number).promotion_limit
    if limit is None:
        return None
    return {
        "games": games, "games_needed": MIN_GAMES, "games_ok": games >= MIN_GAMES,
        "wins": wins, "win_rate": None if games == 0 else round(100 * wins / games, 1),
        "win_rate_needed": round(100 * MIN_WIN_SHARE),
        # wins / games >= 3/4 in integers (4 wins >= 3 games), never with a rounded share
        "win_rate_ok": games > 0
        and wins * MIN_WIN_SHARE.denominator >= games * MIN_WIN_SHARE.numerator,
        "rating": rating, "rating_limit": limit, "rating_ok": rating > limit,
        "next": f"S{number + 1}",
    }


def promoted_base(number: int) -> int:
    """R26: the rating a player gets on promotion out of stratum ``number``."""
    if number >= TOP_STRATUM:
        raise ValueError("S3 has no higher stratum")
    return stratum(number + 1).base


def is_player_id(text: str) -> bool:
    """R26: 18 upper-case alphanumeric characters."""
    return bool(_PLAYER_ID.fullmatch(text))


def new_player_id() -> str:
    """A fresh R26 player id (uniqueness is the registry's job, not this function's)."""
    return "".join(secrets.choice(_ID_ALPHABET) for _ in range(PLAYER_ID_LENGTH))
