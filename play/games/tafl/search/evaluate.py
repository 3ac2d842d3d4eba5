"""The static evaluation of a tafl position, for both sides (issue 42).

Scores are in hundredths of an attacker, from the side to move's point of view. What counts:

- material: an attacker 100, a defender 170 (the attackers start two to one, T3);
- the king's ways out (T9): his escapes at hand (tafl: a move along the edge he stands on;
  Tablut: a free line to an edge square he may enter, T5/T11's raichi), and the squares one
  king move away from which an escape would be at hand (two or more there: a fork);
- the king's danger (T6/T7): attackers next to him, and a capture at hand;
- the attackers' encirclement: attackers near the king; in tafl (T8) the pieces of each side
  with no empty square next to them, on the way to an enclosure;
- the king's mobility.

A win at hand for the side to move (an escape for the defenders, the king's capture for the
attackers) scores as the win one ply later: the search's horizon never hides it.
"""

from __future__ import annotations

from functools import cache

from ..board import ATTACKER, ATTACKERS, DEFENDERS, Geometry
from ..position import KING_CAPTURED, Position

WIN = 1_000_000
ATTACKER_VALUE, DEFENDER_VALUE = 100, 170
KING_NEIGHBOUR = 35  # an attacker next to the king
ROUTE_ONE, ROUTE_FORK = 250, 2_500  # escapes at hand with the attackers to move
NEXT_ROUTE = 40  # a square one king move away with an escape from it
FORK_NEXT_MOVER, FORK_NEXT = 600, 150  # such a square with two escapes (defenders to move / not)
KING_MOBILITY = 4
THREAT = 150  # the king capturable next move, the defenders to move
NEAR = 8  # an attacker within two squares (Manhattan) of the king
STUCK = 20  # a piece with no empty square next to it (tafl's T8 enclosure on the way)


@cache
def edge_neighbours(n: int) -> tuple[tuple[int, ...], ...]:
    """Per square: its neighbours along the edge line it stands on (T9: tafl's escape is a
    move along the edge), none off the edge."""
    out = []
    for sq in range(n * n):
        r, f = divmod(sq, n)
        nb: list[int] = []
        if r in (0, n - 1):
            nb += [r * n + ff for ff in (f - 1, f + 1) if 0 <= ff < n]
        if f in (0, n - 1):
            nb += [rr * n + f for rr in (r - 1, r + 1) if 0 <= rr < n]
        out.append(tuple(nb))
    return tuple(out)


def king_reach(pos: Position) -> list[int]:
    """The squares the king may move to (T4, T5: Tablut's throne and camps block him)."""
    k = pos.king
    board, geo = pos.board, pos.geo
    out = []
    if pos.tablut:
        throne, camp = geo.throne, geo.camp
        for ray in geo.rays[k]:
            for t in ray:
                if board[t] or t == throne or camp[t]:
                    break
                out.append(t)
    else:
        for ray in geo.rays[k]:
            for t in ray:
                if board[t]:
                    break
                out.append(t)
    return out


def _tablut_routes(board: bytearray, geo: Geometry, sq: int) -> int:
    """Free lines from ``sq`` to an edge square the king may enter (T5, T11)."""
    throne, camp, n = geo.throne, geo.camp, 0
    for ray in geo.rays[sq]:
        if not ray:
            continue
        for t in ray:
            if board[t] or t == throne or camp[t]:
                break
        else:
            n += 1
    return n


def escapes_now(pos: Position) -> int:
    """The king's escapes at hand (T9): tafl, directions along the edge he stands on with an
    empty square beside him; Tablut, free lines to an edge square."""
    k = pos.king
    if k < 0:
        return 0
    if pos.tablut:
        return _tablut_routes(pos.board, pos.geo, k)
    board = pos.board
    return sum(1 for a in edge_neighbours(pos.geo.n)[k] if not board[a])


