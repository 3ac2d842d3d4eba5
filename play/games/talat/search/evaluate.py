"""How good a Talat position is for one seat, in hundredths of a point (A6: a capture 5, an
arrival 3), for a search that looks a few turns ahead.

Each seat's worth is its score plus what it can still score: towers that can still arrive
on an opponent's start line (more the nearer they are), pairs of towers that can still meet
for a capture (A7's own test: ``MEET_UP``/``MEET_DOWN``, on boards not frozen), and towers
standing en prise now. A frozen board (A7) adds nothing: nobody moves on it again. The value
for a seat is its lead over the best of the others (the rank is what counts, A8), with a
smaller share of its lead over the worst.

In the two-seat game (A11) a Zihin tower on the board between Zihin and a player's opponent
is that player's: it captures and arrives for them, so it counts as theirs here.
"""

from __future__ import annotations

from ..board import BEATS, CAPTURE, FAR_ROW, MEET_DOWN, MEET_UP, ZIHIN
from ..position import FINISHED, Position

WIN = 100_000  # a finished game in which the seat ranks first alone
POINT = 100
#: A tower's worth for its arrival still to come, by the rows it has to go (A6: 3 points).
ARRIVE = (0, 150, 100, 70, 50)
PAIR_GAIN = 60  # a tower that beats an opposing one and can still meet it (A5, A7)
PAIR_LOSS = 40  # ... and for the tower that can be caught so
#: En prise now: the seat to act takes its best capture in the search (``engine.quiesce``);
#: a threat by a seat acting later is only likely.
THREAT_GAIN = 150
THREAT_LOSS = 200
MOVER_GAIN = 300  # the best capture the seat to act has, beyond what it will search
#: A tower's material by its kind (S3 ... L6): how many kinds it beats less how many beat it
#: (A5), so a strong tower lost costs more, and Zihin's towers (A11) are worth placing well.
STRENGTH = tuple(15 * (sum(BEATS[k * 9 + j] for j in range(9))
                       - sum(BEATS[j * 9 + k] for j in range(9))) for k in range(9))


def worths(pos: Position) -> list[int]:
    """Each seat's score and what it can still score (hundredths of a point)."""
    v = [s * POINT for s in pos.scores]
    board, frozen, two = pos.board, pos.frozen, pos.two
    mover = pos.to_move if pos.phase != FINISHED else -1
    best_mover = 0
    gone = [s in pos.left for s in range(3)]  # A8: a seat that left never captures again
    for b in range(3):
        if frozen[b]:
            continue
        base = b * 25
        ups: list[tuple[int, int, int]] = []  # (square, tower, controller)
        downs: list[tuple[int, int, int]] = []
        lower = b
        for sq in range(base, base + 25):
            t = board[sq]
            if t < 0:
                continue
            owner = t // 9
            # the player it scores for: a Zihin tower (A11) plays for the player who moves
            # it on its board (board 1, 2Z: seat 1's; board 2, Z1: seat 2's)
            c = sq // 25 - 1 if two and owner == ZIHIN else owner
            row = sq % 25 // 5
            far = FAR_ROW[owner][sq]
            go = far - row if far > row else row - far
            v[c] += ARRIVE[go] + STRENGTH[t % 9]
            (ups if owner == lower else downs).append((sq, t, c))
        for su, tu, cu in ups:
            ku = tu % 9
            lu = su - base
            for sd, td, cd in downs:
                kd = td % 9
                ld = sd - base
                if BEATS[ku * 9 + kd] and MEET_UP[lu * 25 + ld] and not gone[cu]:
                    v[cu] += PAIR_GAIN
                    v[cd] -= PAIR_LOSS
                    if sd in CAPTURE[tu // 9][su]:
                        if cu == mover:
                            best_mover = max(best_mover, MOVER_GAIN)
                        else:
                            v[cu] += THREAT_GAIN
                            v[cd] -= THREAT_LOSS
                elif BEATS[kd * 9 + ku] and MEET_DOWN[ld * 25 + lu] and not gone[cd]:
                    v[cd] += PAIR_GAIN
                    v[cu] -= PAIR_LOSS
                    if su in CAPTURE[td // 9][sd]:
                        if cd == mover:
                            best_mover = max(best_mover, MOVER_GAIN)
                        else:
                            v[cd] += THREAT_GAIN
                            v[cu] -= THREAT_LOSS
    if mover >= 0:
        v[mover] += best_mover
    return v


def lead(pos: Position, v: list[int], seat: int) -> int:
    """``seat``'s lead over the best of the other seats still playing, and a third of its
    lead over the worst (A8: seats that left rank last whatever their points)."""
    others = [v[s] for s in range(pos.players) if s != seat and s not in pos.left]
    if not others:
        return v[seat]
    return v[seat] - max(others) + (v[seat] - min(others)) // 3


def terminal(pos: Position, seat: int) -> int:
    """A finished game's worth for ``seat``: first alone is a win, first shared half of one,
    lower places a loss; the points' lead on top (more is better however it ends)."""
    ranks = pos.ranks()
    rank = ranks.get(seat, len(ranks))
    shared = sum(1 for r in ranks.values() if r == rank) > 1
    bonus = (WIN if not shared else WIN // 2) if rank == 1 else -WIN // 2 * (rank - 1)
    return bonus + lead(pos, [s * POINT for s in pos.scores], seat)


def evaluate(pos: Position, seat: int) -> int:
    """The position's worth for ``seat`` (the game's end exactly, else the estimate)."""
    if pos.phase == FINISHED:
        return terminal(pos, seat)
    return lead(pos, worths(pos), seat)

