"""An independent judge of a Dutch round (issue 40's test gap): is there a legal pairing of
the round that FIDE C.04.3 (the rules in force from 2026) prefers to the one given?

Written from the rules, not from the engine (``registry/events/pairing/dutch.py`` weighs
pairings as one number; nothing of it is imported here): the round is read from the
tournament's cells (C.04.3 1.2-1.7), every pairing that keeps the absolute criteria (C.1-C.3,
and C.04.1's byes) is enumerated, which is why this is for small fields only, and the given
pairing is compared with each, bracket by bracket from the top, on the quality criteria in
FIDE's order. What is compared, and what is not:

- C.5 (first, for the whole round): the pairing-allocated bye goes to the lowest score that
  any legal pairing can give it.
- then, for each bracket (score group S from the top; its players are those of score S and
  every higher player not paired in a higher bracket):
  C.6 the most pairs in the bracket; C.7 its downfloaters' scores, in descending order, the
  lowest; C.8 the same two of the next bracket; C.9 the fewest unplayed games of the bye's
  assignee, in the last bracket, where the bye is decided (in a higher bracket, where two
  pairings give the bye to players of different numbers of unplayed games, the judge gives
  no verdict: how a higher bracket weighs a bye still to come is bbpPairings' reading, not
  one we can state from the text); C.10-C.13 the colours of the bracket's pairs (topscorers' colour
  differences beyond 2, topscorers' third colour in a row, colour preferences not met, strong
  preferences not met); C.14-C.17 the floats (players of the bracket who would get the float
  they got one round before, down then up, then two rounds before, down then up).
- Not compared: C.18-C.21 (the scores of those repeated floats), and what FIDE leaves to
  the order of transpositions and exchanges (D.1-D.2) when two pairings of a bracket are
  equal on every criterion: then the judge gives no verdict. Nor the colours of each board
  (E.1-E.5): the colour criteria count what no colour allocation can avoid (two players of
  one preference: one of them misses it; for C.11 the one with the smaller colour
  difference, E.2, or neither when only one of two equal differences has had one colour
  twice running).

Comparing two bracket pairings on their own criteria is only meaningful while the higher
brackets were paired the same way, so a pairing beats the given one at the first bracket
where their pairs differ, and only if it is strictly better there on the first criterion in
which they differ. Scores are in half points.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from registry.events.pairing.model import Round, Tournament

CRITERIA = ("C.6", "C.7", "C.8 pairs", "C.8 downfloaters", "C.10", "C.11", "C.12", "C.13",
            "C.14", "C.15", "C.16", "C.17")


@dataclass(frozen=True)
class Seat:
    """One player to pair, as the rules see them before the round."""

    key: str
    score: int  # half points
    preference: str | None  # "w", "b" or None (no game played yet)
    absolute: bool
    strong: bool
    imbalance: int  # |whites - blacks| of games played
    repeated: bool  # the last two games played with one colour
    float1: str | None  # "D", "U" or None: the float of the previous round (1.4)
    float2: str | None  # ... of the round before it
    bye_ok: bool  # C.2: no bye yet, no point scored without playing
    unplayed: int  # rounds without a game played
    topscorer: bool


@dataclass(frozen=True)
class Verdict:
    """A legal pairing the rules prefer to the given one, where and why."""

    criterion: str
    bracket_score: float
    better: tuple[frozenset[frozenset[str]], str | None]


class Judge:
    """The round to pair (``rn``, after ``t.rounds``) with ``absent`` players not in it."""

    def __init__(self, t: Tournament, absent: dict[str, str]) -> None:
        rn = len(t.rounds) + 1
        last_round = rn >= t.total_rounds
        cells = t.cells()
        numbers = t.numbers()
        before = {r: t.scores(r) for r in range(rn)}
        present = [e.key for e in t.entrants if e.active_in(rn) and e.key not in absent]

        def float_of(key: str, r: int) -> str | None:
            """1.4.2-1.4.3: a game against a higher (lower) score is an upfloat (downfloat);
            a round without a game that scored more than a loss is a downfloat."""
            if r < 1:
                return None
            c = cells[key].get(r)
            if c is None or not c.played:
                return "D" if c is not None and c.points > 0 else None
            mine, theirs = before[r - 1][key], before[r - 1][c.opponent]
            return "D" if mine > theirs else "U" if mine < theirs else None

        seats = []
        for key in present:
            mine = [c for _, c in sorted(cells[key].items())]
            colours = [c.colour for c in mine if c.played]
            diff = colours.count("w") - colours.count("b")
            repeated = len(colours) >= 2 and colours[-1] == colours[-2]
            other = {"w": "b", "b": "w"}
            if not colours:
                preference = None
            elif abs(diff) > 1:
                preference = "w" if diff < 0 else "b"
            elif repeated or diff == 0:
                preference = other[colours[-1]]
            else:
                preference = "w" if diff < 0 else "b"
            score = round(2 * before[rn - 1][key])
            seats.append(Seat(
                key=key, score=score, preference=preference,
                absolute=abs(diff) > 1 or repeated,
                strong=abs(diff) == 1 and not repeated, imbalance=abs(diff),
                repeated=repeated, float1=float_of(key, rn - 1), float2=float_of(key, rn - 2),
                bye_ok=all(c.code not in ("U", "F", "+") for c in mine),
                unplayed=(rn - 1) - len(colours),
                topscorer=last_round and score > rn - 1))
        seats.sort(key=lambda s: (-s.score, numbers[s.key]))  # 1.2: score, then number
        self.seats = {s.key: s for s in seats}
        self.order = [s.key for s in seats]
        self.scores = sorted({s.score for s in seats}, reverse=True)
        self.met = {k: {c.opponent for c in cells[k].values() if c.played} for k in present}

    # -- the absolute criteria ---------------------------------------------------------------

    def compatible(self, a: str, b: str) -> bool:
        """C.1: not met in a game played; C.3: not two of one absolute preference, unless one
        is a topscorer (the last round)."""
        if b in self.met[a]:
            return False
        p, q = self.seats[a], self.seats[b]
        same = p.absolute and q.absolute and p.preference == q.preference
        return not same or p.topscorer or q.topscorer

    def legal_pairings(self) -> Iterator[tuple[frozenset[frozenset[str]], str | None]]:
        """Every pairing of the round that keeps C.1-C.3 and C.04.1's bye rule."""
        keys = self.order
        odd = len(keys) % 2 == 1

        def walk(left: list[str], pairs: list[frozenset[str]], bye: str | None):
            if not left:
                yield frozenset(pairs), bye
                return
            a, rest = left[0], left[1:]
            if bye is None and odd and self.seats[a].bye_ok:
                yield from walk(rest, pairs, a)
            for i, b in enumerate(rest):
                if self.compatible(a, b):
                    yield from walk(rest[:i] + rest[i + 1:], [*pairs, frozenset((a, b))], bye)

        yield from walk(keys, [], None)

    def check_legal(self, pairing: tuple[frozenset[frozenset[str]], str | None]) -> None:
        pairs, bye = pairing
        seen = [k for p in pairs for k in p] + ([bye] if bye else [])
        assert sorted(seen) == sorted(self.order), "every player present paired once"
        assert all(self.compatible(*p) for p in pairs), "C.1/C.3"
        assert bye is None or self.seats[bye].bye_ok, "C.2"

    # -- the quality criteria -----------------------------------------------------------------

    def _brackets(self, pairing):
        """Each bracket from the top: its score, its players (the moved-down first), the pairs
        made in it and its downfloaters."""
        pairs, bye = pairing
        low = {p: min(self.seats[k].score for k in p) for p in pairs}
        waiting: list[str] = []
        out = []
        for s in self.scores:
            members = waiting + [k for k in self.order if self.seats[k].score == s]
            inside = frozenset(p for p in pairs if low[p] == s)
            paired = {k for p in inside for k in p}
            waiting = [k for k in members if k not in paired]
            out.append((s, members, inside, waiting))
        assert not waiting or waiting == [bye]
        return out

    def _colours(self, inside) -> tuple[int, int, int, int]:
        c10 = c11 = c12 = c13 = 0
        for pair in inside:
            p, q = (self.seats[k] for k in pair)
            if p.preference is None or p.preference != q.preference:
                continue
            c12 += 1  # one of the two misses the preference
            if p.absolute and q.absolute:
                c10 += min(p.imbalance, q.imbalance) >= 2  # the loser goes beyond 2
                if p.imbalance != q.imbalance:  # E.2: the wider difference is granted
                    c11 += (p if p.imbalance < q.imbalance else q).repeated
                else:
                    c11 += p.repeated and q.repeated
            elif (p.absolute or p.strong) and (q.absolute or q.strong):
                c13 += 1  # a strong preference is missed (an absolute one wins, E.2)
        return c10, c11, c12, c13

    def _floats(self, inside, floaters) -> tuple[int, int, int, int]:
        """Players of the bracket who get now the float they had 1 (2) rounds before."""
        down, up = set(floaters), set()
        for pair in inside:
            a, b = sorted(pair, key=lambda k: -self.seats[k].score)
            if self.seats[a].score > self.seats[b].score:
                down.add(a)
                up.add(b)
        counts = []
        for attr in ("float1", "float2"):
            counts.append(sum(getattr(self.seats[k], attr) == "D" for k in down))
            counts.append(sum(getattr(self.seats[k], attr) == "U" for k in up))
        return counts[0], counts[1], counts[2], counts[3]

    def _key(self, brackets, i) -> tuple:
        """The bracket's criteria, each lower-is-better: C.6 (pairs, negated), C.7 (its
        downfloaters' scores, highest first: compared from the highest), C.8 (the same of
        the next bracket), C.10-C.13, C.14-C.17."""
        _, _, inside, floaters = brackets[i]

        def falling(keys) -> tuple[int, ...]:
            return tuple(sorted((self.seats[k].score for k in keys), reverse=True))

        nxt: tuple = (0, ())
        if i + 1 < len(brackets):
            nxt = (-len(brackets[i + 1][2]), falling(brackets[i + 1][3]))
        return (-len(inside), falling(floaters), *nxt, *self._colours(inside),
                *self._floats(inside, floaters))

    def beats(self, other, given) -> Verdict | None:
        """``other`` is preferred to ``given`` by the criteria above (None: not, or not
        decided by them)."""
        if other[1] is not None and given[1] is not None:
            mine, theirs = self.seats[given[1]].score, self.seats[other[1]].score
            if theirs != mine:
                return Verdict("C.5", theirs / 2, other) if theirs < mine else None
        a, b = self._brackets(other), self._brackets(given)
        for i in range(len(a)):
            if a[i][2] == b[i][2]:
                continue
            ka, kb = self._key(a, i), self._key(b, i)
            for name, x, y in zip(CRITERIA[:4], ka[:4], kb[:4], strict=True):
                if x != y:
                    return Verdict(name, a[i][0] / 2, other) if x < y else None
            if other[1] != given[1]:
                x, y = self.seats[other[1]].unplayed, self.seats[given[1]].unplayed
                if x != y:
                    if i < len(a) - 1:
                        return None  # C.9 in a higher bracket: not compared (module note)
                    return Verdict("C.9", a[i][0] / 2, other) if x < y else None
            for name, x, y in zip(CRITERIA[4:], ka[4:], kb[4:], strict=True):
                if x != y:
                    return Verdict(name, a[i][0] / 2, other) if x < y else None
            return None  # equal on every criterion compared: D.1-D.2 decide
        return None

    def best_beating(self, given) -> Verdict | None:
        """The first legal pairing found that the rules prefer to ``given``, if any."""
        self.check_legal(given)
        for other in self.legal_pairings():
            if other != given:
                verdict = self.beats(other, given)
                if verdict is not None:
                    return verdict
        return None


def as_pairing(rnd: Round) -> tuple[frozenset[frozenset[str]], str | None]:
    pab = [b.player for b in rnd.byes if b.kind == "U"]
    return (frozenset(frozenset((g.white, g.black)) for g in rnd.games),
            pab[0] if pab else None)
