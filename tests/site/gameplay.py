"""Short forced lines played through the service layer (no websocket)."""

from __future__ import annotations

from play import services

# I moves once, then passes three times while O moves: I forfeits (R12), O wins.
FORFEIT_BY_I = [
    ("I", "step", {"kind": "move", "from": "A2", "to": "A3"}),
    ("I", "end", None),
    ("O", "step", {"kind": "move", "from": "H7", "to": "H6"}),
    ("O", "end", None),
    ("I", "pass", None),
    ("O", "step", {"kind": "move", "from": "G7", "to": "G6"}),
    ("O", "end", None),
    ("I", "pass", None),
    ("O", "step", {"kind": "move", "from": "F7", "to": "F6"}),
    ("O", "end", None),
    ("I", "pass", None),
]

# Three passes in a row by both players alternately: a null game (R12).
NULL_GAME = [("I", "pass", None), ("O", "pass", None), ("I", "pass", None)]


def play_line(game, line) -> None:
    who = {"I": game.player_i, "O": game.player_o}
    for side, action, step in line:
        game.refresh_from_db()
        res = services.submit(game.uuid, who[side], action, step=step, version=game.version)
        assert res.ok, res.reason
    game.refresh_from_db()
