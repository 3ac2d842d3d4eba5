"""Talat's rules (RULINGS-TALAT.md A3-A8, A11) on positions: the beats table, placement,
moves, captures, scores, frozen boards, passes, the end and its ranks, seats that leave, the
two-seat game, and bad input refused in words that name the rule, nothing changed."""

from __future__ import annotations

import pytest

from play.games.talat import BEATS, KINDS, IllegalAction, Position, TalatGame
from play.games.talat.board import board_names, parse_square
from play.games.talat.position import START_OF

from .helpers import game, position

#: Two boards where captures stay possible (23, 31), so a test's game goes on.
BUSY = {"23:c1": "2:L3", "23:c5": "3:M6", "31:c1": "3:L4", "31:c5": "1:M4"}


def _sq(name: str, variant: str = "three") -> int:
    return parse_square(name, board_names(variant))


def _snapshot(g: TalatGame) -> tuple[object, ...]:
    p = g.pos
    return (list(p.board), list(p.scores), [list(c) for c in p.captured], list(p.frozen),
            p.to_move, p.phase, list(g.lines), [list(h) for h in p.hand])


def test_the_whole_beats_table():  # A5
    table = [("S3", "........x"), ("S4", "x........"), ("S6", "xx......."),
             ("M3", "xxx......"), ("M4", "xxxx....."), ("M6", "xxxxx...."),
             ("L3", "...xxx..."), ("L4", "...xxxx.."), ("L6", "...xxxxx.")]
    for a, (name, row) in enumerate(table):
        assert name == KINDS[a]
        for b, mark in enumerate(row):
            assert BEATS[a * 9 + b] is (mark == "x"), f"{KINDS[a]} vs {KINDS[b]}"
    # L beats no S; David and Goliath one way only
    assert not any(BEATS[KINDS.index(L) * 9 + KINDS.index(S)]
                   for L in ("L3", "L4", "L6") for S in ("S3", "S4", "S6"))
    assert BEATS[KINDS.index("S3") * 9 + KINDS.index("L6")]
    assert not BEATS[KINDS.index("L6") * 9 + KINDS.index("S3")]


def test_placement_in_turn_on_own_start_lines_then_seat_1_moves():  # A3
    g = TalatGame("three")
    assert g.to_move() == "1" and g.pos.phase == "placement"
    g.act("1", "@12:a1 L6")
    g.act("2", "@12:a5 L6")
    g.act("3", "@23:e5 S3")
    assert g.towers() == {"12:a1": "1:L6", "12:a5": "2:L6", "23:e5": "3:S3"}
    assert g.lines == ["1 @12:a1 L6", "2 @12:a5 L6", "3 @23:e5 S3"]
    before = _snapshot(g)
    for text, words in (("@12:a2 M6", "12:a2 is not on 1's start lines (12 row 1, 31 row 5) "
                                      "(A3)"),
                        ("@12:a1 M6", "12:a1 is taken by 1:L6 (A3)"),
                        ("@31:a5 L6", "1:L6 is already placed (A3)"),
                        ("12:a1-a2", "placement is not over: place a tower (A3)"),
                        ("pass", "nobody passes during placement (A3)")):
        with pytest.raises(IllegalAction) as err:
            g.act("1", text)
        assert err.value.action == text and str(err.value).endswith(words)
    with pytest.raises(IllegalAction, match="it is seat 1's turn, not seat 2's"):
        g.act("2", "@23:a1 M6")
    assert _snapshot(g) == before
    while g.pos.phase == "placement":  # everyone places the rest, in turn
        seat = g.to_move()
        g.play(g.pos.legal()[0])
        assert g.lines[-1].startswith(f"{seat} @")
    assert len(g.lines) == 27 and [line[0] for line in g.lines[:6]] == list("123123")
    assert g.pos.phase == "play" and g.to_move() == "1"
    assert all(sum(1 for s in START_OF[i] if g.pos.board[s] < 0) == 1 for i in range(3))


