"""R43, issue 40: FIDE's published Dutch examples. "Mastering the Dutch" (FIDE Systems of
Pairings and Programs commission), the worked 15-player, 9-round tournament of its chapters
3-11 (pp. 11-67): every round's final pairing table, boards in order with colours, from the
crosstable of the rounds before it, with the half-point byes asked before pairing (H), the
forfeits (F) and the pairing-allocated byes the book gives. Transcribed from the book as
gnutterts/chesspairing's tests hold it (pairing/dutch/mastering_dutch_2026_test.go and
fide_examples_test.go, Apache-2.0): the results, requested byes and pairings only, our own
code. Pairing numbers 1-15 in the book's order; the first round's pairing number 1 has white.
"""

from __future__ import annotations

import pytest

from registry.events.pairing import swiss
from registry.events.pairing.model import BoardPairing, Bye, Entrant, Round, Tournament

# each round as played: (white, black, result) in the book's board order, then the byes of
# the round: "U" pairing-allocated, "H" asked before pairing (half a point)
PLAYED = [
    ("1-8 1-0, 9-2 =, 3-10 1-0, 11-4 0-1, 5-12 =, 13-6 1-0, 7-14 0-1", "15U"),
    ("14-1 0-1, 2-5 1-0, 15-3 0-1, 4-13 1-0, 10-7 0-1, 8-11 1-0, 12-9 =", "6H"),
    ("1-4 =, 3-2 =, 6-5 =, 8-13 +-, 9-14 1-0, 11-10 1-0, 12-15 1-0", "7H"),
    ("4-3 -+, 2-1 0-1, 8-9 0-1, 7-12 1-0, 5-13 1-0, 14-6 0-1, 15-11 0-1", "10U"),
    ("1-3 =, 9-7 0-1, 4-5 1-0, 12-2 =, 6-8 0-1, 13-11 1-0, 10-15 1-0", "14U"),
    ("7-1 0-1, 3-4 1-0, 8-12 1-0, 11-9 =, 2-10 1-0, 5-14 -+, 15-6 0-1", "13U"),
    ("3-8 1-0, 1-9 =, 4-2 1-0, 6-7 0-1, 13-14 1-0, 12-11 1-0, 5-10 0-1", "15H"),
    ("7-3 =, 1-13 1-0, 9-4 0-1, 2-8 1-0, 10-12 1-0, 11-6 1-0, 14-15 0-1", "5U"),
]

# the book's pairing of each round (white-black in board order; N-0: the pairing-allocated bye)
BOOK = {
    1: "1-8, 9-2, 3-10, 11-4, 5-12, 13-6, 7-14, 15-0",  # ch. 3, pp. 11-13
    2: "14-1, 15-3, 4-13, 2-5, 12-9, 10-7, 8-11",  # ch. 4, pp. 31-32 (6 asked a bye)
    3: "1-4, 3-2, 13-8, 9-14, 12-15, 6-5, 11-10",  # ch. 5, pp. 33-37 (7 asked a bye)
    4: "4-3, 2-1, 8-9, 7-12, 5-13, 14-6, 15-11, 10-0",  # ch. 6, p. 44
    5: "1-3, 9-7, 4-5, 12-2, 6-8, 13-11, 10-15, 14-0",  # ch. 7, p. 51
    6: "7-1, 3-4, 8-12, 11-9, 2-10, 5-14, 15-6, 13-0",  # ch. 8, p. 57
    7: "3-8, 1-9, 4-2, 6-7, 13-14, 12-11, 5-10",  # ch. 9, p. 60 (15 asked a bye)
    8: "7-3, 1-13, 9-4, 2-8, 10-12, 11-6, 14-15, 5-0",  # ch. 10, p. 63
    9: "10-1, 9-3, 4-7, 13-2, 8-15, 5-11, 12-14, 6-0",  # ch. 11, p. 67
}


def book_tournament(played: int) -> tuple[Tournament, dict[str, str]]:
    """The tournament after ``played`` rounds, and the byes asked for the next one."""
    t = Tournament([Entrant(f"P{i}", rating=3000 - i) for i in range(1, 16)], total_rounds=9)
    for number, (games, byes) in enumerate(PLAYED[:played], start=1):
        boards = []
        for board, text in enumerate(games.split(", "), start=1):
            pair, result = text.split(" ")
            white, black = pair.split("-")
            boards.append(BoardPairing(f"P{white}", f"P{black}", result, board))
        t.rounds.append(Round(number, boards, [Bye(f"P{byes[:-1]}", byes[-1])]))
    asked = {}
    if played < len(PLAYED) and PLAYED[played][1].endswith("H"):
        asked[f"P{PLAYED[played][1][:-1]}"] = "H"
    return t, asked


@pytest.mark.parametrize("number", sorted(BOOK))
def test_each_round_of_fides_worked_tournament_is_the_books_pairing(number):
    t, asked = book_tournament(number - 1)
    rnd = swiss.pair_round(t, asked)
    ours = [f"{g.white[1:]}-{g.black[1:]}" for g in rnd.games]
    ours += [f"{b.player[1:]}-0" for b in rnd.byes if b.kind == "U"]
    assert ", ".join(ours) == BOOK[number]
    assert {(b.player, b.kind) for b in rnd.byes if b.kind != "U"} == set(asked.items())


def test_the_transcription_gives_the_books_scores_before_the_last_round():
    # ch. 11: the scores before round 9, in pairing-number order
    t, _ = book_tournament(8)
    scores = t.scores()
    assert [scores[f"P{i}"] for i in range(1, 16)] == [
        6.5, 4.5, 6.5, 5.5, 3, 3, 5, 4, 4, 4, 3.5, 3.5, 4, 3, 2.5]
