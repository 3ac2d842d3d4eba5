"""Round robin and double round robin by FIDE's Berger tables (R42, Handbook C.05 Annex 1).

The tables themselves come from ``caissify-pairings`` (``berger_round``), which generates them
by the Handbook's rotation; tests/events/test_berger.py holds FIDE's published tables for 3 to
16 players and checks every round. Pairing numbers are by rating at the close of entries, then
player id (``Tournament.numbers``); an odd field adds a bye slot (the highest number), and a
player drawn against it has no game that round: a zero-point bye ``Z``, the same for everyone
over a cycle, so it moves no one in the standings (R41's one-point bye is the Swiss's, C.04.1).
A double round robin (R42, as amended) plays its first cycle with the table's last two rounds
swapped, as FIDE's Annex 1 recommends: played straight, the last round of the first cycle and
the first of the second (the same pairs, sides reversed) would give the players of the table's
last round who had one side in its second-to-last that side three times running. The second
cycle follows the first as played, sides reversed.
"""

from __future__ import annotations

from caissify_pairings.engines.round_robin import berger_round

from registry.events.pairing.model import (
    DOUBLE_ROUND_ROBIN,
    ROUND_ROBIN,
    BoardPairing,
    Bye,
    PairingError,
    Round,
    Tournament,
)


def table(players: int, round_number: int, cycles: int = 1) -> list[tuple[int, int]]:
    """FIDE's Berger pairs (white number, black number) of the round played as
    ``round_number``; with an odd field the bye slot is ``players + 1``. With two cycles the
    table's last two rounds are played in swapped order, and the second cycle repeats the
    first as played with the sides reversed."""
    if players < 2:
        raise PairingError("a round robin needs at least two players")
    slots = players + players % 2
    per_cycle = slots - 1
    if not 1 <= round_number <= per_cycle * cycles:
        raise PairingError(f"a round robin of {players} has {per_cycle * cycles} rounds")
    in_cycle = (round_number - 1) % per_cycle + 1
    if cycles == 2 and per_cycle >= 2 and in_cycle >= per_cycle - 1:
        in_cycle = 2 * per_cycle - 1 - in_cycle  # R42: the last two rounds swapped
    pairs = berger_round(slots, in_cycle)
    if round_number > per_cycle:
        pairs = [(b, a) for a, b in pairs]
    return pairs


def rounds_of(system: str, players: int) -> int:
    slots = players + players % 2
    return (slots - 1) * (2 if system == DOUBLE_ROUND_ROBIN else 1)


def pair_round(t: Tournament) -> Round:
    """The next round of a round robin from the table; a game against a player who has
    withdrawn is an unplayed win of the present side (R42), decided at once."""
    if t.system not in (ROUND_ROBIN, DOUBLE_ROUND_ROBIN):
        raise PairingError(f"{t.system} is not a round robin")
    round_number = len(t.rounds) + 1
    cycles = 2 if t.system == DOUBLE_ROUND_ROBIN else 1
    n = len(t.entrants)
    if round_number > rounds_of(t.system, n):
        raise PairingError(f"the event has {rounds_of(t.system, n)} rounds, all paired")
    by_number = {num: key for key, num in t.numbers().items()}
    entrants = {e.key: e for e in t.entrants}
    games: list[BoardPairing] = []
    byes: list[Bye] = []
    for white, black in table(n, round_number, cycles):
        if white > n or black > n:
            byes.append(Bye(by_number[min(white, black)], "Z"))
            continue
        w, b = by_number[white], by_number[black]
        w_in, b_in = entrants[w].active_in(round_number), entrants[b].active_in(round_number)
        result = None if w_in and b_in else "+-" if w_in else "-+" if b_in else "--"
        games.append(BoardPairing(w, b, result, board=len(games) + 1))
    return Round(round_number, games, byes)
