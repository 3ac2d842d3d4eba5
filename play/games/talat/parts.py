"""Talat's optional parts (``play.games.protocol.parts``): its review, its renderer
(``static/games/talat.js``), its computer (levels 1-4, both variants), its lessons, its
notation's name (A10) and a rating per variant
(A9: one for three-seat Talat, one for two-seat Talat)."""

from __future__ import annotations

from play.games.protocol.parts import GameParts, Lessons

from . import lessons
from .computer import TALAT_COMPUTER
from .review import review

TALAT_PARTS = GameParts(computer=TALAT_COMPUTER, review=review, renderer="talat", notation="A10",
                        rated_by_variant=True,
                        rated_if_every_seat_moved=True,
                        lessons=Lessons(items=lessons.LESSONS, attempt=lessons.attempt,
                                        initial=lessons.initial))
