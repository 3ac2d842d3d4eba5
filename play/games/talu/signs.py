"""The warning signs an arbiter watches in a game of talu (R12-R14, R39).

What the arbiter's console and the game page's arbiter panel show, per game: the R14 flag and
each side's run of non-engaging turns (three each flag the game), each side's run of own turns
counting as passes and the game's run of turns counting as passes (R12: three own make a
forfeit, three of the game a null game), and the stalls (R13) with the earlier position each
repeats. Read from the engine's finished turns only; changes nothing. Pure.
"""

from __future__ import annotations

from typing import Any

from .game import TaluGame
from .outcome import SIDES


def _trailing(flags: list[bool]) -> int:
    n = 0
    for flag in reversed(flags):
        if not flag:
            break
        n += 1
    return n


def warning_signs(game: TaluGame) -> dict[str, Any]:
    """The signs of ``game`` now, as JSON-ready data (see the module's docstring)."""
    turns = game.turns
    own_passes = {s.value: _trailing([t.counts_as_pass for t in turns if t.side is s])
                  for s in SIDES}
    non_engaging = {s.value: _trailing([t.non_engaging for t in turns if t.side is s])
                    for s in SIDES}
    # R13: where each position (board and side to move) was first reached.
    first: dict[tuple[int, int, int], str] = {}
    origin = game._origin
    first[(origin[0], origin[1], turns[0].side.index if turns else 0)] = "the opening"
    stalls = []
    for t in turns:
        key = (t.after[0], t.after[1], 1 - t.side.index)
        if t.stalling:
            repeats = ("the board before it" if t.after == t.before
                       else f"the position after {first[key]}"
                       if key in first and first[key] != "the opening" else "the opening")
            stalls.append({"turn": t.label, "side": t.side.value, "repeats": repeats})
        first.setdefault(key, t.label)
    return {
        "flagged": game.flagged,
        "warned": sorted(s.value for s in game.warned),
        "non_engaging_run": non_engaging,
        "passes_in_a_row": own_passes,
        "game_passes_in_a_row": _trailing([t.counts_as_pass for t in turns]),
        "stalls": stalls[-10:],
        "last_turn": turns[-1].label if turns else None,
        "turns": [{"turn": t.label, "side": t.side.value, "counts_as_pass": t.counts_as_pass}
                  for t in turns[-8:]],
    }
