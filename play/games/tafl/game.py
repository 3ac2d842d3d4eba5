"""A tafl game as people play it: the position (``position.Position``) with the OTN records
of its moves (T12), played by checked moves and removal choices, and a decision off the board
(resignation, time, agreement) when the site's match makes one.

The site's engine (``protocol.TaflRules``) and ``talu replay --game tafl`` both play this;
the computer's search plays the bare ``Position`` (``game.pos``).
"""

from __future__ import annotations

from .board import ATTACKERS, DEFENDERS, KING, LETTERS, SIDE_NAMES, Geometry
from .errors import GameFinished, IllegalMove, MalformedMove
from .otn import RESIGN, MoveRecord, check_suffix, parse_move, suffix_after, write_move
from .position import Position, Rules


class TaflGame:
    """A game of ``rules`` from the opening: ``records`` are the OTN records of its completed
    moves, ``decided`` how the match ended it off the board (winner side or None, words)."""

    def __init__(self, rules: Rules | None = None) -> None:
        self.rules = rules or Rules()
        self.pos = Position(self.rules)
        self.records: list[str] = []
        self.decided: tuple[int | None, str] | None = None
        self.resigned: int | None = None  # the side that resigned in a record (``---``)

    @property
    def geo(self) -> Geometry:
        return self.pos.geo

    # --- playing ------------------------------------------------------------------------------
    def _live(self, what: str) -> None:
        if self.pos.result is not None or self.decided is not None:
            raise GameFinished(f"{what}: the game is over")

    def move(self, frm: int, to: int) -> None:
        """Play a checked move (``IllegalMove`` in words, nothing changed)."""
        self._live(f"{self.geo.name(frm)}-{self.geo.name(to)}")
        self.pos.play(frm, to)
        self._recorded()

    def remove(self, sq: int) -> None:
        """Choose a T8 removal (``IllegalMove`` in words, nothing changed)."""
        self._live(f"x{self.geo.name(sq)}")
        self.pos.remove(sq)
        self._recorded()

    def _recorded(self) -> None:
        """Write the record of a completed move (after its last removal, T8)."""
        pos = self.pos
        if pos.pending or len(self.records) == len(pos.history):
            return
        ply = pos.history[-1]
        self.records.append(write_move(pos.geo, ply.frm, ply.to, ply.piece, ply.captured,
                                       suffix_after(pos)))

    def play_record(self, text: str) -> None:
        """Play one OTN move record, checked: the move, exactly the captures the rules make
        (T8's removals the record's choice), true info suffixes (T12, T15). ``MalformedMove``
        or ``IllegalMove`` naming the record; nothing changed."""
        pos = self.pos
        if text.strip() == RESIGN:
            self._live(RESIGN)
            self.resigned = pos.to_move
            self.decided = (1 - pos.to_move, f"{SIDE_NAMES[pos.to_move]} resign")
            return
        rec = parse_move(text, pos.geo)
        self._live(rec.text)
        name = pos.geo.name
        if rec.king and pos.board[rec.frm] != KING and pos.board[rec.frm]:
            raise IllegalMove(rec.text, f"K is written before the king's square, and the piece "
                              f"on {name(rec.frm)} is a soldier", "T15")
        depth = len(pos._undo)
        pos.play(rec.frm, rec.to)
        try:
            self._check_captures(rec)
            why = check_suffix(pos, rec.suffix)
            if why:
                raise IllegalMove(rec.text, why, "T12")
        except (IllegalMove, MalformedMove):
            while len(pos._undo) > depth:
                pos.pop()
            raise
        self._recorded()

    def _check_captures(self, rec: MoveRecord) -> None:
        pos = self.pos
        name = pos.geo.name
        written = dict(rec.captures)
        made = [sq for sq, _ in pos.turn_caps]
        for sq in made:
            if sq not in written:
                raise IllegalMove(rec.text, f"the capture record leaves out {name(sq)}, which "
                                  "the move removes", "T12")
        for sq in written:
            if sq in made:
                continue
            if not any(sq in g for g in pos.groups):
                raise IllegalMove(rec.text, f"the move does not capture {name(sq)}", "T12")
            try:
                pos.remove(sq)  # T8: the record's choice, when it is a valid one
            except IllegalMove as err:
                raise IllegalMove(rec.text, err.reason, err.rule) from None
            made.append(sq)
        if pos.pending:
            group = pos.groups[0]
            raise IllegalMove(rec.text, "the capture record names no piece of the enclosed "
                              f"group {'/'.join(name(s) for s in group)}: one of them is "
                              "removed", "T8")
        for sq, king in rec.captures:
            if king and dict(pos.turn_caps).get(sq) != KING:
                raise IllegalMove(rec.text, f"xK is written before the king's square, and "
                                  f"{name(sq)} is not where he was captured", "T15")

    # --- reading -------------------------------------------------------------------------
    @property
    def result(self) -> tuple[int | None, str] | None:
        """(winner side or None, reason): the rules' (T9, T10), else the decision off the
        board (reason ``decision``)."""
        if self.pos.result is not None:
            return self.pos.result
        if self.decided is not None:
            return (self.decided[0], "decision")
        return None

    @property
    def to_move(self) -> int | None:
        return None if self.result is not None else self.pos.to_move

    def side_name(self, side: int | None) -> str | None:
        return None if side is None else SIDE_NAMES[side]

    # --- as people read it (the site's view, its review) ---------------------------------------
    def pieces(self) -> dict[str, str]:
        """The board by square name, in OTN letters (t attacker, T defender, K king)."""
        name = self.geo.name
        return {name(sq): LETTERS[p] for sq, p in enumerate(self.pos.board) if p}

    def last_move(self) -> dict[str, object] | None:
        """The last move with its captures and its record; during a turn whose T8 removals
        are still to choose, that turn's move and the removals so far (no record yet)."""
        pos, name = self.pos, self.geo.name
        if pos.pending:
            frm, to, _ = pos.turn_move
            return {"from": name(frm), "to": name(to),
                    "captured": [name(s) for s, _ in pos.turn_caps], "record": ""}
        if not pos.history:
            return None
        ply = pos.history[-1]
        return {"from": name(ply.frm), "to": name(ply.to),
                "captured": [name(s) for s, _ in ply.captured],
                "record": self.records[-1] if self.records else ""}

    def raichi(self) -> list[str]:
        """Tablut's raichi squares (T11) while the game goes on; none in tafl."""
        if not self.pos.tablut or self.result is not None:
            return []
        return [self.geo.name(s) for s in self.pos.raichi()]


__all__ = ["ATTACKERS", "DEFENDERS", "TaflGame"]
