"""Talat's lessons (issue 37): a capture, David and Goliath, a frozen board. Each is solved by
the action its hint names, checked by the rules; another legal action ends it unsolved with
the hint; an illegal one is refused in the rules' words and changes nothing; board 12 is in
play at the start of each (A7) and the frozen lesson ends with it frozen."""

from __future__ import annotations

import pytest

from play.games.talat.lessons import LESSONS, attempt, initial, start

SOLUTIONS = {"talat-capture": "12:c3xc4", "talat-david": "12:c3xd4", "talat-frozen": "12:c3xc4"}
WRONG = {"talat-capture": "12:c3xd3", "talat-david": "12:c3xc4", "talat-frozen": "12:c3-c5"}


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_each_lesson_is_solved_by_its_hint_and_refuses_in_words(lesson):
    assert start(lesson).game.frozen() == []  # every board in play at the start
    first = initial(lesson)
    assert SOLUTIONS[lesson.slug] in first["state"]["legal"]
    assert all(a.startswith("12:") for a in first["state"]["legal"])
    solved = attempt(lesson, [{"action": SOLUTIONS[lesson.slug]}])
    assert solved["solved"] and not solved["error"] and solved["message"].startswith("Well done")
    assert solved["state"]["legal"] == []
    wrong = attempt(lesson, [{"action": WRONG[lesson.slug]}])
    assert wrong["error"] and not wrong["solved"] and wrong["steps"] == []
    assert wrong["state"]["towers"] == first["state"]["towers"]  # nothing changed
    other = next(a for a in first["state"]["legal"] if a != SOLUTIONS[lesson.slug])
    over = attempt(lesson, [{"action": other}])
    assert over["over"] and not over["solved"] and lesson.hint in over["message"]


def test_the_frozen_lesson_freezes_board_12_and_the_game_goes_on():
    lesson = next(item for item in LESSONS if item.slug == "talat-frozen")
    done = attempt(lesson, [{"action": "12:c3xc4"}])
    assert done["state"]["frozen"] == ["12"] and done["state"]["phase"] == "play"
    assert "A7" in done["message"]


def test_david_and_goliath_refuses_the_large_square_in_a5s_words():
    lesson = next(item for item in LESSONS if item.slug == "talat-david")
    wrong = attempt(lesson, [{"action": "12:c3xc4"}])
    assert "S3" in wrong["error"] and "L4" in wrong["error"] and "A5" in wrong["error"]


def test_bad_input_is_an_error_in_words():
    lesson = LESSONS[0]
    assert "at most 1 step" in attempt(lesson, [{"action": "12:c3xc4"}] * 2)["error"]
    assert attempt(lesson, [{"move": "c3-c4"}])["error"]
    assert attempt(lesson, [{"action": "\u202e12:c3xc4"}])["error"]