def test_moves_are_one_square_forward_to_an_empty_square():  # A4
    g = game({**BUSY, "12:b2": "1:M3", "12:c3": "2:S4", "12:b4": "2:M4"})
    assert sorted(g.legal()) == sorted(["12:b2-b3", "12:b2-a3", "12:b2xc3", "31:c5-c4",
                                        "31:c5-b4", "31:c5-d4"])
    for text, words in (("12:b2-b4", "b4 is not one square forward of b2, straight or "
                                     "diagonally (A4)"),
                        ("12:b2-b1", "b1 is not one square forward of b2"),
                        ("12:b2-a2", "a2 is not one square forward of b2"),
                        ("12:b2-c3", "12:c3 is taken: a move goes to an empty square (a capture "
                                     "is written 12:b2xc3) (A4)"),
                        ("12:c3-c2", "12:c3 holds 2:S4, a tower of seat 2 (A4)"),
                        ("12:d2-d3", "there is no tower on 12:d2 (A4)")):
        with pytest.raises(IllegalAction) as err:
            g.act("1", text)
        assert words in str(err.value)
    g.act("1", "12:b2-a3")
    assert g.towers()["12:a3"] == "1:M3" and "12:b2" not in g.towers()
    # seat 2 moves down on 12 (towards row 1) and up on 23
    assert "12:b4-b3" in g.legal() and "23:c1-c2" in g.legal() and "12:b4-b5" not in g.legal()


def test_captures_ahead_and_beside_by_the_hierarchy():  # A5
    g = game({**BUSY, "12:c3": "1:M6", "12:b3": "2:S3", "12:c4": "2:L3", "12:d4": "2:M4",
              "12:d3": "2:M6", "12:c2": "2:S6"})
    legal = g.legal()
    assert "12:c3xb3" in legal and "12:c3xd4" in legal  # beside; diagonally ahead
    assert "12:c3xc4" not in legal and "12:c3xd3" not in legal and "12:c3xc2" not in legal
    for text, words in (("12:c3xc4", "1:M6 does not beat 2:L3: M6 is lower than L3 (only S3 "
                                     "beats L6, David and Goliath) (A5)"),
                        ("12:c3xd3", "1:M6 does not beat 2:M6: equal towers never capture each "
                                     "other (M6 and M6) (A5)"),
                        ("12:c3xc2", "c2 is not ahead of c3 (straight or diagonally) nor beside "
                                     "it (A5)"),
                        ("12:c3xc5", "there is no tower on 12:c5 to capture (A5)")):
        with pytest.raises(IllegalAction) as err:
            g.act("1", text)
        assert str(err.value).endswith(words)
    g.act("1", "12:c3xd4")
    assert g.towers()["12:d4"] == "1:M6" and g.captured()["1"] == ["2:M4"]
    assert g.scores()["1"] == 5 and g.lines[-1] == "1 12:c3xd4"


def test_l_does_not_beat_s_and_david_beats_goliath():  # A5
    g = game({**BUSY, "12:c3": "1:L6", "12:c4": "2:S4", "12:b3": "2:S3"})
    assert not [a for a in g.legal() if a.startswith("12:c3x")]
    with pytest.raises(IllegalAction, match="a large tower beats one height below it only"):
        g.act("1", "12:c3xc4")
    g.act("1", "31:c5-c4")
    assert "12:b3xc3" in g.legal()  # seat 2's S3 captures the L6 beside it
    g.act("2", "12:b3xc3")
    assert g.captured()["2"] == ["1:L6"] and g.scores()["2"] == 5


