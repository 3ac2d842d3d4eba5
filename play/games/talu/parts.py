"""Talu's optional parts (``play.games.protocol.parts``), as the catalogue hands them to the
site (``play.games.registry``): the computer opponent (levels 1-8), a result in words for the
lists of games, the review of a game step by step, the lessons and the demo's sample game."""

from __future__ import annotations

from typing import Any

from play.games.protocol.parts import Demo, GameParts, Lessons

from . import demo, lessons
from .computer import COMPUTER
from .outcome import describe_result
from .review import review


def _initial(lesson: lessons.Lesson) -> dict[str, Any]:
    """What a lesson's page starts from: its position, the side the learner plays and the
    squares of its goal (``static/play/lessons.js``)."""
    return {"slug": lesson.slug, "side": lesson.side,
            "state": lessons.attempt(lesson, [])["state"], "targets": list(lesson.targets)}


PARTS = GameParts(
    computer=COMPUTER,
    result_words=describe_result,
    review=review,
    lessons=Lessons(items=lessons.LESSONS, attempt=lessons.attempt, initial=_initial),
    demo=Demo(variant=demo.VARIANT, moves=demo.sample_steps, reason=demo.REASON),
    notation="STGN",  # R15
)
