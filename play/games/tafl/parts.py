"""The tafl games' optional parts (``play.games.protocol.parts``): their review, the browser
renderer both share (``static/games/tafl.js``), their computer players, their lessons, their
notation's name (OTN, T12-T13), and one rating per game across its board sizes (issue 42: a
rating for ``tafl`` and one for ``tablut``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from play.games.protocol.parts import GameParts, Lessons, Review

from . import lessons
from .computer import COMPUTERS
from .review import review


def _review_of(game: str) -> Review:
    def run(variant: str, events: Iterable[tuple[str, dict[str, Any]]],
            options: Mapping[str, Any]) -> dict[str, Any]:
        return review(game, variant, events, bool(options.get("immunity", False)))
    return run


def parts(game: str) -> GameParts:
    items = lessons.TAFL_LESSONS if game == "tafl" else lessons.TABLUT_LESSONS
    words = {"immunity": "the king's immunity (T6): a king who moves between two "
                         "attackers without capturing is not removed"} if game == "tafl" else {}
    return GameParts(computer=COMPUTERS[game], review=_review_of(game), renderer="tafl",
                     notation="OTN", rated_by_variant=False, option_words=words,
                     lessons=Lessons(items=items, attempt=lessons.attempt,
                                     initial=lessons.initial))


TAFL_PARTS = parts("tafl")
TABLUT_PARTS = parts("tablut")
