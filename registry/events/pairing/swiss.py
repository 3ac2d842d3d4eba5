"""Swiss rounds by the FIDE Dutch system (R43, C.04.3 as in force from 2026; C.04.1 for byes,
late entries and withdrawals), at every size by one engine (``dutch.py``, which says why it is
our own).

This module is the one that turns an event into what the engine reads, and it reads it as the
FIDE-endorsed bbpPairings reads our TRF export (trf.py), so that the engine's pairing and
bbpPairings' pairing of that file are the same question: every round of every player is a
``Match`` (a round without a cell is a zero-point bye), an unplayed game (a forfeit) is no
game for the repeat rule or the colours, and a player with a bye of the round to pair (an
absence the arbiter knew of, a withdrawal, a late entry not yet joined) is not paired. One
exception: a game still on when the arbiter forces the next pairing counts as played, with no
points yet (its two players do not meet again and its colours count, as the TRF will show
once it ends; bbpPairings would read the unfinished game as unplayed).
"""

from __future__ import annotations

from collections.abc import Callable

from registry.events.pairing import dutch
from registry.events.pairing.model import (
    BoardPairing,
    Bye,
    Cell,
    PairingError,
    Round,
    Tournament,
)

# half points of each TRF result code, and whether it is a played game
_GAME = {"1": (2, True), "0": (0, True), "=": (1, True), "+": (2, False), "-": (0, False)}
_BYE = {"U": 2, "F": 2, "H": 1, "Z": 0}
_COLOUR = {"w": dutch.WHITE, "b": dutch.BLACK}


def _match(cell: Cell | None, numbers: dict[str, int]) -> dutch.Match:
    if cell is None:
        return dutch.Match(None, dutch.NO_COLOUR, 0, False, False)
    if cell.opponent is None:
        return dutch.Match(None, dutch.NO_COLOUR, _BYE[cell.code or "Z"], False,
                           cell.code == "U")
    points, played = _GAME.get(cell.code or "", (0, True))  # a game still on: played, 0
    return dutch.Match(numbers[cell.opponent] - 1, _COLOUR[cell.colour], points, played, True)


def engine_players(t: Tournament, absent: dict[str, str]) -> list[dutch.Player]:
    """Every entrant in pairing-number order, as the engine reads them for the next round."""
    numbers = t.numbers()
    cells = t.cells()
    round_number = len(t.rounds) + 1
    players = []
    for e in sorted(t.entrants, key=lambda e: numbers[e.key]):
        mine = cells.get(e.key, {})
        players.append(dutch.Player(
            numbers[e.key] - 1,
            [_match(mine.get(r.number), numbers) for r in t.rounds],
            absent=e.key in absent or not e.active_in(round_number)))
    return players


def pair_round(t: Tournament, absent: dict[str, str] | None = None,
               progress: Callable[[int, int], None] | None = None) -> Round:
    """The next round of a Swiss. ``absent`` names the players the arbiter knows will not play
    it and their bye (``H`` half-point or ``Z`` zero-point, C.04.1); withdrawn players and late
    entrants not yet joined are left out. The one pairing-allocated bye of an odd field goes
    by the Dutch rules to a player who has had none (R41). ``progress(paired, players)``
    hears how far the pairing is, bracket by bracket."""
    absent = absent or {}
    round_number = len(t.rounds) + 1
    if t.total_rounds and round_number > t.total_rounds:
        raise PairingError(f"the event has {t.total_rounds} rounds, all paired")
    for key, kind in absent.items():
        t.entrant(key)
        if kind not in ("H", "Z"):
            raise PairingError(f"a bye asked before pairing is H or Z, not {kind!r}")
    numbers = t.numbers()
    by_index = {n - 1: k for k, n in numbers.items()}
    byes = [Bye(k, absent[k]) for k in sorted(absent, key=numbers.__getitem__)]
    players = engine_players(t, absent)
    if not any(not p.absent for p in players):
        return Round(round_number, [], byes)
    try:
        paired = dutch.pair(players, len(t.rounds), max(t.total_rounds, round_number),
                            dutch.WHITE if t.initial_colour == "white" else dutch.BLACK,
                            progress)
    except dutch.NoPairing:
        raise PairingError(f"round {round_number} cannot be paired: every pairing would "
                           "repeat a game, give a second bye or break the colour rules "
                           "(withdraw a player or end the event)") from None
    games = [BoardPairing(by_index[w], by_index[b], board=i)
             for i, (w, b) in enumerate(paired.boards, start=1)]
    if paired.bye is not None:
        byes.append(Bye(by_index[paired.bye], "U"))
    return Round(round_number, games, byes)
