"""The entrants of a FIDE Dutch round as the engine reads them (``dutch.py``): one ``Match``
per round as the event's TRF export holds it, and what the rules derive from them before a
pairing (C.04.3 A.2-A.7: scores, colour preferences, floats, bye eligibility and ranks)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

WHITE, BLACK, NO_COLOUR = 0, 1, 2
WIN, DRAW, LOSS = 2, 1, 0  # half points
DOWN, UP, NO_FLOAT = 0, 1, 2


def invert(colour: int) -> int:
    return NO_COLOUR if colour == NO_COLOUR else 1 - colour


class NoPairing(Exception):
    """No pairing of the round keeps every absolute criterion (C.1-C.4)."""


@dataclass(frozen=True)
class Match:
    """One round of a player as the TRF holds it. ``opponent`` is the opponent's index, or
    None for a round without an opponent (a bye of any kind, or no entry); ``points`` in half
    points; ``played``: a game actually played; ``paired``: the player took part in that
    round's pairing (a game, played or not, or the pairing-allocated bye)."""

    opponent: int | None
    colour: int
    points: int
    played: bool
    paired: bool


@dataclass
class Player:
    """One entrant, ``index`` its place in pairing-number order (0 = pairing number 1)."""

    index: int
    matches: list[Match]
    absent: bool = False
    # derived by ``prepare``
    valid: bool = field(default=False, init=False)
    rank: int = field(default=0, init=False)
    score: int = field(default=0, init=False)
    scores_before: list[int] = field(default_factory=list, init=False)
    played_games: int = field(default=0, init=False)
    preference: int = field(default=NO_COLOUR, init=False)
    imbalance: int = field(default=0, init=False)
    repeated: int = field(default=NO_COLOUR, init=False)
    strong: bool = field(default=False, init=False)
    eligible_for_bye: bool = field(default=True, init=False)

    @property
    def absolute_imbalance(self) -> bool:
        return self.imbalance > 1

    @property
    def absolute_preference(self) -> bool:
        return self.imbalance > 1 or self.repeated != NO_COLOUR


@dataclass(frozen=True)
class Pairing:
    """The round's result: (white, black) indices in board order, and the bye's index."""

    boards: list[tuple[int, int]]
    bye: int | None


def prepare(players: Sequence[Player]) -> None:
    """Scores, colour preferences (C.04.3 A.6), bye eligibility (C.04.1: no second bye, and
    none after a win without a game) and ranks: the rank counts only the players of this round
    and those who took part in an earlier pairing, as bbpPairings does (a player absent from
    every round so far shifts no one's colours, E.5)."""
    rank = 0
    for p in players:
        p.valid = not p.absent or any(m.paired for m in p.matches)
        if p.valid:
            p.rank = rank
            rank += 1
        total, before = 0, [0]
        for m in p.matches:
            total += m.points
            before.append(total)
        p.score, p.scores_before = total, before
        white = black = run = 0
        last = NO_COLOUR
        for m in p.matches:
            if not m.played:
                continue
            white += m.colour == WHITE
            black += m.colour == BLACK
            run = run + 1 if run and m.colour == last else 1
            last = m.colour
        p.played_games = white + black
        lower = BLACK if white > black else WHITE
        p.imbalance = abs(white - black)
        p.preference = (lower if p.imbalance > 1 else invert(last) if run > 1
                        else lower if p.imbalance > 0 else invert(last) if run
                        else NO_COLOUR)
        p.repeated = last if run > 1 else NO_COLOUR
        p.strong = not p.absolute_preference and p.imbalance > 0
        p.eligible_for_bye = not any(
            not m.played and (m.points >= WIN or (m.paired and m.opponent is None))
            for m in p.matches)


def float_of(p: Player, back: int, players: Sequence[Player], played_rounds: int) -> int:
    """The float of ``p`` ``back`` rounds ago (A.4): a round without a game that scored points
    is a downfloat; a game against a higher (lower) score an upfloat (downfloat)."""
    m = p.matches[played_rounds - back]
    if not m.played:
        return DOWN if m.points > LOSS else NO_FLOAT
    mine = p.scores_before[played_rounds - back]
    theirs = players[m.opponent].scores_before[played_rounds - back]
    return DOWN if mine > theirs else UP if mine < theirs else NO_FLOAT
