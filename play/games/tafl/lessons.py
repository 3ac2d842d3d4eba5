"""The tafl games' interactive lessons (issue 42): one-move puzzles on a real board, checked
by the rules (pure, no Django), like talu's (``play.games.talu.lessons``). A lesson is an OTN
position, the seat the learner plays and a goal; ``attempt`` replays the learner's steps (the
wire's ``{"move": "e4-e7"}`` and T8's ``{"remove": "f7"}``) on it and answers with the board
after the accepted ones (the game page's own view, so the same renderer draws it), the rules'
sentence for a refused one (nothing else changes: the learner tries again from there), and
whether the goal is met once the move is complete. The server keeps nothing.

Per game, what the issue asks: moving and custodian capture, the king's escape, and in tafl
the enclosed group (T8). Every position is checked by the tests against the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .board import SIDE_NAMES
from .errors import TaflError
from .game import TaflGame
from .position import Position, Rules
from .protocol import TABLUT, TAFL, TaflRules, TaflState

MAX_STEPS = 4  # a lesson is one move and its removals


@dataclass(frozen=True)
class Lesson:
    slug: str
    game: str  # "tafl" or "tablut"
    title: str
    text: str  # what to do, in words
    rule: str  # the anchor of the game's rules page it practises
    position: str  # OTN position record (T3's notation)
    side: str  # the seat the learner plays
    goal: str  # "capture": every piece on ``targets`` gone; "escape": the king escapes (T9);
    # "remove": one piece of ``targets`` removed by T8's choice
    targets: tuple[str, ...] = ()
    hint: str = ""


TAFL_LESSONS: tuple[Lesson, ...] = (
    Lesson("tafl-capture", "tafl", "Moving and capturing",
           "You play the attackers (dark). Capture the defender on c4: a piece moves like a "
           "rook, and an enemy between two of yours on a rank or a file is taken.",
           "captures", "/5K1/7/7/1tT4/7/7/3t3/", "attackers", "capture", ("c4",),
           "d1 to d4: c4 is then between b4 and d4."),
    Lesson("tafl-escape", "tafl", "The king's escape",
           "You play the defenders. Your king stands on the edge: win by moving him along "
           "that edge (T9). Moving off the edge does not win.",
           "winning", "/7/7/4t2/3t3/K6/7/6t/", "defenders", "escape", (),
           "a3 to a7 (or any square up or down the a-file)."),
    Lesson("tafl-enclosed", "tafl", "An enclosed group",
           "You play the attackers. The defenders on a1 and a2 have one free square left, "
           "a3. Close it: an enclosed group loses a piece each turn, and you choose which "
           "(T8). Then click the piece to remove.",
           "enclosed", "/t4K1/7/7/7/7/Tt5/Tt5/", "attackers", "remove", ("a1", "a2"),
           "a7 to a3, then click a1 or a2."),
)
TABLUT_LESSONS: tuple[Lesson, ...] = (
    Lesson("tablut-capture", "tablut", "Moving and capturing",
           "You play the defenders (light), who move first in Tablut. Capture the attacker "
           "on c3: bring a defender to d3, so that c3 stands between two of yours.",
           "captures", "/9/9/3T5/9/4K4/9/1Tt6/9/9/", "defenders", "capture", ("c3",),
           "d7 to d3: the way down the d-file is clear."),
    Lesson("tablut-escape", "tablut", "The king's escape",
           "You play the defenders. In Tablut the king wins by reaching any edge square that "
           "is not a camp (T9). He has a free line to the edge (raichi, T11): take it.",
           "winning", "/9/9/2K6/9/9/6t2/9/1t7/9/", "defenders", "escape", (),
           "c7 to c9, or c7 to a7."),
)

RULES: dict[str, TaflRules] = {"tafl": TAFL.rules, "tablut": TABLUT.rules}  # type: ignore[dict-item]


def start(lesson: Lesson) -> TaflState:
    """The lesson's position as the site's engine holds a game."""
    pos = Position.from_text(lesson.position, lesson.side, lesson.game)
    game = TaflGame(Rules(lesson.game, pos.geo.n))
    game.pos = pos
    return TaflState(game)


def _solved(lesson: Lesson, state: TaflState, start_pieces: dict[str, str]) -> bool:
    g = state.game
    if g.pos.pending or not g.records:
        return False  # the move is not complete (a T8 choice is still to make)
    pieces = RULES[lesson.game].view(state, lesson.side)["pieces"]
    if lesson.goal == "capture":
        return not any(t in pieces for t in lesson.targets)
    if lesson.goal == "escape":
        return g.result is not None and g.result[1] == "escape"
    if lesson.goal == "remove":
        return any(t in start_pieces and t not in pieces for t in lesson.targets)
    return False


def attempt(lesson: Lesson, steps: list[Any]) -> dict[str, Any]:
    """The learner's steps replayed on the lesson's position: the view after the accepted
    ones, ``error`` (the rules' sentence) for the first refused one, ``solved``, and
    ``over`` when the move is complete without the goal."""
    rules = RULES[lesson.game]
    state = start(lesson)
    first = rules.view(state, lesson.side)["pieces"]
    error = None
    accepted: list[Any] = []
    if not isinstance(steps, list) or len(steps) > MAX_STEPS:
        error = f"an attempt is a list of at most {MAX_STEPS} steps"
        steps = []
    for raw in steps:
        try:
            if state.game.records:
                raise TaflError("the move is made: start again")
            for event in rules.decide_move(state, lesson.side, raw):
                rules.evolve(state, event)
        except Exception as err:  # the rules' words (IllegalMove, BadCommand): shown as said
            error = str(err)
            break
        accepted.append(raw)
    solved = _solved(lesson, state, first)
    over = not solved and bool(state.game.records)
    view = rules.view(state, lesson.side)
    if over or solved:
        view["legal"], view["remove"] = {}, None  # no opponent replies: the lesson is over
    message = ""
    if solved:
        message = "Well done: " + {"capture": "captured.", "escape": "the king escaped.",
                                   "remove": "the enclosed piece is gone."}[lesson.goal]
    elif over:
        message = "The move is made and the goal is not reached. " + lesson.hint
    return {"state": view, "steps": accepted, "error": error, "solved": solved, "over": over,
            "message": message.strip()}


def initial(lesson: Lesson) -> dict[str, Any]:
    """What the lesson's page starts from (``static/games/tafl-lessons.js``)."""
    return {"slug": lesson.slug, "side": lesson.side, "game": lesson.game,
            "state": attempt(lesson, [])["state"], "targets": list(lesson.targets)}


__all__ = ["SIDE_NAMES", "TABLUT_LESSONS", "TAFL_LESSONS", "Lesson", "attempt", "initial"]
