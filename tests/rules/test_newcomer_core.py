"""The rules core's part of a newcomer's first game (issue 24): results in plain words, where
the passing conventions stand before a pass or a stalling end (R12, R13), a game replayed step
by step for its review, and the lessons checked by the rules."""

from __future__ import annotations

import pytest

from play.games.talu.errors import TaluError
from play.games.talu.game import TaluGame
from play.games.talu.lessons import BY_SLUG, LESSONS, MAX_STEPS, attempt
from play.games.talu.outcome import describe, describe_result
from play.games.talu.review import review
from play.games.talu.steps import Step


def mv(a: str, b: str) -> dict:
    return {"kind": "move", "from": a, "to": b}


@pytest.mark.parametrize(("winner", "reason", "detail", "words"), [
    ("O", "decision", "I resigned", "Dark won: light resigned"),
    ("I", "decision", "O ran out of time", "Light won: dark ran out of time"),
    ("I", "elimination", "", "Light won: every dark piece was captured"),
    ("O", "invasion", "", "Dark won by invasion: light cannot capture the invader on its home row"),
    ("I", "invasion", "honor", "Light won by invasion: dark did not capture the invader on its "
                               "home row (honor rule)"),
    ("O", "forfeit", "", "Dark won: light forfeited, three of its turns in a row counted as "
                         "passes"),
    (None, "null", "", "Null game: three turns in a row counted as passes"),
    ("-", "null", "arbiter", "Null game: the arbiter declared it null"),
    # R37: no result at all, not a null game
    (None, "aborted", "O did not complete the opening turn in time", "Game aborted: dark did "
     "not complete the opening turn in time (no result, no rating change)"),
])
def test_results_in_plain_words(winner, reason, detail, words):
    assert describe(winner, reason, detail) == words
    assert " I " not in words and not words.startswith(("I ", "O "))


@pytest.mark.parametrize(("winner", "reason", "detail", "cause", "words"), [
    # R37: a game aborted before its first turn was played has no result
    ("", "aborted", "I did not complete the opening turn in time", "aborted",
     "aborted: no result"),
    # R37: a decision says how it came about, whatever its stored detail
    ("O", "decision", "", "time", "Dark won: light ran out of time"),
    ("I", "decision", "O resigned", "resignation", "Light won: dark resigned"),
    ("I", "decision", "", "abandonment", "Light won: dark left the game"),
    # otherwise the words of ``describe``; "-" and "" are no winner
    ("I", "elimination", "", "", "Light won: every dark piece was captured"),
    ("-", "null", "arbiter", "", "Null game: the arbiter declared it null"),
    ("", "null", "", "", "Null game: three turns in a row counted as passes"),
])
def test_a_stored_result_in_plain_words(winner, reason, detail, cause, words):
    """The one wording of a stored game's result: the lobby, the profile and a player's list
    of games all show it (the list of games had its own, without R37's causes and aborts)."""
    assert describe_result(winner, reason, detail, cause) == words


def test_the_snapshot_carries_the_words_of_its_result():
    g = TaluGame()
    g.decide("O", "I resigned")
    assert g.snapshot()["outcome"]["text"] == "Dark won: light resigned"


def test_a_step_after_the_end_is_refused_in_the_same_words():
    """A step that crosses the opponent's resignation was refused with "the game is over (I
    won by decision)": the side letter read as the pronoun (issue 24, finding 6)."""
    g = TaluGame()
    g.decide("O", "I resigned")
    with pytest.raises(TaluError, match=r"^the game is over \(Dark won: light resigned\)$"):
        g.play(Step.from_dict(mv("A2", "A3")))


def test_a_third_own_pass_would_forfeit_and_a_third_pass_of_the_game_would_null():
    g = TaluGame()
    assert g.passing() == {"run": {"I": 0, "O": 0}, "game_run": 0, "pass_would": None,
                           "end_stalls": False, "end_would": None, "stalling_last_steps": []}
    g.play(Step("pass"))
    g.play(Step.from_dict(mv("H7", "H6")))
    g.play(Step("end"))
    g.play(Step("pass"))
    g.play(Step.from_dict(mv("G7", "G6")))
    g.play(Step("end"))
    p = g.passing()
    assert p["run"] == {"I": 2, "O": 0} and p["pass_would"] == "forfeit"  # R12
    g.play(Step("pass"))
    assert g.outcome is not None and g.outcome.reason.value == "forfeit"

    h = TaluGame()
    h.play(Step.from_dict(mv("A2", "A3")))
    h.play(Step("end"))
    h.play(Step("pass"))
    h.play(Step("pass"))
    assert h.passing()["pass_would"] == "null"  # two passes in a row: a third nulls it
    assert h.passing()["run"] == {"I": 1, "O": 1}


