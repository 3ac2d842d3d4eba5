"""Swiss rounds by the FIDE Dutch system (R43, C.04.3 as in force from 2026; C.04.1 for byes,
late entries and withdrawals).

Why a library: the Dutch system is some thirty pages of criteria whose exact tie-breaking only
shows on thousands of random tournaments; ``caissify-pairings`` implements the 2026 rules and
reports zero discrepancies against the FIDE-endorsed bbpPairings over 70,000 rounds (its A.7
run). Its matchings are done by bbpPairings' own incremental matching, compiled in ``py4swiss``
(incremental_matching.py says why and how). We check the result ourselves against bbpPairings
built from source (tests/events/data, and the comparison in BENCHMARKS.md) and keep this module
the only one that speaks to the library: it derives the engine's per-player history from our
rounds the way the library's own TRF checker does, so what we pass is what bbpPairings would
read from our TRF export. (py4swiss's own Dutch engine is not used: it implements the rules in
force until January 2026, docs/events.md.)
"""

from __future__ import annotations

from caissify_pairings.engines.dutch import ColorPref, DutchEngine

from registry.events.pairing import dutch_large
from registry.events.pairing.incremental_matching import patched_pair_iterative_mwm
from registry.events.pairing.model import BoardPairing, Bye, Cell, PairingError, Round, Tournament

NONE, WHITE, BLACK = ColorPref.NONE, ColorPref.WHITE, ColorPref.BLACK


class _Dutch(DutchEngine):
    """The library's engine with its colour allocation (C.04.3 E) ranking players as A.2
    does: by score, then pairing number. caissify-pairings 0.5.0 ranks by pairing number alone
    in ``_assign_colors``, so of two players with the same colour history and different scores
    the lower-scored one got the preferred colour; bbpPairings' check of our TRF export showed
    it. The rules below are the library's (E.1-E.5), with that one ranking changed (adapted
    from caissify-pairings, Apache-2.0)."""

    # bbpPairings' incremental matching in place of networkx's from-scratch one
    _pair_iterative_mwm = patched_pair_iterative_mwm(DutchEngine)

    def _assign_colors(self, p1, p2):
        higher, lower = sorted((p1, p2), key=lambda p: (-p.score, p.pairing_number))
        pref1, pref2 = p1.color_preference, p2.color_preference
        str1, str2 = p1.preference_strength, p2.preference_strength
        if NONE not in (pref1, pref2) and pref1 != pref2:  # E.1 both preferences
            return (p1, p2) if pref1 == WHITE else (p2, p1)
        if str1 != str2:  # E.2 the stronger preference
            stronger, other = (p1, p2) if str1 > str2 else (p2, p1)
            if stronger.color_preference == WHITE:
                return stronger, other
            if stronger.color_preference == BLACK:
                return other, stronger
        elif str1 > 0 and pref1 == pref2 and p1.color_diff != p2.color_diff:
            # E.2, both absolute and the same: the wider colour difference is granted
            more_black = p1 if p1.color_diff < p2.color_diff else p2
            more_white = p2 if more_black is p1 else p1
            return more_black, more_white
        for c1, c2 in zip(reversed(p1.color_hist), reversed(p2.color_hist), strict=False):
            if c1 != c2:
                return (p2, p1) if c1 == "white" else (p1, p2)
        if higher.color_preference == WHITE:  # E.4 the higher ranked player's preference
            return higher, lower
        if higher.color_preference == BLACK:
            return lower, higher
        # E.5: the higher ranked player's pairing number odd -> the initial colour
        initial_to_higher = (higher.pairing_number % 2 == 1) == (self.initial_color == "white")
        return (higher, lower) if initial_to_higher else (lower, higher)


def _ranks(t: Tournament, round_number: int, pairable: list[str],
           numbers: dict[str, int]) -> dict[str, int]:
    """The pairing numbers E.5 reads the parity of: bbpPairings counts only the players of
    this round and those ever paired before (a player absent from round 1 and never paired
    does not shift the others' colours). Numbered in pairing-number order, so every other use
    of the number (ranking, transpositions) is unchanged."""
    paired_before = {key for key, rounds in t.cells().items()
                     if any(c.opponent is not None or c.code == "U" for c in rounds.values())}
    counted = sorted(set(pairable) | (paired_before & set(numbers)), key=numbers.__getitem__)
    return {key: i for i, key in enumerate(counted, start=1)}


def _engine_players(t: Tournament, round_number: int, pairable: list[str],
                    numbers: dict[str, int]) -> list[dict]:
    cells = t.cells()
    ranks = _ranks(t, round_number, pairable, numbers)
    score_at: dict[str, dict[int, float]] = {}
    for key, rounds in cells.items():
        total, by_round = 0.0, {0: 0.0}
        for r in range(1, round_number):
            cell = rounds.get(r)
            total += cell.points if cell else 0.0
            by_round[r] = total
        score_at[key] = by_round
    entrants = {e.key: e for e in t.entrants}
    players = []
    for key in pairable:
        colours: list[str] = []
        floats: list[str] = []
        byes = forfeit_wins = 0
        for r in range(1, round_number):
            cell: Cell | None = cells[key].get(r)
            if cell is None:
                continue
            if cell.opponent is None:
                # a round without a game that scored points is a downfloat (C.04.3 A.4.b);
                # only a bye worth a win stops a second one (C.04.1: bbpPairings' rules,
                # where the library's own checker counts a zero- or half-point bye too)
                byes += cell.code in ("U", "F")
                floats.append("down" if cell.points > 0 else "none")
                continue
            if cell.played:
                colours.append("white" if cell.colour == "w" else "black")
                mine, theirs = score_at[key][r - 1], score_at[cell.opponent][r - 1]
                floats.append("down" if mine > theirs else "up" if mine < theirs else "none")
            else:
                if cell.code == "+":
                    forfeit_wins += 1
                floats.append("down" if cell.code == "+" else "none")
        players.append({
            "id": numbers[key], "name": entrants[key].name, "rating": entrants[key].rating,
            "score": score_at[key][round_number - 1], "pairing_number": ranks[key],
            "starting_number": numbers[key], "color_hist": colours, "float_history": floats,
            "bye_count": byes, "forfeit_win_count": forfeit_wins,
        })
    return players


