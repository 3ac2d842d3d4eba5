"""Interactive lessons: short puzzles on a real board, checked by the rules core (issue 24).

Pure (no Django). A lesson is a position (``TaluGame.from_position``), the side the learner
plays and a goal; ``attempt`` replays the learner's steps so far on that position and answers
with the position after them, the rules core's own sentence when a step is refused (nothing
else changes: the learner tries again from where they were), and whether the goal is met or
the turn ended without it. The server keeps no state: the client sends every step each time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import TaluError
from .game import TaluGame
from .outcome import describe
from .steps import Step

MAX_STEPS = 12  # a lesson is one turn (R9: 4 to 6 steps) plus its end; more is not an attempt


@dataclass(frozen=True)
class Lesson:
    slug: str
    title: str
    text: str  # what to do, in words
    rule: str  # the rules page's section it practises
    board: dict[str, list[str]]
    goal: str  # "capture": take every piece on ``targets``; "reach": a piece on each of
    # ``targets``; "win": win the game this turn
    targets: tuple[str, ...] = ()
    hint: str = ""
    side: str = "I"
    variant: str = "standard"
    extra: dict[str, Any] = field(default_factory=dict)


LESSONS: tuple[Lesson, ...] = (
    Lesson("moving", "Moving", "Bring the light piece on D2 to D4. A move is one square forward, "
           "back, left or right and costs one of your four steps.", "moves",
           {"I": ["D2", "A1"], "O": ["H8", "G8"]}, "reach", ("D4",),
           "Select D2, then the dot on D3; then D3, then D4."),
    Lesson("capture", "Your first capture", "Capture the dark piece on D5 in one turn. It stands "
           "in your overlap: two of your pieces (D4 and C5) have it in range.", "attacks",
           {"I": ["D4", "C5", "A1"], "O": ["D5", "H8"]}, "capture", ("D5",),
           "Select D4, then the ring on D5; then step out to a diamond (the exit)."),
    Lesson("overlap", "Make an overlap first", "Capture the dark piece on E5. No two of your "
           "pieces reach it yet: move one so that two do, then capture.", "overlaps",
           {"I": ["E4", "G5", "A1"], "O": ["E5", "H8"]}, "capture", ("E5",),
           "G5 to F5 puts E5 in the overlap of E4 and F5."),
    Lesson("chain", "A chain of captures", "Capture both D5 and D6 in one turn: after the first "
           "capture, before stepping out, capture again.", "chains",
           {"I": ["D4", "C5", "E6", "A1"], "O": ["D5", "D6", "H8"]}, "capture", ("D5", "D6"),
           "D4 takes D5; from D5, with E6, D6 is in your overlap: take it, then exit."),
    Lesson("invasion", "Win by invasion", "Reach dark's home row (rank 8) with a piece dark "
           "cannot capture next turn: you win at once.", "invasion",
           {"I": ["D6", "A1"], "O": ["A8"]}, "win", (),
           "D6 to D7, D7 to D8, then End turn: one dark piece alone makes no overlap."),
    Lesson("honor", "The honor rule", "A dark invader stands on C1, your home row. Capture it "
           "this turn or lose. An honor capture may stay on the square (no exit needed).",
           "honor", {"I": ["A1", "C3", "H2"], "O": ["C1", "H8", "G8"]}, "capture", ("C1",),
           "Bring A1 to B1 and C3 to C2: then B1 and C2 both reach C1."),
)
BY_SLUG = {lesson.slug: lesson for lesson in LESSONS}


def start(lesson: Lesson) -> TaluGame:
    return TaluGame.from_position(lesson.board, lesson.side, lesson.variant)


def _solved(lesson: Lesson, game: TaluGame) -> bool:
    board = game.board()
    other = "O" if lesson.side == "I" else "I"
    if game.turn.chain >= 0 and not game.outcome:
        return False  # a chain is still open: the capture is not done
    if lesson.goal == "capture":
        return not any(t in board[other] for t in lesson.targets)
    if lesson.goal == "reach":
        return all(t in board[lesson.side] for t in lesson.targets)
    if lesson.goal == "win":
        return bool(game.outcome and game.outcome.winner
                    and game.outcome.winner.value == lesson.side)
    return False


def attempt(lesson: Lesson, steps: list[Any]) -> dict[str, Any]:
    """The learner's steps replayed on the lesson's position: the state after the accepted
    ones, ``error`` (the rules core's sentence) for the first refused one, ``solved``, and
    ``over`` when the turn ended without the goal."""
    game = start(lesson)
    error = None
    accepted: list[dict[str, Any]] = []
    if not isinstance(steps, list) or len(steps) > MAX_STEPS:
        error = f"an attempt is a list of at most {MAX_STEPS} steps"
        steps = []
    for raw in steps:
        try:
            if game.turns or game.outcome:
                raise TaluError("the turn is over: start again")
            step = game.check(Step.from_dict(raw))
            game.play(step)
        except TaluError as err:
            error = str(err)
            break
        accepted.append(step.to_dict())
    solved = _solved(lesson, game)
    over = not solved and bool(game.turns or game.outcome)
    snap = game.snapshot()
    if game.turns and not game.outcome:
        # The turn is over: the learner's pieces stay where they ended; no opponent replies.
        snap["legal_steps"] = []
    message = ""
    if solved:
        message = "Well done: " + (describe(game.outcome.winner, game.outcome.reason,
                                            game.outcome.detail) if game.outcome else
                                   "solved.")
    elif over:
        message = "The turn is over and the goal is not reached. " + (lesson.hint or "")
    return {"state": snap, "steps": accepted, "error": error, "solved": solved,
            "over": over, "message": message.strip()}
