"""A tafl position and the rules that change it (T4-T11, T15): the search's and the site's one
engine.

The board is a flat ``bytearray`` (``board.Geometry``), each side's pieces a set of squares,
the position's Zobrist hash kept as pieces move (T10's repetition counts hashes), and every
change is undone from a stack: ``push`` a move, ``push_removal`` a T8 choice, ``pop`` either,
no copies on the hot path. A move is an int, ``from << 9 | to`` (``encode``/``decode``).

For a computer search (alpha-beta)::

    pos = Position(Rules("tafl", 11))           # or Position.from_text(...)
    for move in pos.legal_moves():              # [] while a removal is pending or when over
        pos.push(move)                          # trusted: a move from legal_moves()
        while pos.pending:                      # T8: the mover still chooses removals
            pos.push_removal(pos.removal_choices()[0])   # (search every choice)
        ... pos.result ...                      # None, or (winner side | None, reason)
        pos.pop() for each push / push_removal  # undo, exactly

``play`` and ``remove`` are the checked forms for people: they raise ``IllegalMove`` in a
player's words, changing nothing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from .board import (
    ATTACKER,
    ATTACKERS,
    DEFENDERS,
    EMPTY,
    KING,
    OWNER,
    SIDE_NAMES,
    Geometry,
    geometry,
    opening,
    parse_position,
    write_position,
)
from .errors import GameFinished, IllegalMove

#: T10: moves in a row without a removal that draw.
NO_CAPTURE_LIMIT = 100
__all__ = ["ESCAPE", "KING_CAPTURED", "NO_CAPTURE", "NO_CAPTURE_LIMIT", "NO_MOVES", "OWNER",
           "REASONS", "REPETITION", "Ply", "Position", "Rules", "decode", "encode"]
ESCAPE, KING_CAPTURED, NO_MOVES = "escape", "king_captured", "no_moves"
REPETITION, NO_CAPTURE = "repetition", "no_capture"
REASONS = (ESCAPE, KING_CAPTURED, NO_MOVES, REPETITION, NO_CAPTURE)


def encode(frm: int, to: int) -> int:
    return frm << 9 | to


def decode(move: int) -> tuple[int, int]:
    return move >> 9, move & 511


@dataclass(frozen=True)
class Rules:
    """Which game on which board (T1): ``tafl`` on any odd side 7..19 (option ``immunity``,
    T6) or ``tablut`` on 9x9."""

    game: str = "tafl"
    n: int = 11
    immunity: bool = False

    def __post_init__(self) -> None:
        if self.game not in ("tafl", "tablut"):
            raise ValueError(f"the tafl games are tafl and tablut, not {self.game!r}")
        if self.game == "tablut" and (self.n != 9 or self.immunity):
            raise ValueError("tablut is played on 9x9 only, without options (T1)")
        geometry(self.n, self.tablut)  # checks the size

    @property
    def tablut(self) -> bool:
        return self.game == "tablut"

    @property
    def geo(self) -> Geometry:
        return geometry(self.n, self.tablut)

    @property
    def variant(self) -> str:
        return f"{self.n}x{self.n}"

    @property
    def first(self) -> int:
        """Who moves first (T2): the attackers in tafl, the defenders in Tablut."""
        return DEFENDERS if self.tablut else ATTACKERS


@cache
def _zobrist(n: int) -> tuple[list[int], int]:
    rng = random.Random(0x7AF1 + n)
    return [rng.getrandbits(64) for _ in range(n * n * 4)], rng.getrandbits(64)


class Ply(NamedTuple):
    """One completed move: where from and to, the piece moved, the squares of the pieces it
    removed with their values (custodian, self-removal, T8), and whether the king stood in
    raichi after it (Tablut, T11)."""

    frm: int
    to: int
    piece: int
    captured: tuple[tuple[int, int], ...]
    raichi: bool


class Position:
    """A tafl game's position with what its rules need of the past: the repetition counts
    (T10), the run without capture (T10), the moves made (T11), a turn's pending T8 removals
    and the result."""

    __slots__ = ("_undo", "board", "counts", "geo", "groups", "hash", "history", "king",
                 "no_capture", "pending", "pieces", "plies", "result", "rules", "tablut",
                 "to_move", "turn_caps", "turn_move", "win", "zob", "zside")

    def __init__(self, rules: Rules | None = None, board: bytearray | None = None,
                 to_move: int | None = None) -> None:
        self.rules = rules = rules or Rules()
        self.geo = geo = rules.geo
        self.tablut = rules.tablut
        self.board = bytearray(board) if board is not None else opening(rules.n)
        if len(self.board) != geo.n * geo.n:
            raise ValueError(f"a {rules.variant} board has {geo.n * geo.n} squares")
        self.to_move = rules.first if to_move is None else to_move
        self.zob, self.zside = _zobrist(geo.n)
        self.pieces: list[set[int]] = [set(), set()]
        self.king = -1
        h = 0
        for sq, p in enumerate(self.board):
            if p:
                self.pieces[OWNER[p]].add(sq)
                h ^= self.zob[sq * 4 + p]
                if p == KING:
                    self.king = sq
        self.hash = h ^ (self.zside if self.to_move == DEFENDERS else 0)
        self.counts: dict[int, int] = {self.hash: 1}  # T15: the opening counts
        self.no_capture = 0
        self.plies = 0
        self.history: list[Ply] = []
        self.pending: tuple[tuple[int, ...], ...] = ()  # T8 choices per enclosed group
        self.groups: tuple[tuple[int, ...], ...] = ()  # those groups' squares
        self.turn_caps: tuple[tuple[int, int], ...] = ()  # removals of the turn in progress
        self.turn_move = (-1, -1, EMPTY)  # the move of the turn in progress: from, to, piece
        self.win: tuple[int, str] | None = None  # a win decided inside the turn in progress
        self.result: tuple[int | None, str] | None = None
        self._undo: list[tuple[tuple[object, ...], list[tuple[int, int]], int | None]] = []

    @classmethod
    def from_text(cls, text: str, to_move: str = "attackers", game: str = "tafl",
                  immunity: bool = False) -> Position:
        """A position from an OTN position record (tests, lessons): ``to_move`` is
        "attackers" or "defenders"."""
        board, n = parse_position(text)
        return cls(Rules(game, n, immunity), board, SIDE_NAMES.index(to_move))

    def text(self) -> str:
        return write_position(self.board, self.geo.n)

    # --- moves ----------------------------------------------------------------------------
    def legal_moves(self) -> list[int]:
        """Every legal move of the side to move (T4, T5, T11), as ``from << 9 | to``;
        none while a T8 removal is pending or once the game is over."""
        if self.result is not None or self.pending:
            return []
        board, rays = self.board, self.geo.rays
        out: list[int] = []
        app = out.append
        if not self.tablut:  # T4: rook moves, nothing else restricts them in tafl
            for sq in self.pieces[self.to_move]:
                base = sq << 9
                for ray in rays[sq]:
                    for t in ray:
                        if board[t]:
                            break
                        app(base | t)
            return out
        throne, camp = self.geo.throne, self.geo.camp
        for sq in self.pieces[self.to_move]:
            # T5: an attacker on a camp square has never left its camp (none may re-enter
            # one), so its own camp is the one it stands in; defenders have none. No ray
            # leaves a camp and comes back to it, so "may pass over its own camp" is this.
            home = camp[sq] if board[sq] == ATTACKER else 0
            base = sq << 9
            for ray in rays[sq]:
                for t in ray:
                    if board[t] or t == throne:
                        break
                    c = camp[t]
                    if c and c != home:
                        break
                    app(base | t)
        if self.to_move == DEFENDERS and self.king >= 0:
            banned = self.return_ban()
            if banned >= 0:
                m = self.king << 9 | banned
                if m in out and self.raichi_after(m):
                    out.remove(m)
        return out

    def has_move(self) -> bool:
        """Whether the side to move has a legal move (T4), without listing them."""
        board, adjacent = self.board, self.geo.adjacent
        if not self.tablut:
            return any(not board[a] for sq in self.pieces[self.to_move] for a in adjacent[sq])
        if self.to_move == DEFENDERS and self.return_ban() >= 0:
            return bool(self.legal_moves())
        throne, camp = self.geo.throne, self.geo.camp
        for sq in self.pieces[self.to_move]:
            home = camp[sq] if board[sq] == ATTACKER else 0
            for a in adjacent[sq]:
                if not board[a] and a != throne and (not camp[a] or camp[a] == home):
                    return True
        return False

    # --- making and unmaking ------------------------------------------------------------------
    def _frame(self) -> tuple[object, ...]:
        return (self.to_move, self.king, self.hash, self.no_capture, self.plies, self.pending,
                self.groups, self.turn_caps, self.turn_move, self.win, self.result,
                len(self.history))

    def _take(self, sq: int, changes: list[tuple[int, int]]) -> int:
        """Remove the piece on ``sq`` (a capture, T6-T8); a removed king is captured (T7)."""
        board = self.board
        p = board[sq]
        board[sq] = EMPTY
        self.hash ^= self.zob[sq * 4 + p]
        self.pieces[OWNER[p]].discard(sq)
        changes.append((sq, p))
        self.turn_caps += ((sq, p),)
        if p == KING:
            self.king = -1
            if self.win is None:
                self.win = (ATTACKERS, KING_CAPTURED)
        return p

    def push(self, move: int) -> None:
        """Make ``move`` (trusted: one of ``legal_moves()``): the piece moves (T4), its
        captures (T6, T7), tafl's self-removal (T6) and immobilisation (T8) follow. When T8
        leaves a choice, ``pending`` lists it and the turn goes on until ``push_removal``."""
        frame = self._frame()
        changes: list[tuple[int, int]] = []
        self._undo.append((frame, changes, None))
        frm, to = move >> 9, move & 511
        board, geo, zob = self.board, self.geo, self.zob
        p = board[frm]
        side = self.to_move
        board[frm] = EMPTY
        board[to] = p
        changes.append((frm, p))
        changes.append((to, EMPTY))
        self.hash ^= zob[frm * 4 + p] ^ zob[to * 4 + p]
        mine = self.pieces[side]
        mine.discard(frm)
        mine.add(to)
        self.turn_caps = ()
        self.turn_move = (frm, to, p)
        if p == KING:
            self.king = to
        # T6 custodian capture (T7 the king): only the moved piece captures, one enemy piece
        # between it and a piece of its side; edges, throne and camps never count.
        for adj, beyond in geo.pairs[to]:
            q = board[adj]
            if not q or OWNER[q] == side:
                continue
            if q == KING and self.tablut and adj == geo.throne:
                # T7: on the throne, attackers on all four squares next to him
                if all(board[a] == ATTACKER for a in geo.adjacent[adj]):
                    self._take(adj, changes)
                continue
            if beyond >= 0:
                b = board[beyond]
                if b and OWNER[b] == side:
                    self._take(adj, changes)
        captured = bool(self.turn_caps)
        if p == KING and self.win is None:
            if self.tablut:
                if geo.edge[to]:
                    self.win = (DEFENDERS, ESCAPE)  # T9: Tablut's king reaches an edge
            elif geo.edge_line(frm, to):
                self.win = (DEFENDERS, ESCAPE)  # T9: tafl's king moves along an edge
        if not self.tablut:
            # T6: a moved piece left between two enemy pieces is removed too (not a peaceful
            # king with immunity)
            if not (p == KING and self.rules.immunity and not captured):
                for a, b in geo.axes[to]:
                    qa, qb = board[a], board[b]
                    if qa and qb and OWNER[qa] != side and OWNER[qb] != side:
                        self._take(to, changes)
                        break
            self._enclose(1 - side, changes)
            if self.pending:
                return
        self._end_turn(side)

    def _enclose(self, enemy: int, changes: list[tuple[int, int]]) -> None:
        """T8: each enclosed enemy group loses a piece; a group with one valid choice (one
        piece, or the king and one soldier: the king goes last) at once, the others wait for
        the mover's choice (``pending``)."""
        groups = self.enclosed(enemy)
        if not groups:
            return
        pending, full = [], []
        board = self.board
        for group in groups:
            choices = group if len(group) == 1 else tuple(s for s in group if board[s] != KING)
            if len(choices) == 1:
                self._take(choices[0], changes)
            else:
                pending.append(choices)
                full.append(group)
        self.pending, self.groups = tuple(pending), tuple(full)

    def enclosed(self, side: int) -> list[tuple[int, ...]]:
        """``side``'s enclosed groups (T8): connected pieces with no empty square next to any
        of them, each sorted, in board order."""
        board, adjacent = self.board, self.geo.adjacent
        stuck = set()
        for sq in self.pieces[side]:
            for a in adjacent[sq]:
                if not board[a]:
                    break
            else:
                stuck.add(sq)
        if not stuck:
            return []
        seen: set[int] = set()
        out = []
        for start in sorted(stuck):
            if start in seen:
                continue
            group, free = [start], False
            seen.add(start)
            i = 0
            while i < len(group):
                s = group[i]
                i += 1
                for a in adjacent[s]:
                    q = board[a]
                    if q and OWNER[q] == side and a not in seen:
                        seen.add(a)
                        group.append(a)
                        if a not in stuck:
                            free = True
            if not free:
                out.append(tuple(sorted(group)))
        return out

    def removal_choices(self) -> list[int]:
        """The squares the mover may remove now (T8), every pending group's."""
        return sorted(s for choices in self.pending for s in choices)

    def push_removal(self, sq: int) -> None:
        """Remove the chosen piece ``sq`` of a pending enclosed group (trusted: one of
        ``removal_choices()``); the turn ends with the last choice."""
        frame = self._frame()
        changes: list[tuple[int, int]] = []
        self._undo.append((frame, changes, None))
        i = next(i for i, c in enumerate(self.pending) if sq in c)
        self.pending = self.pending[:i] + self.pending[i + 1:]
        self.groups = self.groups[:i] + self.groups[i + 1:]
        caps = frame[7]
        assert isinstance(caps, tuple)
        self.turn_caps = caps  # _take adds to the turn's removals
        self._take(sq, changes)
        if not self.pending:
            self._end_turn(self.to_move)

    def _end_turn(self, mover: int) -> None:
        """The turn is over: the move is history, the other side moves, and the ends are
        judged in T15's order: a win, no moves, repetition, no capture."""
        last = self.turn_move
        caps = self.turn_caps
        self.no_capture = 0 if caps else self.no_capture + 1
        self.to_move = 1 - mover
        self.hash ^= self.zside
        self.plies += 1
        raichi = self.tablut and self.king >= 0 and bool(self.raichi())
        self.history.append(Ply(last[0], last[1], last[2], caps, raichi))
        h = self.hash
        self.counts[h] = self.counts.get(h, 0) + 1
        frame, changes, _ = self._undo[-1]
        self._undo[-1] = (frame, changes, h)
        if self.win is not None:
            self.result = self.win
        elif not self.has_move():
            self.result = (mover, NO_MOVES)  # T4: the side without a move loses
        elif self.counts[h] >= 3:
            self.result = (None, REPETITION)
        elif self.no_capture >= NO_CAPTURE_LIMIT:
            self.result = (None, NO_CAPTURE)

    def pop(self) -> None:
        """Undo the last ``push`` or ``push_removal`` exactly."""
        frame, changes, counted = self._undo.pop()
        if counted is not None:
            left = self.counts[counted] - 1
            if left:
                self.counts[counted] = left
            else:
                del self.counts[counted]
        board, pieces = self.board, self.pieces
        for sq, old in reversed(changes):
            now = board[sq]
            if now:
                pieces[OWNER[now]].discard(sq)
            if old:
                pieces[OWNER[old]].add(sq)
            board[sq] = old
        (self.to_move, self.king, self.hash, self.no_capture, self.plies, self.pending,
         self.groups, self.turn_caps, self.turn_move, self.win, self.result, n) = frame  # type: ignore[assignment]
        del self.history[n:]  # type: ignore[arg-type]

    # --- T11 ------------------------------------------------------------------------------
    def raichi(self) -> list[int]:
        """The edge squares the king has a free line to and may enter (T11, Tablut's T5 camps
        and throne in the way); [] without a king."""
        k = self.king
        if k < 0:
            return []
        board, geo = self.board, self.geo
        throne, camp = geo.throne, geo.camp
        out = []
        for ray in geo.rays[k]:
            if ray and all(not board[t] and t != throne and not camp[t] for t in ray):
                out.append(ray[-1])
        return out

    def return_ban(self) -> int:
        """T11 (T15): the square S1 the king may not go back to on this move, or -1. The last
        four moves were the king to S1 (raichi), attacker A's reply (no raichi), the king to
        S2 != S1 (raichi), A's reply again (no raichi)."""
        h = self.history
        if not self.tablut or len(h) < 4 or self.to_move != DEFENDERS:
            return -1
        a, b, c, d = h[-4], h[-3], h[-2], h[-1]
        if (a.piece == KING and a.raichi and b.piece == ATTACKER and not b.raichi
                and c.piece == KING and c.raichi and c.to != a.to and d.piece == ATTACKER
                and d.frm == b.to and not d.raichi):
            return a.to
        return -1

    def raichi_after(self, move: int) -> bool:
        """Whether the king stands in raichi after ``move`` (T11's return rule), undone."""
        self.push(move)
        try:
            return bool(self.raichi())
        finally:
            while self.pending:  # not in Tablut; kept exact for any game
                self.pop()
            self.pop()

    # --- the checked path, for people ---------------------------------------------------------
    def why_illegal(self, frm: int, to: int) -> IllegalMove | None:
        """Why the side to move may not move ``frm``-``to``, in a player's words, or None."""
        geo, board = self.geo, self.board
        name = geo.name
        move = f"{name(frm)}-{name(to)}"
        p = board[frm]
        if p == KING:
            move = "K" + move
        if self.pending:
            return IllegalMove(move, "first remove a piece of each enclosed group: "
                               + " or ".join(name(s) for s in self.removal_choices()), "T8")
        if not p:
            return IllegalMove(move, f"there is no piece on {name(frm)}", "T4")
        if OWNER[p] != self.to_move:
            return IllegalMove(move, f"the piece on {name(frm)} is the {SIDE_NAMES[OWNER[p]]}'"
                               f", and the {SIDE_NAMES[self.to_move]} are to move", "T2")
        path = geo.between(frm, to)
        if path is None:
            return IllegalMove(move, "a piece moves like a chess rook, along its rank or its "
                               "file", "T4")
        for s in path:
            if board[s]:
                return IllegalMove(move, f"{name(s)} is in the way: a piece may not jump over "
                                   "another", "T4")
        if board[to]:
            return IllegalMove(move, f"{name(to)} is taken: a piece moves only to an empty "
                               "square", "T4")
        if self.tablut:
            who = "the king" if p == KING else "a defender" if p != ATTACKER else "an attacker"
            home = geo.camp[frm] if p == ATTACKER else 0
            for s, last in [(s, False) for s in path] + [(to, True)]:
                verb = "enter" if last else "pass through"
                if s == geo.throne:
                    if last and p == KING:
                        return IllegalMove(move, "the king may not return to the throne", "T5")
                    if last:
                        return IllegalMove(move, f"{name(s)} is the throne: only the king may "
                                           "stand on it", "T5")
                    return IllegalMove(move, f"{name(s)} is the throne: once the king has left "
                                       "it, no piece may pass through it", "T5")
                c = geo.camp[s]
                if c and c != home:
                    if p != ATTACKER:
                        return IllegalMove(move, f"{name(s)} is a camp: {who} may not {verb} "
                                           "it", "T5")
                    if not home:
                        return IllegalMove(move, f"{name(s)} is a camp: an attacker that has "
                                           f"left its camp may never {verb} one again", "T5")
                    return IllegalMove(move, f"{name(s)} is another camp: an attacker that "
                                       "has not left its camp moves only within its own",
                                       "T15")
            if p == KING and to == self.return_ban() and self.raichi_after(frm << 9 | to):
                return IllegalMove(move, f"the king may not go back to {name(to)}: he left "
                                   "it in raichi and the same attacker blocked him twice",
                                   "T11")
        return None

    def play(self, frm: int, to: int) -> None:
        """The checked move: ``IllegalMove`` (nothing changed) or ``push``."""
        if self.result is not None:
            raise GameFinished(f"{self.geo.name(frm)}-{self.geo.name(to)}: the game is over")
        err = self.why_illegal(frm, to)
        if err is not None:
            raise err
        self.push(frm << 9 | to)

    def why_not_removal(self, sq: int) -> IllegalMove | None:
        """Why the mover may not remove the piece on ``sq`` now (T8), or None."""
        name = self.geo.name
        if not self.pending:
            return IllegalMove(f"x{name(sq)}", "there is no enclosed group to remove a piece "
                               "from now", "T8")
        if sq in self.removal_choices():
            return None
        if any(sq in g for g in self.groups) and self.board[sq] == KING:
            why = "the king is removed last, when he is alone in his group"
        else:
            why = f"{name(sq)} is not a piece of an enclosed group: remove " + " or ".join(
                name(s) for s in self.removal_choices())
        return IllegalMove(f"x{name(sq)}", why, "T8")

    def remove(self, sq: int) -> None:
        """The checked T8 removal choice: ``IllegalMove`` (nothing changed) or the removal."""
        err = self.why_not_removal(sq)
        if err is not None:
            raise err
        self.push_removal(sq)

    # --- reading -------------------------------------------------------------------------
    @property
    def winner(self) -> int | None:
        return self.result[0] if self.result else None

    def mover(self) -> int:
        """The side whose turn it is (a pending removal is still the mover's)."""
        return self.to_move