def _previous_pairings(t: Tournament, numbers: dict[str, int]) -> set[tuple[int, int]]:
    """Opponents of games actually played: an unplayed game does not stop two players meeting
    (C.04.1 b counts games played; bbpPairings the same)."""
    pairs = set()
    for rnd in t.rounds:
        for g in rnd.games:
            # a game still on (a round paired by force before it ended) is not replayed either
            if g.result in ("1-0", "0-1", "=", None):
                a, b = numbers[g.white], numbers[g.black]
                pairs.add((min(a, b), max(a, b)))
    return pairs


def _large_rows(engine: _Dutch) -> list[dict]:
    pairs, bye = dutch_large.pair(engine._players, engine._assign_colors)
    rows = [{"white_id": w.id, "black_id": b.id, "table": i}
            for i, (w, b) in enumerate(pairs, start=1)]
    if bye is not None:
        rows.append({"white_id": bye.id, "black_id": None, "bye": True,
                     "table": len(rows) + 1})
    return rows


def pair_round(t: Tournament, absent: dict[str, str] | None = None,
               large: bool | None = None) -> Round:
    """The next round of a Swiss. ``absent`` names the players the arbiter knows will not play
    it and their bye (``H`` half-point or ``Z`` zero-point, C.04.1); withdrawn players and late
    entrants not yet joined are left out. The one pairing-allocated bye of an odd field goes
    by the Dutch rules to a player who has had none (R41). Fields above
    ``dutch_large.LARGE_FIELD`` are paired by ``dutch_large`` (``large`` forces the choice)."""
    absent = absent or {}
    round_number = len(t.rounds) + 1
    if t.total_rounds and round_number > t.total_rounds:
        raise PairingError(f"the event has {t.total_rounds} rounds, all paired")
    for key, kind in absent.items():
        t.entrant(key)
        if kind not in ("H", "Z"):
            raise PairingError(f"a bye asked before pairing is H or Z, not {kind!r}")
    numbers = t.numbers()
    by_number = {n: k for k, n in numbers.items()}
    pairable = [e.key for e in sorted(t.entrants, key=lambda e: numbers[e.key])
                if e.active_in(round_number) and e.key not in absent]
    byes = [Bye(k, absent[k]) for k in sorted(absent, key=numbers.__getitem__)]
    if not pairable:
        return Round(round_number, [], byes)
    engine = _Dutch(
        players=_engine_players(t, round_number, pairable, numbers),
        previous_pairings=_previous_pairings(t, numbers),
        round_number=round_number, total_rounds=max(t.total_rounds, round_number),
        initial_color=t.initial_colour, bye_value=1.0, max_byes_per_player=1)
    if large is None:
        large = len(pairable) > dutch_large.LARGE_FIELD
    try:
        rows = _large_rows(engine) if large else engine.generate_pairings()
    except dutch_large._NoPairing:
        raise PairingError(f"round {round_number} cannot be paired: too few players have "
                           "not met (withdraw a player or end the event)") from None
    except Exception as exc:  # the library's own words, named as ours
        raise PairingError(f"round {round_number} cannot be paired: {exc}") from exc
    games: list[BoardPairing] = []
    for row in sorted(rows, key=lambda r: r.get("table", 0)):
        if row.get("bye") or row.get("black_id") is None:
            byes.append(Bye(by_number[row["white_id"]], "U"))
        else:
            games.append(BoardPairing(by_number[row["white_id"]], by_number[row["black_id"]],
                              board=len(games) + 1))
    if sum(b.kind == "U" for b in byes) > len(pairable) % 2:
        # the library falls back to several byes when no pairing exists; an event never does
        raise PairingError(f"round {round_number} cannot be paired: too few players have "
                           "not met (withdraw a player or end the event)")
    had_bye = {k for k, rounds in t.cells().items()
               if any(c.code in ("U", "F", "+") for c in rounds.values())}
    if any(b.kind == "U" and b.player in had_bye for b in byes):
        # C.04.1 d: the library hands out a second bye when nothing else pairs (bbpPairings
        # says no valid pairing exists); an event never does
        raise PairingError(f"round {round_number} cannot be paired: the only pairings give a "
                           "second bye to a player (withdraw a player or end the event)")
    paired = {g.white for g in games} | {g.black for g in games} | {b.player for b in byes}
    if paired != set(pairable) | set(absent):
        raise PairingError(f"round {round_number} cannot be paired with every player "
                           "meeting a new opponent")
    return Round(round_number, games, byes)