def capture_at_hand(pos: Position) -> int:
    """An attacker move that captures the king now (T6, T7), as ``from << 9 | to``, or -1;
    the attackers to move. Checked by the rules (``why_illegal``, a trial push): exact."""
    k = pos.king
    if k < 0:
        return -1
    board, geo = pos.board, pos.geo
    adjacent = geo.adjacent[k]
    on_throne = pos.tablut and k == geo.throne
    for t in adjacent:
        if board[t]:
            continue
        if on_throne:
            if sum(1 for a in adjacent if board[a] == ATTACKER) != 3:
                continue
        else:
            o = 2 * k - t  # across the king from t (same line: both are his neighbours)
            if o not in adjacent or board[o] != ATTACKER:
                continue
        for ray in geo.rays[t]:
            for s in ray:
                q = board[s]
                if q:
                    if q == ATTACKER:
                        move = s << 9 | t
                        if not pos.tablut or pos.why_illegal(s, t) is None:
                            pos.push(move)
                            won = pos.win is not None and pos.win[1] == KING_CAPTURED
                            pos.pop()  # one pop undoes the move, pending removals or not
                            if won:
                                return move
                    break
    return -1


def evaluate(pos: Position, ply: int = 0) -> int:
    """The position's worth for the side to move (``pos.result`` is None, no removal
    pending)."""
    me = pos.to_move
    k = pos.king
    pieces = pos.pieces
    if k < 0:  # not reached in play: the king's capture ends the game (T7)
        return WIN - ply if me == ATTACKERS else -(WIN - ply)
    now = escapes_now(pos)
    if me == DEFENDERS and now:
        return WIN - ply - 1  # an escape at hand (T9)
    if me == ATTACKERS and capture_at_hand(pos) >= 0:
        return WIN - ply - 1  # the king's capture at hand (T7)
    board, geo = pos.board, pos.geo
    n = geo.n
    na = len(pieces[ATTACKERS])
    nd = len(pieces[DEFENDERS]) - 1
    s = ATTACKER_VALUE * na - DEFENDER_VALUE * nd
    # the king's danger and the attackers near him
    kr, kf = divmod(k, n)
    for a in geo.adjacent[k]:
        if board[a] == ATTACKER:
            s += KING_NEIGHBOUR
    for sq in pieces[ATTACKERS]:
        r, f = divmod(sq, n)
        if abs(r - kr) + abs(f - kf) <= 2:
            s += NEAR
    # the king's ways out
    if me == ATTACKERS and now:
        s -= ROUTE_FORK if now >= 2 else ROUTE_ONE
    reach = king_reach(pos)
    s -= KING_MOBILITY * len(reach)
    nxt = fork = 0
    if pos.tablut:
        for t in reach:
            if not geo.edge[t]:
                r = _tablut_routes(board, geo, t)
                if r:
                    nxt += 1
                    fork = max(fork, r)
    else:
        edge_nb = edge_neighbours(n)
        for t in reach:
            r = 0
            for a in edge_nb[t]:
                if not board[a]:
                    r += 1
            if r:
                nxt += 1
                fork = max(fork, r)
    s -= NEXT_ROUTE * min(nxt, 5)
    if fork >= 2:
        s -= FORK_NEXT_MOVER if me == DEFENDERS else FORK_NEXT
    if me == DEFENDERS and _threatened(pos):
        s += THREAT
    if not pos.tablut:  # T8: pieces walled in, on the way to an enclosure
        adjacent = geo.adjacent
        for side, sign in ((DEFENDERS, STUCK), (ATTACKERS, -STUCK)):
            for sq in pieces[side]:
                for a in adjacent[sq]:
                    if not board[a]:
                        break
                else:
                    s += sign
    return s if me == ATTACKERS else -s


def _threatened(pos: Position) -> bool:
    """Whether an attacker could capture the king on their next move (the defenders to
    move): a cheap look, the rules' checks left to the search."""
    k = pos.king
    board, geo = pos.board, pos.geo
    adjacent = geo.adjacent[k]
    if pos.tablut and k == geo.throne:
        return False
    for t in adjacent:
        if board[t]:
            continue
        o = 2 * k - t
        if o not in adjacent or board[o] != ATTACKER:
            continue
        for ray in geo.rays[t]:
            for s in ray:
                if board[s]:
                    if board[s] == ATTACKER:
                        return True
                    break
    return False
