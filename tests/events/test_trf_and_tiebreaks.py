"""R43's TRF export read back is the same event; a bad TRF is refused naming the line and what
is wrong. Tie-breaks (FIDE C.07, R42/R43) on standings built by hand."""

from __future__ import annotations

import random

import pytest

from registry.events.pairing import berger, swiss, trf
from registry.events.pairing.model import (
    ROUND_ROBIN,
    BoardPairing,
    Entrant,
    Round,
    Tournament,
)
from registry.events.pairing.tiebreaks import standings


def same_event(a: Tournament, b: Tournament) -> None:
    assert sorted(a.entrants, key=lambda e: e.key) == sorted(b.entrants, key=lambda e: e.key)
    assert (a.system, a.total_rounds, a.initial_colour) == (b.system, b.total_rounds,
                                                            b.initial_colour)
    assert len(a.rounds) == len(b.rounds)
    for ra, rb in zip(a.rounds, b.rounds, strict=True):
        assert sorted((g.white, g.black, g.result) for g in ra.games) == sorted(
            (g.white, g.black, g.result) for g in rb.games)
        assert sorted((x.player, x.kind) for x in ra.byes) == sorted(
            (x.player, x.kind) for x in rb.byes)


@pytest.mark.parametrize("seed", range(12))
def test_export_read_back_is_the_event(seed):
    rng = random.Random(seed)
    t = Tournament([Entrant(f"{i:018d}", f"Player {i}", rng.randint(0, 2400))
                    for i in range(rng.randint(5, 15))], total_rounds=5,
                   initial_colour=rng.choice(["white", "black"]))
    for r in range(1, 6):
        if r == 3:
            t = t.with_late_entrant(Entrant("LATECOMER00000000X", "Late Comer", 1500))
        if r == 4:
            e = t.entrants[0]
            t.entrants[0] = Entrant(e.key, e.name, e.rating, e.joined_round, withdrawn_after=3)
        rnd = swiss.pair_round(t, {t.entrants[1].key: "H"} if r == 2 else None)
        for g in rnd.games:
            # the last round is still being played: some results missing
            if r < 5 or rng.random() < 0.5:
                g.result = rng.choice(["1-0", "0-1", "=", "+-", "-+", "--"])
        t.rounds.append(rnd)
    text = trf.export(t)
    same_event(trf.parse(text), t)
    assert "XXR 5" in text and ("XXC white1" in text or "XXC black1" in text)


def test_a_null_game_is_a_draw_and_sides_are_colours():
    t = Tournament([Entrant("A", "Ann", 1800), Entrant("B", "Bob", 1700)], total_rounds=1)
    t.rounds.append(Round(1, [BoardPairing("B", "A", "=")]))
    line_a, line_b = [x for x in trf.export(t).splitlines() if x.startswith("001")]
    assert line_a[91:99] == "0002 b =" and line_b[91:99] == "0001 w ="
    assert line_a[80:84] == " 0.5"


def test_round_robin_export_round_trips_with_its_system():
    t = Tournament([Entrant(f"P{i}", rating=2000 - i) for i in range(5)], ROUND_ROBIN,
                   total_rounds=berger.rounds_of(ROUND_ROBIN, 5))
    for _ in range(3):
        rnd = berger.pair_round(t)
        for g in rnd.games:
            g.result = "1-0"
        t.rounds.append(rnd)
    back = trf.parse(trf.export(t))
    assert back.system == ROUND_ROBIN
    same_event(back, t)


GOOD = ("012 Test\n"
        "001    1      A                                 1800                             "
        "1.0    1  0002 w 1\n"
        "001    2      B                                 1700                             "
        "0.0    2  0001 b 0\n")


@pytest.mark.parametrize("bad, words", [
    ("", "the file is empty"),
    ("012 nothing\n", "no player lines"),
    (GOOD.replace("0002 w 1", "0002 x 1"), "line 2: round 1: colour 'x'"),
    (GOOD.replace("0002 w 1", "0002 w 7"), "line 2: round 1: result '7'"),
    (GOOD.replace("0001 b 0", "0001 b 1"), "results '1' and '1' of players 1 and 2"),
    (GOOD.replace("0001 b 0", "0003 b 0"), "player 1 meets 2, who does not meet 1"),
    (GOOD.replace("001    2", "001    1"), "line 3: pairing number 1 appears twice"),
    (GOOD.replace("1800", "18x0"), "line 2: rating '18x0' is not a number"),
    (GOOD + "TLS knockout\n", "line 4: unknown pairing system 'knockout'"),
    (GOOD.replace("  0002 w 1", "")[:60] + "\n", "line 2: a player line"),
])
def test_bad_trf_names_what_is_wrong(bad, words):
    with pytest.raises(trf.TRFError) as err:
        trf.parse(bad)
    assert words in str(err.value)