def test_scores_start_lines_and_a_sideways_capture_along_one():  # A6
    g = game({**BUSY, "12:a4": "1:S4", "12:d5": "1:M6", "12:e5": "2:S3", "12:b4": "2:S6",
              "12:c4": "1:S6", "12:c5": "2:S4"})
    g.act("1", "12:d5xe5")  # along seat 2's start line: the capture only
    assert g.scores()["1"] == 5
    g.act("2", "23:c1-c2")
    g.act("3", "23:c5-c4")
    g.act("1", "12:c4xc5")  # a capture onto the start line: 5 + 3
    assert g.scores()["1"] == 13
    g.act("2", "23:c2-c3")
    g.act("3", "31:c1-c2")
    g.act("1", "12:a4-a5")  # a move onto it: 3
    assert g.scores()["1"] == 16
    # a tower on a start line may still capture (A5): none left here to try on 12
    assert g.scores() == {"1": 16, "2": 0, "3": 0}


def test_a_board_frozen_while_its_towers_can_still_move():  # A7, the sheet's fig. 10
    pos = position({**BUSY, "12:a1": "1:M3", "12:e3": "2:S4"})
    assert pos.frozen == [True, False, False]
    g = game({**BUSY, "12:a1": "1:M3", "12:e3": "2:S4"})
    assert not [a for a in g.legal() if a.startswith("12:")]
    before = _snapshot(g)
    with pytest.raises(IllegalAction) as err:
        g.act("1", "12:a1-a2")
    assert str(err.value) == "12:a1-a2: 12 is frozen: nobody moves on it (A7)"
    assert _snapshot(g) == before and g.frozen() == ["12"]


def test_a_board_not_frozen_while_a_diagonal_path_remains():  # A7
    pos = position({**BUSY, "12:a1": "1:M3", "12:d3": "2:S4"})
    assert pos.frozen == [False, False, False]  # a1-b2 and d3-c2: side by side
    # the towers alone count: a third tower in the way changes nothing (A7)
    assert not position({**BUSY, "12:a1": "1:M3", "12:d3": "2:S4", "12:b2": "2:L6"}).frozen[0]
    # a tower out of reach behind its victim: frozen
    assert position({**BUSY, "12:c3": "1:M3", "12:c2": "2:S4"}).frozen[0]
    # each pair is judged: the lower tower's reach counts when it is the capturer
    assert not position({**BUSY, "12:c1": "1:S3", "12:c5": "2:L6"}).frozen[0]


def test_the_game_ends_on_the_second_frozen_board():  # A7, A8
    g = game({"12:a1": "1:M3", "12:e3": "2:S4", **BUSY, "31:c2": "1:L6"})
    g.act("1", "31:c2xc1")  # 31: seat 1's towers only, no seat-3 tower left: frozen
    assert g.frozen() == ["12", "31"] and g.finished and g.reason == "frozen"
    assert g.to_move() is None and g.legal() == []
    assert g.ranks() == {"1": 1, "2": 2, "3": 2}


def test_ties_broken_by_the_best_captured_tower_then_shared():  # A8
    pos = position(BUSY)
    pos.scores[:] = [10, 10, 5]
    pos.captured[:] = [[8], [5, 7], []]  # L6 beats L4 first: seat 1 ahead
    assert pos.ranks() == {0: 1, 1: 2, 2: 3}
    pos.captured[:] = [[7], [7, 0], []]  # equal first towers: a list that runs out is lower
    assert pos.ranks() == {1: 1, 0: 2, 2: 3}
    pos.captured[:] = [[3, 7], [7, 3], []]  # the same towers: a shared first place
    assert pos.ranks() == {0: 1, 1: 1, 2: 3}
    pos.scores[:] = [5, 5, 5]
    pos.captured[:] = [[0], [0], [0]]
    assert pos.ranks() == {0: 1, 1: 1, 2: 1}


