"""Talat (RULINGS-TALAT.md, A1-A12): three players, three boards of 5 x 5, nine towers each;
the two-seat game with the neutral Zihin (A11). A pure package (no Django):

- ``board``: seats, boards, squares, towers, the *beats* relation (A5) and the tables the
  rules index (forward squares, capture squares, A7's meeting table);
- ``position``: the rules (A3-A8, A11) with make/unmake for the site and a search;
- ``notation``: A10's action text, read and checked (naming the ruling) and written;
- ``game``: a game as people play it (its turn lines, leavers, a decision);
- ``records``: A10 records, written and replayed; ``protocol``: the site's ``GameRules``;
- ``setup``: a position in play from its towers (lessons, tests); ``lessons``, ``review``;
- ``search`` and ``computer``: the computer player, levels 1-4 (docs/computer.md);
- ``parts``: what the site offers of it (``play.games.protocol.parts``).
"""

from __future__ import annotations

from .board import BEATS, KINDS, SEATS, board_names
from .errors import GameFinished, IllegalAction, MalformedAction, RecordError, TalatError
from .game import TalatGame
from .notation import parse_action, write_action
from .position import PASS, Position
from .records import read_record, write_record

__all__ = [
    "BEATS",
    "KINDS",
    "PASS",
    "SEATS",
    "GameFinished",
    "IllegalAction",
    "MalformedAction",
    "Position",
    "RecordError",
    "TalatError",
    "TalatGame",
    "board_names",
    "parse_action",
    "read_record",
    "write_action",
    "write_record",
]
