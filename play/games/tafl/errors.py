"""The tafl rules' refusals, in a player's words, naming the move and the rule (as
python-chess's ``IllegalMoveError`` names the move): nothing changed when one is raised."""

from __future__ import annotations


class TaflError(ValueError):
    """Anything the tafl rules refuse."""


class IllegalMove(TaflError):
    """A well-formed move or removal the rules do not allow here ("e4-e7: e5 is a camp: a
    defender may not enter it (T5)"). ``move`` is the move as written, ``rule`` the ruling."""

    def __init__(self, move: str, reason: str, rule: str = "") -> None:
        self.move, self.reason, self.rule = move, reason, rule
        text = f"{move}: {reason}" if move else reason
        super().__init__(f"{text} ({rule})" if rule else text)


class MalformedMove(TaflError):
    """Text that is not a move at all ("e4e7", a square off the board)."""


class GameFinished(TaflError):
    """A move after the end of the game."""


class RecordError(TaflError):
    """A game record (T13) that does not replay: ``move`` counts moves from 1, 0 for a fault
    of the header (T15)."""

    def __init__(self, move: int, error: str) -> None:
        super().__init__(error)
        self.move, self.error = move, error
