"""Talat's rules (A3-A8, A11) on a flat board with make/unmake, for the site, the records and
a computer's search.

The search's API::

    pos = Position("three")          # or "two" (A11: Zihin's towers, seat index 2)
    pos.legal()                      # the actions of the seat to act (ints; [PASS] if none)
    pos.push(action); pos.pop()      # one turn made and unmade (placements, moves, passes)
    pos.finished, pos.reason         # the end (A8): "frozen", "no_moves", "decision"
    pos.scores, pos.ranks()          # A6, A8

An action is an int: ``PASS``; a move or capture ``frm * 75 + to`` (a capture when ``to``
holds a tower); a placement ``PLACE + sq * 9 + kind`` of a tower of the seat being placed for
(``placing``: Zihin's in the two-seat game's first eight, A11). Actions are not checked by
``push``: ``notation.parse_action`` checks a person's action and names the rule it breaks.
The seat to act that has no action must pass (``must_pass``); the game never waits for it
(A4: the site passes for it at once, ``protocol.TalatRules.follow_up``).
"""

from __future__ import annotations

from .board import (
    BEATS,
    CAPTURE,
    EMPTY,
    FAR_ROW,
    FORWARD,
    MEET_DOWN,
    MEET_UP,
    SEATS,
    START,
    ZIHIN,
)

PASS = -1
PLACE = 10_000
PLACEMENT, PLAY, FINISHED = "placement", "play", "finished"
FROZEN, NO_MOVES, DECISION = "frozen", "no_moves", "decision"
ZIHIN_PLACEMENTS = 8  # A11: eight of Zihin's towers are placed, the ninth leaves the game
#: Each seat's start squares (A3): row 1 of its board X*, row 5 of *X.
START_OF = tuple(tuple(s) for s in START)
#: What ``pop`` needs of a turn: the action, the seat to move and whose towers were placed,
#: the phase and end, the frozen boards, the scores, the count of towers off, the victim.
Undo = tuple[int, int, int, str, "str | None", tuple[bool, ...], tuple[int, ...], int, int]