def _player_line(n: int, opponent: int, colour: str, code: str, rounds: int = 1) -> str:
    block = f"  {opponent:04d} {colour} {code}"
    return (f"001 {n:4d}      {'P' + str(n):<33} 1500"[:52]).ljust(81) + "0.0    1" + \
        block * rounds


# Issue 41: each of the probe's files, and each range a column or a row holds. Each was a 500
# on PostgreSQL (smallint and varchar(40) out of range, an IntegrityError) or hours of CPU.
@pytest.mark.parametrize("bad, words", [
    (GOOD + "XXR 40000\n", "line 4: XXR rounds 40000 is out of range: 1 to 99"),
    (GOOD + "XXR -5\n", "line 4: XXR rounds -5 is out of range: 1 to 99"),
    (GOOD + "XXR 0\n", "XXR rounds 0 is out of range"),
    (GOOD + "XXR 99999999999999999999\n", "XXR rounds '99999999999999999999' is not a number"),
    (GOOD + "XXR \u0661\n", "is not a number"),  # an Arabic-Indic digit: int() takes it
    (GOOD + f"TLP 1 {'K' * 60} 1\n", "line 4: TLP player id 'KKKK"),
    (GOOD + f"TLP 1 {'K' * 41} 1\n", "longer than 40 characters"),
    (GOOD + "TLP 1 K1 70000\n", "line 4: TLP round 70000 is out of range: 1 to 99"),
    (GOOD + "TLP 1 K1 -5\n", "line 4: TLP round -5 is out of range"),
    (GOOD + "TLP 1 K1 1 40000\n", "TLP withdrawal round 40000 is out of range"),
    (GOOD + "TLP 1 SAME 1\nTLP 2 SAME 1\n", "player id 'SAME' is named twice (pairing "
                                              "numbers 1 and 2)"),
    (GOOD + "TLP 1 TRF-0002 1\n", "player id 'TRF-0002' is named twice"),
    (GOOD + "TLP 1 K1 1\nTLP 1 K2 1\n", "line 5: TLP names pairing number 1 twice"),
    (GOOD + "TLP -1 K1 1\n", "TLP pairing number -1 is out of range"),
    (GOOD.replace("001    2", "001    0"), "line 3: pairing number 0 is out of range"),
    (GOOD.replace("001    2", "001   -2"), "line 3: pairing number -2 is out of range"),
    (GOOD.replace("1800", "-180"), "line 2: rating -180 is out of range: 0 to 9999"),
    (GOOD.replace("0002 w 1", "-002 w 1"), "line 2: round 1 opponent -2 is out of range"),
    (GOOD.replace("0002 w 1", "0001 w 1"), "round 1: player 1 meets themselves"),
    (GOOD + "XXR 1\n" + _player_line(3, 4, "w", "1", 2) + "\n" + _player_line(4, 3, "b", "0", 2)
     + "\n", "XXR gives 1 rounds, but the player lines hold 2"),
    ("012 Long\n" + _player_line(1, 2, "w", "1", 100) + "\n", "line 2: a player line (001) "
                                                             "holds more than 99 rounds"),
    ("012 Huge\n" + _player_line(1, 2, "w", "1", 190_000) + "\n",
     "the file is too large: 1,900,"),
])
def test_a_trf_out_of_range_is_refused_in_words(bad, words):
    with pytest.raises(trf.TRFError) as err:
        trf.parse(bad)
    assert words in str(err.value)


def _paired(players: int, rounds: int) -> str:
    """A file of ``players`` over ``rounds`` rounds: player n meets n + 1 (n odd), 1-0."""
    lines = []
    for n in range(1, players + 1):
        opp = n + 1 if n % 2 else n - 1
        lines.append(_player_line(n, opp, "w" if n % 2 else "b", "1" if n % 2 else "0",
                                  rounds))
    return "012 Big\n" + "\n".join(lines) + f"\nXXR {rounds}\n"


def test_the_caps_on_players_and_rounds_of_players():
    """At the caps a file is read; one player or one round of players more, it is refused
    naming the cap, at the line that passes it (nothing more of the file is looked at)."""
    most = trf.MAX_PLAYER_ROUNDS // trf.MAX_PLAYERS
    assert len(trf.parse(_paired(trf.MAX_PLAYERS, most)).entrants) == trf.MAX_PLAYERS
    with pytest.raises(trf.TRFError, match=f"line {trf.MAX_PLAYERS + 2}: more than "
                                           f"{trf.MAX_PLAYERS} players"):
        trf.parse(_paired(trf.MAX_PLAYERS + 2, 1))
    with pytest.raises(trf.TRFError, match=f"more than {trf.MAX_PLAYER_ROUNDS:,} rounds of "
                                           "players in all"):
        trf.parse(_paired(trf.MAX_PLAYERS, most + 1))
    assert len(trf.parse(_paired(2, trf.MAX_ROUNDS)).rounds) == trf.MAX_ROUNDS


