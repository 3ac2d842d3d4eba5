"""A game replayed step by step for its review (issue 24): every position after every step.

Pure (no Django): the events of a game's log, as stored (``protocol.apply_event`` folds them,
R40), give one *frame* per step that changes the board (a move, a capture, an exit, a stay) or
ends a turn without a change (a pass), plus the opening, and the turns as they are written in
STGN (R15) with the frames each spans, so a client can step by step or turn by turn and jump
from a clicked notation line. The board, the overlaps and the threatened pieces of each frame
come from the rules engine itself, never from the client.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .game import TaluGame
from .notation import turn_body
from .outcome import describe
from .protocol import STEP, apply_event
from .steps import END

Frame = dict[str, Any]


def _frame(engine: TaluGame, label: str, side: str | None, body: str, caption: str) -> Frame:
    return {
        "label": label,
        "side": side,
        "body": body,
        "caption": caption,
        "board": engine.board(),
        "overlaps": {"I": engine.overlaps("I"), "O": engine.overlaps("O")},
        "threatened": engine.threatened("I") + engine.threatened("O"),
    }


def review(variant: str, events: Iterable[tuple[str, dict[str, Any]]],
           options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``frames`` (the opening first) and ``turns`` ({label, side, body, first, last}: the
    frames of each finished turn, ``last`` being the position after it) of a game whose log
    holds ``events`` ((kind, data) in version order, those everyone may see). ``options``:
    talu's variants take none (R3)."""
    engine = TaluGame(variant)
    frames: list[Frame] = [_frame(engine, "", None, "", "Opening position")]
    turns: list[dict[str, Any]] = []
    first = 1
    for kind, data in events:
        if kind == STEP:
            side = engine.side_to_move.value if engine.side_to_move else None
            label = f"{engine.round:03d} {side}"
            done = len(engine.turns)
            apply_event(engine, kind, data)
            finished = len(engine.turns) > done
            steps = engine.turns[-1].steps if finished else engine.open_turn()
            body = turn_body(steps) if steps else "."
            if data.get("kind") != END:
                n = len(engine.turns[-1].steps) if finished else len(steps)
                what = "passes" if body == "." else body.split(" ")[-1]
                frames.append(_frame(engine, label, side, body,
                                     f"{label} · step {max(n, 1)}: {what}"))
            if finished:
                turns.append({"label": label, "side": side, "body": body,
                              "first": min(first, len(frames) - 1), "last": len(frames) - 1})
                first = len(frames)
        else:  # a decision, a warning, a note: no frame of their own
            apply_event(engine, kind, data)
    out: dict[str, Any] = {"frames": frames, "turns": turns, "result": None}
    if engine.outcome is not None:
        o = engine.outcome
        out["result"] = describe(o.winner, o.reason, o.detail)
        frames[-1] = dict(frames[-1], caption=frames[-1]["caption"] + " · " + out["result"])
    return out