def test_a_seat_with_no_action_passes_and_the_game_goes_on():  # A4
    towers = {"12:a1": "1:M3", "12:e3": "2:S4", "23:c5": "2:S3", "23:b5": "3:M4",
              "31:c1": "3:L4", "31:c5": "1:M4"}
    g = game(towers)
    assert g.pos.frozen == [True, False, False]
    assert not g.pos.can_act(1) and g.pos.can_act(0) and g.pos.can_act(2)
    g.act("1", "31:c5-c4")
    assert g.to_move() == "2" and g.pos.must_pass() and g.legal() == ["pass"]
    with pytest.raises(IllegalAction, match=r"it is seat 2's turn \(it can only pass\), not"):
        g.act("3", "23:b5xc5")
    assert g.auto_passes() == ["2 pass"] and g.to_move() == "3"
    with pytest.raises(IllegalAction, match="seat 3 has a move or a capture: a seat passes "
                                            r"only when it has neither \(A4\)"):
        g.act("3", "pass")
    g.act("3", "23:b5xc5")
    assert g.captured()["3"] == ["2:S3"]


def test_no_seat_can_act_ends_the_game_with_one_board_frozen():  # A8, no_moves
    # 12 and 23: a pair that could still meet (A7 ignores the other towers), but every
    # tower is blocked by others or on its far row, and no neighbours beat each other
    pos = position({"12:a1": "1:L3", "12:c2": "2:L6", "12:a2": "2:S4", "12:b2": "2:S6",
                    "12:b1": "2:L3", "12:c1": "2:M3", "12:d1": "2:M4",
                    "23:a1": "2:S3", "23:c2": "3:M3", "23:a2": "3:L3", "23:b2": "3:L4",
                    "23:b1": "3:S3", "23:c1": "3:M4", "23:d1": "3:M6"})
    assert pos.frozen == [False, False, True]
    assert not any(pos.can_act(s) for s in range(3))
    assert pos.finished and pos.reason == "no_moves" and pos.legal() == []


def test_a_seat_that_leaves_keeps_its_towers_and_is_ranked_last():  # A8
    g = game({**BUSY, "12:c3": "1:M6", "12:c4": "2:S6", "12:a5": "2:M3"})
    g.act("1", "31:c5-c4")
    g.leave("2")
    assert g.to_move() == "3" and g.towers()["12:c4"] == "2:S6"
    g.act("3", "31:c1-c2")
    assert g.to_move() == "1"  # seat 2 takes no more turns
    g.act("1", "12:c3xc4")  # its towers can still be captured
    assert g.captured()["1"] == ["2:S6"] and g.to_move() == "3"
    g.leave("3")  # one seat left: the game ends; the first to leave is last
    assert g.finished and g.reason == "decision"
    assert g.ranks() == {"1": 1, "3": 2, "2": 3}


def test_two_seat_placement_eight_zihin_towers_then_own_and_the_last_placer_moves():  # A11
    g = TalatGame("two")
    assert g.players == ("1", "2") and g.to_move() == "1" and g.pos.placing == 2
    with pytest.raises(IllegalAction, match="the first eight placements are Zihin's towers: "
                                            r"write 1>Z \(A11\)"):
        g.act("1", "@12:a1 L6", zihin=False)
    with pytest.raises(IllegalAction, match="not on Zihin's start lines"):
        g.act("1", "@12:a1 L6")
    kinds = ["L6", "L4", "L3", "M6", "M4", "M3", "S6", "S4"]
    squares = ["2Z:a5", "2Z:b5", "2Z:c5", "2Z:d5", "Z1:a1", "Z1:b1", "Z1:c1", "Z1:d1"]
    for i, (sq, kind) in enumerate(zip(squares, kinds, strict=True)):
        line = g.act(str(i % 2 + 1), f"@{sq} {kind}", zihin=True)
        assert line == f"{i % 2 + 1}>Z @{sq} {kind}"
    assert g.pos.off == [2 * 9 + KINDS.index("S3")]  # the ninth is out of the game
    assert g.pos.placing == 0 and g.to_move() == "1"
    with pytest.raises(IllegalAction, match="Zihin's eight towers are placed"):
        g.act("1", "@12:a1 L6", zihin=True)
    while g.pos.phase == "placement":
        g.play(g.pos.legal()[0])
    assert len(g.lines) == 26 and g.lines[-1].startswith("2 @")
    assert g.pos.phase == "play" and g.to_move() == "2"  # the last placer begins