class Position:
    """A game of Talat from the empty boards. ``board[sq]`` is a tower or ``EMPTY``;
    ``where[tower]`` its square (-1 off the boards); ``hand[seat][kind]`` whether that tower
    is still to place; ``to_move`` the player whose turn it is (an index into ``seats``);
    ``placing`` whose towers that player places (A11); ``frozen[b]`` (A7, judged in play
    only); ``left`` the seats that left, in order (A8)."""

    __slots__ = ("_undo", "board", "captured", "frozen", "hand", "left", "off", "phase",
                 "placed", "placing", "players", "reason", "scores", "seats", "to_move",
                 "two", "variant", "where")

    def __init__(self, variant: str = "three") -> None:
        if variant not in SEATS:
            raise ValueError(f"Talat's variants are three and two, not {variant!r}")
        self.variant = variant
        self.seats = SEATS[variant]
        self.two = variant == "two"
        self.players = 2 if self.two else 3
        self.board = [EMPTY] * 75
        self.where = [-1] * 27
        self.hand = [[True] * 9 for _ in range(3)]
        self.scores = [0, 0, 0]
        self.captured: list[list[int]] = [[], [], []]
        self.frozen = [False, False, False]
        self.off: list[int] = []
        self.left: list[int] = []
        self.phase = PLACEMENT
        self.reason: str | None = None
        self.to_move = 0
        self.placing = ZIHIN if self.two else 0
        self.placed = 0
        self._undo: list[Undo] = []

    # --- reading --------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.phase == FINISHED

    @property
    def turns(self) -> int:
        return len(self._undo)

    def staying(self) -> list[int]:
        return [s for s in range(self.players) if s not in self.left]

    def legal(self) -> list[int]:
        """The actions of the seat to act: placements, else moves and captures, else
        ``[PASS]``; ``[]`` once the game is over."""
        if self.phase == PLAY:
            return self._actions(self.to_move, False) or [PASS]
        if self.phase == PLACEMENT:
            owner, hand, board = self.placing, self.hand[self.placing], self.board
            kinds = [k for k in range(9) if hand[k]]
            return [PLACE + sq * 9 + k for sq in START_OF[owner] if board[sq] == EMPTY
                    for k in kinds]
        return []

    def can_act(self, seat: int) -> bool:
        """Whether ``seat`` has a move or a capture (A4)."""
        return bool(self._actions(seat, True))

    def must_pass(self) -> bool:
        return self.phase == PLAY and not self._actions(self.to_move, True)

    def _actions(self, seat: int, first: bool) -> list[int]:
        out: list[int] = []
        board, where, frozen = self.board, self.where, self.frozen
        groups = [(seat, -1)]
        if self.two:
            groups.append((ZIHIN, seat + 1))  # A11: Zihin on the board by the opponent
        for owner, only in groups:
            fwd, cap = FORWARD[owner], CAPTURE[owner]
            for tower in range(owner * 9, owner * 9 + 9):
                sq = where[tower]
                if sq < 0:
                    continue
                b = sq // 25
                if frozen[b] or (only >= 0 and b != only):
                    continue
                frm = sq * 75
                for to in fwd[sq]:
                    if board[to] == EMPTY:
                        out.append(frm + to)
                row = (tower % 9) * 9
                for to in cap[sq]:
                    v = board[to]
                    if v >= 0 and v // 9 != owner and v // 9 != seat and BEATS[row + v % 9]:
                        out.append(frm + to)
                if first and out:
                    return out
        return out

    def frozen_board(self, b: int) -> bool:
        """A7: no pair of opposing towers on board ``b`` of which one beats the other and
        the two, by their own forward moves alone, can come where that capture is allowed."""
        board, base = self.board, b * 25
        lower, upper = b, (b + 1) % 3  # the seat of row 1 moves up, the seat of row 5 down
        ups: list[tuple[int, int]] = []
        downs: list[tuple[int, int]] = []
        for local in range(25):
            t = board[base + local]
            if t >= 0:
                if t // 9 == lower:
                    ups.append((local, t % 9))
                elif t // 9 == upper:
                    downs.append((local, t % 9))
        for lu, ku in ups:
            for ld, kd in downs:
                if BEATS[ku * 9 + kd] and MEET_UP[lu * 25 + ld]:
                    return False
                if BEATS[kd * 9 + ku] and MEET_DOWN[ld * 25 + lu]:
                    return False
        return True

    def ranks(self) -> dict[int, int]:
        """A8: the staying players by points, ties broken by their captured towers best
        first, still tied sharing a place (1, 1, 3); then those who left, the first to leave
        last."""
        def key(s: int) -> tuple[int, list[int]]:
            return self.scores[s], sorted((t % 9 for t in self.captured[s]), reverse=True)

        order = sorted(self.staying(), key=key, reverse=True)
        ranks: dict[int, int] = {}
        for i, s in enumerate(order):
            ranks[s] = ranks[order[i - 1]] if i and key(order[i - 1]) == key(s) else i + 1
        for i, s in enumerate(reversed(self.left)):
            ranks[s] = len(order) + i + 1
        return ranks

    # --- playing --------------------------------------------------------------------------
    def push(self, action: int) -> None:
        """Make one turn (unchecked: see ``notation.parse_action``)."""
        saved = (action, self.to_move, self.placing, self.phase, self.reason,
                 (*self.frozen,), (*self.scores,), len(self.off))
        if action >= PLACE:
            sq, kind = divmod(action - PLACE, 9)
            tower = self.placing * 9 + kind
            self.board[sq], self.where[tower] = tower, sq
            self.hand[self.placing][kind] = False
            self.placed += 1
            self._undo.append((*saved, -1))
            self._after_placement()
            return
        if action == PASS:
            self._undo.append((*saved, -1))
            self._after_turn()
            return
        frm, to = divmod(action, 75)
        board = self.board
        tower, victim = board[frm], board[to]
        board[to], board[frm] = tower, EMPTY
        self.where[tower] = to
        mover = self.to_move
        if victim >= 0:
            self.where[victim] = -1
            self.captured[mover].append(victim)
            self.scores[mover] += 5  # A6
        far = FAR_ROW[tower // 9][to]
        if to % 25 // 5 == far and frm % 25 // 5 != far:
            self.scores[mover] += 3  # A6: arrived on an opponent's start line
        self._undo.append((*saved, victim))
        b = to // 25
        self.frozen[b] = self.frozen_board(b)
        self._after_turn()

    def pop(self) -> None:
        """Unmake the last turn."""
        (action, to_move, placing, phase, reason, frozen, scores, n_off,
         victim) = self._undo.pop()
        if action >= PLACE:
            sq, kind = divmod(action - PLACE, 9)
            self.board[sq] = EMPTY
            self.where[placing * 9 + kind] = -1
            self.hand[placing][kind] = True
            self.placed -= 1
            while len(self.off) > n_off:
                t = self.off.pop()
                self.hand[t // 9][t % 9] = True
        elif action != PASS:
            frm, to = divmod(action, 75)
            tower = self.board[to]
            self.board[frm], self.where[tower] = tower, frm
            self.board[to] = victim
            if victim >= 0:
                self.where[victim] = to
                self.captured[to_move].pop()
        self.to_move, self.placing, self.phase, self.reason = to_move, placing, phase, reason
        self.frozen[:] = frozen
        self.scores[:] = scores

    def leave(self, seat: int) -> None:
        """A8: ``seat`` resigned or lost on time: its towers stay, it takes no more turns;
        with one seat left the game ends. Not undone by ``pop``."""
        if seat in self.left or self.finished:
            return
        self.left.append(seat)
        if len(self.staying()) <= 1:
            self.phase, self.reason = FINISHED, DECISION
            return
        if self.phase == PLACEMENT:
            if self.to_move == seat:
                self._next_placer(seat)
            return
        if self.to_move == seat:
            self.to_move = self._following(seat)
        self._settle()  # the seat that left may have been the last that could act

    def _following(self, seat: int) -> int:
        for i in range(1, self.players + 1):
            s = (seat + i) % self.players
            if s not in self.left:
                return s
        return seat

    def _after_turn(self) -> None:
        self.to_move = self._following(self.to_move)
        self._settle()

    def _settle(self) -> None:
        """A8: two frozen boards end the game; else, if nobody can act, it ends too (the
        seat to act that alone cannot act must pass)."""
        if self.frozen.count(True) >= 2:
            self.phase, self.reason = FINISHED, FROZEN
        elif not self.can_act(self.to_move) and \
                not any(self.can_act(s) for s in self.staying()):
            self.phase, self.reason = FINISHED, NO_MOVES

    def _after_placement(self) -> None:
        mover = self.to_move
        if self.two:
            # A11: the players alternate throughout; Zihin's eight first, the ninth out
            if self.placed == ZIHIN_PLACEMENTS:
                for k in range(9):
                    if self.hand[ZIHIN][k]:
                        self.hand[ZIHIN][k] = False
                        self.off.append(ZIHIN * 9 + k)
            if self.placed < ZIHIN_PLACEMENTS:
                self.to_move = 1 - mover
            elif any(self.hand[0]) or any(self.hand[1]):
                self.to_move = self.placing = 1 - mover
            else:
                self._start_play(mover)  # the last placer moves first (A11)
            return
        self._next_placer(mover)

    def _next_placer(self, after: int) -> None:
        """A3: the next seat in order still placing; when all have placed, seat 1 moves."""
        for i in range(1, self.players + 1):
            s = (after + i) % self.players
            if s not in self.left and any(self.hand[s]):
                self.to_move = self.placing = s
                return
        self._start_play(0 if 0 not in self.left else self._following(0))

    def _start_play(self, first: int) -> None:
        self.phase, self.to_move = PLAY, first
        for b in range(3):
            self.frozen[b] = self.frozen_board(b)  # A7: judged from the first move on
        self._settle()
