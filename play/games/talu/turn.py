"""One turn in progress: the legal next steps and their validated application (R5-R9).

Everything is on integers (square indices and bit sets) so that listing and checking steps stays
in the tens of microseconds; ``TaluGame`` translates to and from square names. The invasion search
(R10) copies this state to explore the opponent's possible turns with the very same rules.
"""

from __future__ import annotations

from .errors import IllegalStepError
from .steps import CAPTURE, END, EXIT, MOVE, PASS, STAY
from .variants import Geometry, Variant

# An internal step: (kind, a, b) with square indices, -1 where unused. For MOVE a->b, for
# CAPTURE a = capturer, b = target; for EXIT a = capturer's square (the target), b = exit.
IStep = tuple[str, int, int]
NONE: IStep = ("", -1, -1)


def iter_bits(bits: int):
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def closable_after(
    g: Geometry, v: Variant, me: int, op: int, a: int, t: int, used: int, links: int, honor: int
) -> bool:
    """Can a chain be closed after ``a`` captures on ``t``? (R7: offer a capture only then.)

    Closed by an exit to a free square other than the one the capturer came from, by staying
    when ``t`` was an honor target (R8), or by a further capture that can itself be closed.
    """
    tb = 1 << t
    me2 = (me ^ (1 << a)) | tb
    op2 = op ^ tb
    used2 = used + v.attack_cost - 1
    left2 = v.steps - used2
    if left2 < 1:
        return False
    if tb & honor:
        return True
    nb = g.neighbours
    if nb[t] & ~(me2 | op2) & ~(1 << a) & g.all:
        return True
    links2 = links + 1
    if left2 < v.attack_cost or (v.max_chain is not None and links2 >= v.max_chain):
        return False
    for t2 in iter_bits(op2 & g.overlap(me2)):
        for a2 in iter_bits(nb[t2] & me2):
            if closable_after(g, v, me2, op2, a2, t2, used2, links2, honor):
                return True
    return False


