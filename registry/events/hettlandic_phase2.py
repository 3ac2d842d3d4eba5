"""Hettlandic phase 2, the medal matches (R46, book 6.4.1.3.2): rounds, ranking and awards.

The co-champions who accept play a grand-master, unrated Swiss (R43) of
min(N - 1, ceil(log2 N) + 2) rounds (N = 2: a match of 2 games with sides swapped; N = 1: no
phase 2). The final ranking is by the Swiss tie-breaks, then the phase-1 victory score; the
awards go from the lowest-ranked participant up: Bronze, Silver, Gold, Platinum, Sapphire,
Emerald, Ruby, Diamond, and above 8 participants "Tier 9", "Tier 10", ... above Diamond. A
co-champion who declines keeps the title and gets no award.

Pure. The Swiss pairing and its tie-breaks are the event system's (R43, ``pairing/tiebreaks``:
the medal event's own standings, so the awards cannot contradict its page); this module decides
how many rounds there are, who plays, and the awards of a final ranking
(``registry.events.hettlandic_medals.final_ranking``).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence

MATERIALS = ("Bronze", "Silver", "Gold", "Platinum", "Sapphire", "Emerald", "Ruby", "Diamond")
VARIANT = "grand-master"  # R46: medal matches are grand-master talu (R3 variant name)
RATED = False  # R46: and unrated


def participants(co_champions: Sequence[Hashable], accepted: Iterable[Hashable]) -> list:
    """The co-champions who accepted, in the co-champions' order (declining keeps the title)."""
    yes = set(accepted)
    unknown = yes - set(co_champions)
    if unknown:
        raise ValueError(f"only co-champions can accept phase 2: {sorted(map(str, unknown))}")
    return [p for p in co_champions if p in yes]


def rounds_for(n: int) -> int:
    """R46: min(N - 1, ceil(log2 N) + 2) Swiss rounds; 2 games for N = 2; none for N <= 1."""
    if n <= 1:
        return 0
    if n == 2:
        return 2
    return min(n - 1, math.ceil(math.log2(n)) + 2)


def match_of_two(a: Hashable, b: Hashable) -> list[tuple[Hashable, Hashable]]:
    """R46 N = 2: two games, sides swapped; ``a`` (pairing number 1) plays `I` first."""
    return [(a, b), (b, a)]


def award_name(place_from_bottom: int) -> str:
    """The award of the participant ranked ``place_from_bottom`` (1 = the lowest-ranked)."""
    if place_from_bottom < 1:
        raise ValueError("places start at 1")
    if place_from_bottom <= len(MATERIALS):
        return MATERIALS[place_from_bottom - 1]
    return f"Tier {place_from_bottom}"


def awards(ranking: Sequence[Hashable]) -> dict[Hashable, str]:
    """R46: ``ranking`` best first; the last gets Bronze and each higher one the next tier."""
    n = len(ranking)
    return {player: award_name(n - k) for k, player in enumerate(ranking)}
