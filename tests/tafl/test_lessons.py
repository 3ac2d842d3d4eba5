"""The tafl games' lessons (issue 42): each position is what its words say, its hint solves
it, a wrong move is refused in the rules' words or leaves the goal unmet, and T8's removal is
the second step of the enclosing move."""

from __future__ import annotations

import pytest

from play.games.tafl.lessons import TABLUT_LESSONS, TAFL_LESSONS, attempt

LESSONS = {lesson.slug: lesson for lesson in TAFL_LESSONS + TABLUT_LESSONS}
SOLUTIONS = {
    "tafl-capture": [{"move": "d1-d4"}],
    "tafl-escape": [{"move": "a3-a7"}],
    "tafl-enclosed": [{"move": "a7-a3"}, {"remove": "a2"}],
    "tablut-capture": [{"move": "d7-d3"}],
    "tablut-escape": [{"move": "c7-c9"}],
}


def test_every_game_has_its_lessons():
    assert {lesson.game for lesson in LESSONS.values()} == {"tafl", "tablut"}
    assert {lesson.goal for lesson in TAFL_LESSONS} == {"capture", "escape", "remove"}
    assert set(SOLUTIONS) == set(LESSONS)


@pytest.mark.parametrize("slug", sorted(SOLUTIONS))
def test_each_lesson_is_solved_by_its_move(slug):
    lesson = LESSONS[slug]
    start = attempt(lesson, [])
    assert start["state"]["to_move"] == lesson.side and not start["solved"]
    out = attempt(lesson, SOLUTIONS[slug])
    assert out["solved"] and out["error"] is None and out["message"].startswith("Well done")
    assert out["state"]["legal"] == {}  # nothing more to play: no opponent replies


def test_tafls_king_off_the_edge_does_not_escape():
    out = attempt(LESSONS["tafl-escape"], [{"move": "a3-b3"}])  # T9: along the edge only
    assert out["over"] and not out["solved"]


def test_tabluts_king_may_not_enter_a_camp():
    out = attempt(LESSONS["tablut-capture"], [{"move": "e5-e2"}])
    assert out["error"] == "Ke5-e2: e2 is a camp: the king may not enter it (T5)"
    assert out["steps"] == [] and not out["over"]


def test_the_enclosed_groups_removal_is_chosen_among_its_pieces():
    lesson = LESSONS["tafl-enclosed"]
    half = attempt(lesson, [{"move": "a7-a3"}])
    assert half["state"]["remove"]["choices"] == ["a1", "a2"] and not half["solved"]
    wrong = attempt(lesson, [{"move": "a7-a3"}, {"remove": "f7"}])
    assert "not a piece of an enclosed group" in wrong["error"]
    assert len(wrong["steps"]) == 1 and not wrong["solved"]


def test_junk_is_refused_in_words():
    assert "at most" in attempt(LESSONS["tafl-capture"], "junk")["error"]
    out = attempt(LESSONS["tafl-capture"], [{"jump": "d1"}])
    assert out["error"] and out["steps"] == []


def test_each_lesson_names_a_section_of_its_games_rules_page():
    from pathlib import Path
    root = Path(__file__).resolve().parents[2] / "templates" / "learn"
    for lesson in LESSONS.values():
        page = (root / f"rules_{lesson.game}.html").read_text()
        assert f'id="{lesson.rule}"' in page, lesson.slug
