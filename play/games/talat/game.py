"""A game of Talat as people play it: the position (``position.Position``) with the A10 line
of every turn, the seats that left (A8) and a decision off the board (a record's
``[Ranks]``, the site's resignations and time, R37), for the site's engine and the records.
"""

from __future__ import annotations

from .board import board_names, square_name, tower_name
from .errors import GameFinished, IllegalAction
from .notation import parse_action, seat_token, write_action
from .position import DECISION, FINISHED, PASS, PLACEMENT, Position


class TalatGame:
    """``lines`` are the turns as A10 writes them after the number (``2>Z Z1:c2-c3``);
    ``left_at`` each seat that left with the count of turns before it left; ``decided`` the
    ranks by seat of a decision off the board (None: none)."""

    def __init__(self, variant: str = "three") -> None:
        self.pos = Position(variant)
        self.lines: list[str] = []
        self.left_at: list[tuple[str, int]] = []
        self.decided: dict[str, int] | None = None

    @property
    def variant(self) -> str:
        return self.pos.variant

    @property
    def players(self) -> tuple[str, ...]:
        return self.pos.seats[:self.pos.players]

    # --- playing --------------------------------------------------------------------------
    def to_move(self) -> str | None:
        """The seat whose turn it is, None once the game is over."""
        return None if self.finished else self.pos.seats[self.pos.to_move]

    def act(self, seat: str, text: str, zihin: bool | None = None) -> str:
        """Play ``seat``'s action written ``text`` (A10; ``zihin``: written ``N>Z``), checked;
        the turn's line. ``IllegalAction`` naming the rule, nothing changed."""
        if self.finished:
            raise GameFinished(f"{text.strip()}: the game is over")
        mover = self.to_move()
        if seat != mover:
            also = " (it can only pass)" if self.pos.must_pass() else ""
            raise IllegalAction(text.strip(), f"it is seat {mover}'s turn{also}, not seat "
                                f"{seat}'s", "A4" if self.pos.phase != PLACEMENT else "A3")
        return self.play(parse_action(self.pos, text, zihin))

    def play(self, action: int) -> str:
        """Play a legal action (from ``pos.legal()``, or checked) and record its line."""
        line = f"{seat_token(self.pos, action)} {write_action(self.pos, action)}"
        self.pos.push(action)
        self.lines.append(line)
        return line

    def auto_passes(self) -> list[str]:
        """A4: pass for every seat to act that has no move or capture, in turn."""
        out = []
        while self.pos.must_pass() and self.decided is None:
            out.append(self.play(PASS))
        return out

    def leave(self, seat: str) -> None:
        """A8: ``seat`` resigned or lost on time; its towers stay, it takes no more turns."""
        index = self.pos.seats.index(seat)
        if index in self.pos.left or self.finished:
            return
        self.left_at.append((seat, len(self.lines)))
        self.pos.leave(index)

    # --- reading --------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.pos.phase == FINISHED or self.decided is not None

    @property
    def reason(self) -> str | None:
        if self.pos.phase == FINISHED:
            return self.pos.reason
        return DECISION if self.decided is not None else None

    def ranks(self) -> dict[str, int] | None:
        """The final ranks by seat (A8), None while the game goes on."""
        if self.pos.phase == FINISHED:
            return {self.pos.seats[s]: r for s, r in sorted(self.pos.ranks().items())}
        return dict(self.decided) if self.decided is not None else None

    def scores(self) -> dict[str, int]:
        return {s: self.pos.scores[i] for i, s in enumerate(self.players)}

    def captured(self) -> dict[str, list[str]]:
        return {s: [tower_name(t, self.pos.seats) for t in self.pos.captured[i]]
                for i, s in enumerate(self.players)}

    def towers(self) -> dict[str, str]:
        """Every tower on a board by square (``"12:c3": "1:M6"``)."""
        boards, seats = board_names(self.variant), self.pos.seats
        return {square_name(sq, boards): tower_name(t, seats)
                for sq, t in enumerate(self.pos.board) if t >= 0}

    def frozen(self) -> list[str]:
        boards = board_names(self.variant)
        return [boards[b] for b in range(3) if self.pos.frozen[b]]

    def legal(self) -> list[str]:
        """The actions of the seat to act as A10 writes them (``pass`` when it must)."""
        if self.finished:
            return []
        return [write_action(self.pos, a) for a in self.pos.legal()]