def test_ending_a_turn_that_changes_nothing_is_a_stall_and_says_what_it_would_do():
    g = TaluGame()
    g.play(Step.from_dict(mv("A2", "A3")))
    assert g.passing()["end_stalls"] is False
    g.play(Step.from_dict(mv("A3", "A2")))
    p = g.passing()
    assert p["end_stalls"] is True and p["end_would"] is None  # R13, but nothing lost yet
    g.play(Step("end"))
    assert g.turns[-1].stalling and g.turns[-1].counts_as_pass


def test_review_frames_every_step_and_spans_every_turn():
    events = [("step", mv("A2", "A3")), ("step", mv("A3", "A4")), ("step", {"kind": "end"}),
              ("step", {"kind": "pass"}), ("decide", {"winner": "O", "detail": "I resigned"})]
    r = review("standard", events, {})
    assert [f["caption"] for f in r["frames"]] == [
        "Opening position", "001 I · step 1: A2-A3", "001 I · step 2: A2-A3-A4",
        "001 O · step 1: passes · Dark won: light resigned"]
    assert r["turns"] == [
        {"label": "001 I", "side": "I", "body": "A2-A3-A4", "first": 1, "last": 2},
        {"label": "001 O", "side": "O", "body": ".", "first": 3, "last": 3}]
    assert "A2" in r["frames"][0]["board"]["I"] and "A4" in r["frames"][2]["board"]["I"]
    assert r["result"] == "Dark won: light resigned"


def test_every_lesson_starts_unsolved_and_has_a_solution():
    solutions = {
        "moving": [mv("D2", "D3"), mv("D3", "D4")],
        "capture": [{"kind": "capture", "from": "D4", "to": "D5"}, {"kind": "exit", "to": "D6"}],
        "overlap": [mv("G5", "F5"), {"kind": "capture", "from": "E4", "to": "E5"},
                    {"kind": "exit", "to": "E6"}],
        "chain": [{"kind": "capture", "from": "D4", "to": "D5"},
                  {"kind": "capture", "from": "D5", "to": "D6"}, {"kind": "exit", "to": "D7"}],
        "invasion": [mv("D6", "D7"), mv("D7", "D8"), {"kind": "end"}],
        "honor": [mv("A1", "B1"), mv("C3", "C2"), {"kind": "capture", "from": "B1", "to": "C1"},
                  {"kind": "stay"}],
    }
    assert set(solutions) == {lesson.slug for lesson in LESSONS}
    for lesson in LESSONS:
        start = attempt(lesson, [])
        assert not start["solved"] and not start["over"] and start["error"] is None
        done = attempt(lesson, solutions[lesson.slug])
        assert done["solved"] and done["error"] is None, (lesson.slug, done)
        assert done["message"].startswith("Well done")


def test_a_refused_lesson_step_gets_the_rules_words_and_changes_nothing():
    lesson = BY_SLUG["capture"]
    r = attempt(lesson, [mv("D4", "D6")])
    assert r["error"].startswith("D6 is not next to D4") and r["steps"] == []
    assert "D4" in r["state"]["board"]["I"]
    half = attempt(lesson, [{"kind": "capture", "from": "D4", "to": "D5"}])
    assert not half["solved"]  # the chain is open: not done before its exit
    back = attempt(lesson, [{"kind": "capture", "from": "D4", "to": "D5"},
                            {"kind": "exit", "to": "D4"}])
    assert "may not return to D4" in back["error"] and len(back["steps"]) == 1


def test_a_lesson_turn_ended_without_the_goal_is_over_and_bad_input_is_refused():
    r = attempt(BY_SLUG["moving"], [mv("A1", "B1"), {"kind": "end"}])
    assert r["over"] and not r["solved"] and r["state"]["legal_steps"] == []
    assert "goal is not reached" in r["message"]
    assert attempt(BY_SLUG["moving"], [mv("A1", "B1"), {"kind": "end"}, mv("D2", "D3")])[
        "error"] == "the turn is over: start again"
    assert "at most" in attempt(BY_SLUG["moving"], [{"kind": "pass"}] * (MAX_STEPS + 1))["error"]
    assert attempt(BY_SLUG["moving"], ["D2-D3"])["error"] == (
        "a step must be an object with a 'kind'")


def test_a_last_step_that_would_stall_into_a_forfeit_is_named():
    g = TaluGame()
    for side_steps in ([{"kind": "pass"}], [mv("H7", "H6"), {"kind": "end"}], [{"kind": "pass"}],
                       [mv("G7", "G6"), {"kind": "end"}]):
        for s in side_steps:
            g.play(Step.from_dict(s))
    assert g.passing()["pass_would"] == "forfeit"
    for s in (mv("A2", "A3"), mv("A3", "A2"), mv("A2", "A3")):
        g.play(Step.from_dict(s))
    named = g.passing()["stalling_last_steps"]
    assert {"kind": "move", "from": "A3", "to": "A2"} in named  # back to the turn's start
    assert {"kind": "move", "from": "B2", "to": "B3"} not in named
    g.play(Step.from_dict(mv("A3", "A2")))
    assert g.outcome is not None and g.outcome.reason.value == "forfeit"
    assert TaluGame().passing()["stalling_last_steps"] == []
