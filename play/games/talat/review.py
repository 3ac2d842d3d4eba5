"""A game of Talat replayed turn by turn for its review (issue 37, as talu's and tafl's):
every position after every turn, from the log's events (R40: the log is the truth).

Pure (no Django). The log's ``turn`` events carry their action's A10 text, not the seat; the
seat is the one to act then, as the rules say (A3, A4, A11: a player acting for Zihin is the
player). A seat that left (the match's ``leave``, A8) takes no more turns from then on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .game import TalatGame
from .protocol import REASON_WORDS, TURN


def _frame(g: TalatGame, label: str, side: str | None, caption: str) -> dict[str, Any]:
    return {"label": label, "side": side, "caption": caption, "towers": g.towers(),
            "frozen": g.frozen(), "scores": g.scores(),
            "last": {"number": len(g.lines), "line": g.lines[-1]} if g.lines else None}


def review(variant: str, events: Iterable[tuple[str, dict[str, Any]]],
           options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``frames`` (the empty boards first) and ``turns`` ({label, side, body, first, last},
    one per turn) of a game whose log holds ``events`` ((kind, data), those everyone may
    see); ``result`` in words once the rules ended it. Talat has no options."""
    g = TalatGame(variant)
    frames = [_frame(g, "", None, "Before the first placement")]
    turns: list[dict[str, Any]] = []
    for kind, data in events:
        if kind == "leave":
            seat = data.get("seat")
            if isinstance(seat, str) and seat in g.players:
                g.leave(seat)
            continue
        if kind != TURN or g.finished:
            continue  # the match's other events (offers, decisions): no frame of their own
        seat = g.to_move()
        if seat is None:
            continue
        line = g.act(seat, str(data.get("action", "")))
        n = len(g.lines)
        frames.append(_frame(g, f"{n}.", seat, f"{n}. {line}"))
        turns.append({"label": f"{n}.", "side": seat, "body": line,
                      "first": len(frames) - 1, "last": len(frames) - 1})
    out: dict[str, Any] = {"frames": frames, "turns": turns, "result": None}
    ranks = g.ranks()
    if ranks is not None and g.reason is not None:
        places = ", ".join(f"seat {s}: {r}" for s, r in sorted(ranks.items(), key=lambda x: x[1]))
        out["result"] = f"{REASON_WORDS.get(g.reason, g.reason)} (places: {places})"
        frames[-1] = dict(frames[-1], caption=frames[-1]["caption"] + " · " + out["result"])
    return out
