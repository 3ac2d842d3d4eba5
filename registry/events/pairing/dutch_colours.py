"""The colours of a FIDE Dutch pair and the order of the boards (C.04.3 E.1-E.5)."""

from __future__ import annotations

from registry.events.pairing.dutch_players import NO_COLOUR, Player, invert
from registry.events.pairing.dutch_round import Round


def ranks_higher(r: Round, v: int, u: int) -> bool:
    return (r.score[v], -r.sorted[v].rank) > (r.score[u], -r.sorted[u].rank)


def first_difference(p: Player, q: Player) -> tuple[int, int]:
    """The colours of the latest round, among the games each played, in which they differ."""
    a = [m.colour for m in p.matches if m.played]
    b = [m.colour for m in q.matches if m.played]
    i, j = len(a) - 1, len(b) - 1
    while i >= 0 and j >= 0 and a[i] == b[j]:
        i, j = i - 1, j - 1
    return (a[i] if i >= 0 else NO_COLOUR), (b[j] if j >= 0 else NO_COLOUR)


def colour_of(r: Round, v: int, u: int) -> int:
    """The colour of vertex ``v`` against ``u`` (C.04.3 E.1-E.5)."""
    p, q = r.sorted[v], r.sorted[u]
    neutral = neutral_colour(p, q)  # E.1-E.3
    if neutral != NO_COLOUR:
        return neutral
    they_are_higher = ranks_higher(r, u, v)
    if p.preference != NO_COLOUR:  # E.4: the higher-ranked player's preference
        return invert(q.preference) if they_are_higher else p.preference
    # E.5: the higher-ranked player takes the initial colour if its rank is odd (counted
    # from 1), the other colour if even
    higher = q if they_are_higher else p
    theirs = invert(r.initial_colour) if higher.rank & 1 else r.initial_colour
    return invert(theirs) if they_are_higher else theirs


def neutral_colour(p: Player, q: Player) -> int:
    if p.preference != q.preference or NO_COLOUR in (p.preference, q.preference):
        if p.preference != NO_COLOUR:
            return p.preference
        if q.preference != NO_COLOUR:
            return invert(q.preference)
        return NO_COLOUR
    if p.absolute_preference and (p.imbalance > q.imbalance or not q.absolute_preference):
        return p.preference
    if q.absolute_preference and (q.imbalance > p.imbalance or not p.absolute_preference):
        return invert(q.preference)
    if p.strong and not q.strong:
        return p.preference
    if q.strong and not p.strong:
        return invert(q.preference)
    mine, theirs = first_difference(p, q)
    if mine != NO_COLOUR and theirs != NO_COLOUR:
        return theirs
    return NO_COLOUR


def board_key(white: Player, black: Player) -> tuple:
    """Board order: the higher player's score, then the lower's, then the higher's rank."""
    hi, lo = (white, black) if (white.score, -white.rank) > (black.score, -black.rank) \
        else (black, white)
    return (-hi.score, -lo.score, hi.rank)
