"""The tafl games (RULINGS-TAFL.md, T1-T15): generic tafl on every odd board from 7x7 to 19x19
and Tablut, as a pure package (no Django).

- ``board``: squares, rays, the opening (T3), Tablut's throne and camps (T5), OTN positions;
- ``position``: the rules (T4-T11, T15) on a flat board with make/unmake, for the site and
  the computer's search (its docstring shows the search's API);
- ``game``: a game as people play it, with checked moves and OTN move records (T12);
- ``otn``: move records; ``records``: game records (T13);
- ``protocol``: the site's ``GameRules`` (``TAFL``, ``TABLUT``).
"""

from __future__ import annotations

from .board import ATTACKERS, DEFENDERS, SIDE_NAMES, geometry, parse_position, write_position
from .errors import GameFinished, IllegalMove, MalformedMove, RecordError, TaflError
from .game import TaflGame
from .position import Position, Rules, decode, encode
from .records import read_record, write_record

__all__ = [
    "ATTACKERS",
    "DEFENDERS",
    "SIDE_NAMES",
    "GameFinished",
    "IllegalMove",
    "MalformedMove",
    "Position",
    "RecordError",
    "Rules",
    "TaflError",
    "TaflGame",
    "decode",
    "encode",
    "geometry",
    "parse_position",
    "read_record",
    "write_position",
    "write_record",
]