def test_zihin_moves_only_on_the_board_between_zihin_and_the_opponent():  # A11, A6
    towers = {"12:c1": "1:L3", "12:c5": "2:M6", "2Z:c2": "Z:M4", "2Z:b1": "2:S6",
              "2Z:e4": "2:L3", "Z1:c1": "Z:L3", "Z1:c5": "1:M6", "Z1:a2": "1:S4"}
    g = game(towers, "1", "two")
    legal = g.legal()
    assert "2Z:c2-c1" in legal and "2Z:c2xb1" in legal  # Zihin's, by the opponent
    assert not [a for a in legal if a.startswith("Z1:c1")]  # Zihin's on 1's own board: no
    with pytest.raises(IllegalAction) as err:
        g.act("1", "Z1:c1-c2")
    assert str(err.value) == ("Z1:c1-c2: Zihin's towers move only on 2Z, the board between "
                              "Zihin and your opponent (A11)")
    with pytest.raises(IllegalAction, match="write the seat as 1>Z"):
        g.act("1", "2Z:c2-c1", zihin=False)
    assert g.act("1", "2Z:c2-c1") == "1>Z 2Z:c2-c1"
    assert g.scores() == {"1": 3, "2": 0}  # Zihin onto seat 2's start line scores for 1
    assert "Z1:c1xc2" not in g.legal()
    g.act("2", "Z1:c1-c2")  # seat 2 moves Zihin on Z1
    assert g.lines[-1] == "2>Z Z1:c1-c2"
    g.act("1", "2Z:c1xb1")  # a capture with Zihin's tower scores for the player
    assert g.captured() == {"1": ["2:S6"], "2": []} and g.scores()["1"] == 8
    g.act("2", "12:c5-c4")
    g.act("1", "Z1:a2-a1")  # one's own tower onto Zihin's start line scores 3 too
    assert g.scores()["1"] == 11


def test_the_search_api_makes_and_unmakes_every_turn():
    import random
    rng = random.Random(5)
    for variant in ("three", "two"):
        pos = Position(variant)
        seen = []
        while not pos.finished:
            seen.append((list(pos.board), list(pos.scores), list(pos.frozen), pos.to_move))
            pos.push(rng.choice(pos.legal()))
        while pos.turns:
            pos.pop()
            assert (list(pos.board), list(pos.scores), list(pos.frozen),
                    pos.to_move) == seen.pop()
        assert pos.phase == "placement" and all(all(h) for h in pos.hand) and not pos.off


def test_squares_and_sides():  # A1
    assert board_names("three") == ("12", "23", "31")
    assert board_names("two") == ("12", "2Z", "Z1")
    assert _sq("23:c4") == 25 + 3 * 5 + 2
    with pytest.raises(ValueError, match="there is no board '13'"):
        _sq("13:c4")
    with pytest.raises(ValueError, match="a square is a file a-e and a row 1-5"):
        _sq("12:f1")


def test_a_seat_that_leaves_during_placement_places_no_more():  # A8, A3
    g = TalatGame("three")
    g.act("1", "@12:a1 L6")
    g.leave("2")
    assert g.to_move() == "3"
    while g.pos.phase == "placement":
        g.play(g.pos.legal()[0])
    assert len(g.lines) == 1 + 9 + 8 and not any(line.startswith("2 ") for line in g.lines)
    # seat 2 placed no tower: its two boards hold nobody to capture, frozen from the start
    assert g.frozen() == ["12", "23"] and g.reason == "frozen"
    assert g.ranks()["2"] == 3
