"""Talat's interactive lessons (issue 37): one-turn puzzles on board 12, checked by the rules
(pure, no Django), like the other games' (``play.games.tafl.lessons``). A lesson is a
position in play (``setup``), seat 1 to act, and a goal; ``attempt`` plays the learner's
action (the wire's ``{"action": "12:c3xd4"}``) and answers with the game page's own view
after it (so the same drawing shows it), the rules' sentence for a refused one (nothing
changes: the learner tries again), and whether the goal is met. The server keeps nothing.

What the issue asks: a capture, David and Goliath, and a frozen board. Boards 23 and 31 hold
a pair of towers each that can still meet, so they stay in play (A7) and the game goes on
after the lesson's turn; the lesson's page draws board 12 alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from play.games.protocol import GameOptions

from .protocol import VARIANTS, TalatRules, TalatState
from .setup import game

MAX_STEPS = 1  # a lesson is one turn
BOARD = "12"
#: Towers that keep boards 23 and 31 in play (A7): a medium hexagon and a medium triangle
#: facing each other on each.
ELSEWHERE = {"23:a1": "2:M6", "23:a5": "3:M3", "31:a1": "3:M6", "31:a5": "1:M3"}
RULES = TalatRules()


@dataclass(frozen=True)
class Lesson:
    slug: str
    title: str
    text: str  # what to do, in words
    rule: str  # the anchor of the rules page it practises
    towers: dict[str, str]  # board 12's towers (A2 names by square)
    goal: str  # "capture": the tower on every square of ``targets`` taken;
    # "freeze": board 12 frozen after the turn (A7)
    targets: tuple[str, ...] = ()
    hint: str = ""
    side: str = "seat 1"  # the lessons' template words: whom the learner plays


LESSONS: tuple[Lesson, ...] = (
    Lesson("talat-capture", "A capture",
           "You play seat 1 (the towers marked 1), on board 12 from your side. Capture seat "
           "2's small square: your medium hexagon beats every small tower, and it stands "
           "straight ahead of it.",
           "capturing", {"12:c3": "1:M6", "12:c4": "2:S4", "12:d3": "2:M6", "12:a5": "2:L3"},
           "capture", ("12:c4",),
           "Click your hexagon on c3, then the ringed small square on c4."),
    Lesson("talat-david", "David and Goliath",
           "Your small triangle is the weakest tower, but it beats the strongest: the large "
           "hexagon (A5). Capture seat 2's large hexagon. Careful: the large square beside it "
           "is out of your reach.",
           "capturing", {"12:c3": "1:S3", "12:d4": "2:L6", "12:c4": "2:L4", "12:e2": "1:M4"},
           "capture", ("12:d4",),
           "Click your small triangle on c3, then the large hexagon diagonally ahead on d4."),
    Lesson("talat-frozen", "A frozen board",
           "Only one capture can still happen on board 12, even in theory: your medium square "
           "on c3 against seat 2's small triangle on c4. Take it, and watch the board freeze "
           "(A7): nobody moves on it again, though towers could still move there.",
           "frozen", {"12:c3": "1:M4", "12:c4": "2:S3", "12:a5": "1:L4", "12:e1": "2:S3"},
           "freeze", ("12:c4",),
           "Capture: c3 takes c4. Then the large square on a5 and the small triangle on e1 "
           "can never capture each other (large does not beat small)."),
)


def start(lesson: Lesson) -> TalatState:
    """The lesson's position as the site's engine holds a game (seat 1 to act)."""
    state = RULES.new_engine(VARIANTS["three"], GameOptions())
    state.game = game({**lesson.towers, **ELSEWHERE}, "1")
    return state


def _view(state: TalatState) -> dict[str, Any]:
    view = RULES.view(state, "1")
    view["legal"] = [a for a in view["legal"] if a.startswith(BOARD + ":")]
    view["towers"] = {sq: t for sq, t in view["towers"].items() if sq.startswith(BOARD + ":")}
    return view


def attempt(lesson: Lesson, steps: list[Any]) -> dict[str, Any]:
    """The learner's action played on the lesson's position: the view after it, ``error``
    (the rules' sentence) for a refused one, ``solved``, and ``over`` when the turn is made
    without the goal."""
    state = start(lesson)
    error = None
    accepted: list[Any] = []
    if not isinstance(steps, list) or len(steps) > MAX_STEPS:
        error = f"an attempt is a list of at most {MAX_STEPS} step"
        steps = []
    for raw in steps:
        try:
            for event in RULES.decide_move(state, "1", raw):
                RULES.evolve(state, event)
        except Exception as err:  # the rules' words (IllegalCommand, BadCommand): as said
            error = str(err)
            break
        accepted.append(raw)
    towers = state.game.towers()
    done = bool(accepted)
    if lesson.goal == "capture":
        solved = done and not any(towers.get(t, "").startswith("2:") for t in lesson.targets)
    else:
        solved = done and BOARD in state.game.frozen()
    view = _view(state)
    if done:
        view["legal"], view["to_act"] = [], []  # no replies from the others: it is over
    message = ""
    if solved:
        message = ("Well done: board 12 is frozen now (A7), and the game goes on on the other "
                   "two boards." if lesson.goal == "freeze" else "Well done: captured, 5 points.")
    elif done:
        message = "The turn is made and the goal is not reached. " + lesson.hint
    return {"state": view, "steps": accepted, "error": error, "solved": solved,
            "over": done and not solved, "message": message.strip()}


def initial(lesson: Lesson) -> dict[str, Any]:
    """What the lesson's page starts from (``static/games/talat-lessons.js``)."""
    return {"slug": lesson.slug, "side": "1", "game": "talat", "board": BOARD,
            "state": attempt(lesson, [])["state"], "targets": list(lesson.targets)}