class TurnState:
    """The board and the bookkeeping of the turn being played by ``side`` (0 = I, 1 = O)."""

    __slots__ = (
        "came",
        "captures",
        "chain",
        "chain_start",
        "g",
        "honor",
        "honor_open",
        "links",
        "me",
        "op",
        "side",
        "steps",
        "used",
        "v",
    )

    def __init__(self, v: Variant, side: int, me: int, op: int) -> None:
        self.v = v
        self.g = v.geometry
        self.side = side
        self.me = me
        self.op = op
        self.used = 0
        self.chain = -1  # square of the last capturer while a chain is open
        self.came = -1  # the square it came from (no exit back there, R6)
        self.links = 0  # captures in the open chain (dynamic caps them at 3, R3/R7)
        self.chain_start: tuple[int, int] = (-1, -1)
        self.honor_open = False  # the open chain's last capture took an honor target (R8)
        # R10/R8: invaders are opponent pieces standing on my home row as my turn begins.
        self.honor = op & self.g.home_row(side)
        self.captures: list[tuple[int, int]] = []  # (target, capturer's adjacent pieces) R16
        self.steps: list[IStep] = []

    def copy(self) -> TurnState:
        c = TurnState.__new__(TurnState)
        c.v, c.g, c.side = self.v, self.g, self.side
        c.me, c.op, c.used = self.me, self.op, self.used
        c.chain, c.came, c.links = self.chain, self.came, self.links
        c.chain_start = self.chain_start
        c.honor_open, c.honor = self.honor_open, self.honor
        c.captures = list(self.captures)
        c.steps = list(self.steps)
        return c

    @property
    def left(self) -> int:
        return self.v.steps - self.used

    @property
    def chain_open(self) -> bool:
        return self.chain >= 0

    @property
    def over(self) -> bool:
        """No step remains and no chain is open: the turn has ended by itself (R9)."""
        return self.used >= self.v.steps and self.chain < 0

    # --- listing ---------------------------------------------------------------------------
    def legal(self) -> list[IStep]:
        g, v = self.g, self.v
        me, op = self.me, self.op
        left = v.steps - self.used
        out: list[IStep] = []
        if self.chain >= 0:
            t = self.chain
            for b in iter_bits(g.neighbours[t] & ~(me | op) & ~(1 << self.came) & g.all):
                out.append((EXIT, t, b))
            if self.honor_open:
                out.append((STAY, -1, -1))
            if left >= v.attack_cost and (v.max_chain is None or self.links < v.max_chain):
                self._captures(out)
            return out
        out.append((PASS, -1, -1) if self.used == 0 else (END, -1, -1))
        if left >= 1:
            empty = g.all & ~(me | op)
            s = g.stride
            for d, dest in ((s, (me << s) & empty), (-s, (me >> s) & empty),
                            (1, (me << 1) & empty), (-1, (me >> 1) & empty)):  # fmt: skip
                while dest:
                    low = dest & -dest
                    b = low.bit_length() - 1
                    out.append((MOVE, b - d, b))
                    dest ^= low
        if left >= v.attack_cost:
            self._captures(out)
        return out

    def _captures(self, out: list[IStep]) -> None:
        g, v = self.g, self.v
        me, op = self.me, self.op
        targets = op & g.overlap(me)
        if not targets:
            return
        nb = g.neighbours
        for t in iter_bits(targets):
            for a in iter_bits(nb[t] & me):
                if closable_after(g, v, me, op, a, t, self.used, self.links, self.honor):
                    out.append((CAPTURE, a, t))

    # --- applying --------------------------------------------------------------------------
    def check(self, kind: str, a: int, b: int) -> None:
        """Raise IllegalStepError saying why the step may not be played now; change nothing.

        The very checks ``apply`` makes before it changes anything: the game protocol decides
        a command with this (``play.games.talu.protocol``) and applies it later, when the
        event it produced is folded into the state."""
        if kind == MOVE:
            self._check_move(a, b)
        elif kind == CAPTURE:
            self._check_capture(a, b)
        elif kind == EXIT:
            self._check_exit(b)
        elif kind == STAY:
            self._check_stay()
        elif kind == END:
            if self.chain >= 0:
                raise IllegalStepError(f"the chain opened at {self._chain_text()} is never closed")
            if self.used == 0:
                raise IllegalStepError("no step has been made this turn: pass instead")
        elif kind == PASS:
            if self.used:
                raise IllegalStepError("a pass spends no step, and steps were already spent")
        else:
            raise IllegalStepError(f"unknown step kind {kind!r}")

    def apply(self, kind: str, a: int, b: int) -> None:
        """Apply one step or raise IllegalStepError saying why; nothing changes on error."""
        if kind == MOVE:
            self._check_move(a, b)
            self.me ^= (1 << a) | (1 << b)
            self.used += 1
        elif kind == CAPTURE:
            self._check_capture(a, b)
            self.captures.append((b, self.g.neighbours[b] & self.me))
            if self.chain < 0:
                self.chain_start = (a, b)
            tb = 1 << b
            self.me = (self.me ^ (1 << a)) | tb
            self.op ^= tb
            self.used += self.v.attack_cost - 1
            self.chain, self.came = b, a
            self.links += 1
            self.honor_open = bool(tb & self.honor)
        elif kind == EXIT:
            self._check_exit(b)
            self.me ^= (1 << self.chain) | (1 << b)
            self.used += 1
            self._close_chain()
        elif kind == STAY:
            self._check_stay()
            self.used += 1
            self._close_chain()
        else:  # end, pass (which change no square) and unknown kinds: checked alike
            self.check(kind, a, b)
        self.steps.append((kind, a, b))

    def _close_chain(self) -> None:
        self.chain = self.came = -1
        self.links = 0
        self.honor_open = False

    def _chain_text(self) -> str:
        a, t = self.chain_start
        return f"{self.g.name(a)}x{self.g.name(t)}"

    def _side_name(self, side: int) -> str:
        # Words, not the letters: "I" reads as a pronoun in a sentence (issue 24).
        return ("light", "dark")[side]

    def _check_own_piece(self, a: int) -> None:
        if not (self.me >> a) & 1:
            sq = self.g.name(a)
            if (self.op >> a) & 1:
                raise IllegalStepError(f"{sq} holds a piece of {self._side_name(1 - self.side)}, "
                                       f"not of {self._side_name(self.side)}")
            raise IllegalStepError(f"there is no piece on {sq}")

    def _check_move(self, a: int, b: int) -> None:
        g = self.g
        if self.chain >= 0:
            raise IllegalStepError(
                f"the chain opened at {self._chain_text()} must be closed before a move "
                f"(exit from {g.name(self.chain)}, or capture again)")
        if self.used >= self.v.steps:
            raise IllegalStepError(f"no steps left: a turn has {self.v.steps}")
        self._check_own_piece(a)
        if not (g.neighbours[a] >> b) & 1:
            raise IllegalStepError(f"{g.name(b)} is not next to {g.name(a)}: a piece moves one "
                                   "square forward, back, left or right")
        if ((self.me | self.op) >> b) & 1:
            raise IllegalStepError(f"{g.name(b)} is occupied")

    def _check_capture(self, a: int, t: int) -> None:
        g, v = self.g, self.v
        left = v.steps - self.used
        if left < v.attack_cost:
            raise IllegalStepError(
                f"a capture needs {v.attack_cost} steps left (to capture and to close the chain); "
                f"{left} left")
        if self.chain >= 0 and v.max_chain is not None and self.links >= v.max_chain:
            raise IllegalStepError(
                f"a chain may hold at most {v.max_chain} captures in {v.name} talu")
        self._check_own_piece(a)
        sq = g.name(t)
        if not (self.op >> t) & 1:
            if (self.me >> t) & 1:
                raise IllegalStepError(f"{sq} holds your own piece")
            raise IllegalStepError(f"there is no piece to capture on {sq}")
        if not (g.neighbours[a] >> t) & 1:
            raise IllegalStepError(f"{g.name(a)} is not next to {sq}: the capturer must be "
                                   "orthogonally adjacent to its target")
        if not (g.overlap(self.me) >> t) & 1:
            raise IllegalStepError(f"{sq} is not in an overlap of {self._side_name(self.side)}'s "
                                   "pieces")
        if not closable_after(g, v, self.me, self.op, a, t, self.used, self.links, self.honor):
            raise IllegalStepError(
                f"{g.name(a)}x{sq} could not be closed: no free exit square "
                "and no further capture that can exit")

    def _check_exit(self, b: int) -> None:
        g = self.g
        if self.chain < 0:
            raise IllegalStepError("there is no capture to exit from")
        c = self.chain
        if b == self.came:
            raise IllegalStepError(
                f"the exit of {g.name(self.came)}x{g.name(c)}-{g.name(b)} may not return to "
                f"{g.name(b)}, the square the capturer came from")
        if not (g.neighbours[c] >> b) & 1:
            raise IllegalStepError(
                f"{g.name(b)} is not next to {g.name(c)}, where the capturer stands")
        if ((self.me | self.op) >> b) & 1:
            raise IllegalStepError(f"{g.name(b)} is occupied: the exit needs a free square")

    def _check_stay(self) -> None:
        if self.chain < 0:
            raise IllegalStepError("there is no capture to close")
        if not self.honor_open:
            raise IllegalStepError(
                f"the chain opened at {self._chain_text()} is never closed: only an honor "
                "capture (of an invader on your home row) may go without exit")
