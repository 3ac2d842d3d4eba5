"""A tafl game replayed move by move for its review (issue 42): one frame per completed move
(its T8 removals folded in), after the opening, each with the board in OTN letters, the move
and what it captured, and Tablut's raichi squares (T11); one turn per move, so the move list's
lines (static/games/tafl.js ``notation``) jump to the position after each.

Pure (no Django): the site's review view gives it the stored events everyone may see, in
version order; the positions come from the rules (``game.TaflGame``), never the client.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .board import SIDE_NAMES
from .game import TaflGame
from .position import Rules

MOVE, REMOVE = "move", "remove"  # the game's event kinds (protocol.EVENT_KINDS)


def rules_of(game: str, variant: str, immunity: bool = False) -> Rules:
    """The rules of ``game``'s ``variant`` ("11x11"), as the protocol starts them."""
    return Rules(game, int(variant.split("x")[0]), immunity)


def _frame(g: TaflGame, caption: str, side: str | None) -> dict[str, Any]:
    return {"caption": caption, "side": side, "last": g.last_move(), "pieces": g.pieces(),
            "raichi": g.raichi()}


def review(game: str, variant: str, events: Iterable[tuple[str, dict[str, Any]]],
           immunity: bool = False) -> dict[str, Any]:
    """``frames`` (the opening first) and ``turns`` ({label, side, body, first, last}, one
    per move) of a game whose log holds ``events`` ((kind, data), those everyone may see);
    ``result`` in words once the rules ended it."""
    g = TaflGame(rules_of(game, variant, immunity))
    frames = [_frame(g, "Opening position", None)]
    turns: list[dict[str, Any]] = []
    for kind, data in events:
        done = len(g.records)
        side = g.side_name(g.to_move)
        if kind == MOVE:
            g.move(g.geo.square(data["from"]), g.geo.square(data["to"]))
        elif kind == REMOVE:
            g.remove(g.geo.square(data["square"]))
        else:  # the match's events (offers, decisions): no frame of their own
            continue
        if len(g.records) > done:  # the move is complete (its removals chosen, T8)
            n = len(g.records)
            label = f"{(n + 1) // 2}{'.' if n % 2 else '...'}"
            body = g.records[-1]
            frames.append(_frame(g, f"{label} {body} ({side})", side))
            turns.append({"label": label, "side": side, "body": body,
                          "first": len(frames) - 1, "last": len(frames) - 1})
    out: dict[str, Any] = {"frames": frames, "turns": turns, "result": None}
    if g.result is not None:
        winner, reason = g.result
        out["result"] = (f"the {SIDE_NAMES[winner]} won ({reason})" if winner is not None
                         else f"drawn ({reason})")
        frames[-1] = dict(frames[-1], caption=frames[-1]["caption"] + " · " + out["result"])
    return out