def test_the_largest_file_the_caps_allow_fits_in_the_size_cap():
    """The size cap refuses no file the other caps accept: the largest such file (every
    player's line full, a TLP line each with the longest id) is well under it."""
    most = trf.MAX_PLAYER_ROUNDS // trf.MAX_PLAYERS
    text = _paired(trf.MAX_PLAYERS, most) + "".join(
        f"TLP {n} {'K' * (trf.MAX_KEY - 4)}{n:04d} 1 {most}\n"
        for n in range(1, trf.MAX_PLAYERS + 1))
    assert len(text) < 0.6 * trf.MAX_CHARS
    assert len(trf.parse(text).rounds) == most


def build(results: list[list[tuple[str, str, str]]], keys: str, byes=None) -> Tournament:
    t = Tournament([Entrant(k, rating=2000 - i) for i, k in enumerate(keys)],
                   total_rounds=len(results))
    for r, games in enumerate(results, start=1):
        t.rounds.append(Round(r, [BoardPairing(w, b, res) for w, b, res in games],
                              list((byes or {}).get(r, []))))
    return t


def test_swiss_buchholz_cut1_then_buchholz_then_direct_encounter():
    # 4 players, 3 rounds, every game played (no Article 16 adjustment):
    # r1 A-B 1-0, C-D 1-0; r2 A-C 1-0, B-D =; r3 D-A =, B-C 1-0
    t = build([[("A", "B", "1-0"), ("C", "D", "1-0")],
               [("A", "C", "1-0"), ("B", "D", "=")],
               [("D", "A", "="), ("B", "C", "1-0")]], "ABCD")
    table = {s.key: s for s in standings(t)}
    # points A 2.5, B 1.5, C 1, D 1
    assert [table[k].points for k in "ABCD"] == [2.5, 1.5, 1.0, 1.0]
    # BH: A = B+C+D = 3.5; B = A+D+C = 4.5; C = D+A+B = 5; D = C+B+A = 5
    assert [table[k].values["buchholz"] for k in "ABCD"] == [3.5, 4.5, 5.0, 5.0]
    # BH-C1 drops the lowest opponent: A 2.5, B 3.5, C 4, D 4
    assert [table[k].values["buchholz_cut1"] for k in "ABCD"] == [2.5, 3.5, 4.0, 4.0]
    # C and D tie on points and both Buchholz; C beat D: direct encounter puts C first
    assert (table["C"].rank, table["D"].rank) == (3, 4)
    assert table["C"].values["direct_encounter"] == 1.0
    assert [s.key for s in standings(t)] == ["A", "B", "C", "D"]


def test_round_robin_direct_encounter_wins_then_sonneborn_berger():
    # 4 players, single round robin by Berger (R42): 1-4, 2-3; 4-3, 1-2; 2-4, 3-1
    t = Tournament([Entrant(k, rating=2000 - i) for i, k in enumerate("ABCD")], ROUND_ROBIN)
    results = iter(["=", "1-0", "0-1", "=", "1-0", "1-0"])
    for _ in range(3):
        rnd = berger.pair_round(t)
        for g in rnd.games:
            g.result = next(results)
        t.rounds.append(rnd)
    # r1 A-D =, B-C 1-0; r2 D-C 0-1, A-B =; r3 B-D 1-0, C-A 1-0
    table = {s.key: s for s in standings(t)}
    assert [table[k].points for k in "ABCD"] == [1.0, 2.5, 2.0, 0.5]
    assert [s.key for s in standings(t)] == ["B", "C", "A", "D"]
    # SB: B = A(1)*0.5 + C(2)*1 + D(0.5)*1 = 3.0
    assert table["B"].values["sonneborn_berger"] == 3.0
    assert table["B"].values["wins"] == 2.0


def test_victory_score_breaks_the_last_tie_in_s3_events():
    t = build([[("A", "B", "="), ("C", "D", "=")]], "ABCD")
    order = [s.key for s in standings(t, victory_scores={"D": 30.0, "B": 20.0})]
    # all on 0.5, BH equal, DE equal among unmet, wins 0: victory score decides
    assert order[:2] == ["D", "B"]
