"""The pure picture of an event's pairings and results, shared by every pairing system.

A tournament is its entrants and its rounds; a round is games (``white`` is the `I` side,
R42/R43) and byes. Results are kept in FIDE's TRF alphabet from the first-named side's view, so
that the Swiss pairing's inputs, the TRF export and the tie-breaks read one representation and
never translate between three:

game results (``BoardPairing.result``): ``1-0``, ``0-1``, ``=`` (a null game is a draw, R43), ``+-``
and ``-+`` (an unplayed game won by the present side, R41), ``--`` (both absent), or ``None``
while the game is on; byes (``Bye.kind``): ``U`` pairing-allocated (1 point, R41/C.04.1),
``H`` half-point, ``F`` full-point, ``Z`` zero-point (an absence the arbiter knew before
pairing, a late entrant's missed round, a round robin's bye slot).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

GAME_RESULTS = ("1-0", "0-1", "=", "+-", "-+", "--")
BYE_KINDS = ("U", "H", "F", "Z")
BYE_POINTS = {"U": 1.0, "F": 1.0, "H": 0.5, "Z": 0.0}
# a side's code and points for each game result: (white's, black's)
SIDE_CODES = {"1-0": ("1", "0"), "0-1": ("0", "1"), "=": ("=", "="), "+-": ("+", "-"),
              "-+": ("-", "+"), "--": ("-", "-")}
CODE_POINTS = {"1": 1.0, "+": 1.0, "=": 0.5, "0": 0.0, "-": 0.0, **BYE_POINTS}
PLAYED_CODES = frozenset({"1", "0", "="})

SWISS = "swiss"
ROUND_ROBIN = "round_robin"
DOUBLE_ROUND_ROBIN = "double_round_robin"


class PairingError(ValueError):
    """A round that cannot be paired or recorded as asked, in an arbiter's words."""


@dataclass(frozen=True)
class Entrant:
    """A player of the event: ``key`` is the player id (R26), ``rating`` the one at the close
    of entries (R42/R43: pairing numbers are by it). ``joined_round`` > 1 is a late entry;
    ``withdrawn_after`` the last round they were paired in, once they withdrew."""

    key: str
    name: str = ""
    rating: int = 0
    joined_round: int = 1
    withdrawn_after: int | None = None

    def active_in(self, round_number: int) -> bool:
        return self.joined_round <= round_number and (
            self.withdrawn_after is None or self.withdrawn_after >= round_number)


@dataclass
class BoardPairing:
    """One game of a round as pairing sees it: the board it is on, who plays white (`I`) and
    black (`O`) by their keys, and its result once known (not play's ``Game``, the game itself:
    this is the pairing's record of it)."""

    white: str
    black: str
    result: str | None = None
    board: int = 0


@dataclass
class Bye:
    player: str
    kind: str


@dataclass
class Round:
    number: int
    games: list[BoardPairing] = field(default_factory=list)
    byes: list[Bye] = field(default_factory=list)

    def complete(self) -> bool:
        return all(g.result is not None for g in self.games)

    def keys(self) -> set[str]:
        return {g.white for g in self.games} | {g.black for g in self.games} | {
            b.player for b in self.byes}


@dataclass(frozen=True)
class Cell:
    """One player's round, as a TRF 001 line holds it."""

    opponent: str | None
    colour: str  # "w", "b" or "-"
    code: str | None  # TRF result code, None while the game is on

    @property
    def points(self) -> float:
        return CODE_POINTS.get(self.code or "", 0.0)

    @property
    def played(self) -> bool:
        return self.code in PLAYED_CODES


@dataclass
class Tournament:
    entrants: list[Entrant]
    system: str = SWISS
    total_rounds: int = 0
    rounds: list[Round] = field(default_factory=list)
    initial_colour: str = "white"  # R43: pairing number 1's side in round 1 (drawn, recorded)

    def entrant(self, key: str) -> Entrant:
        for e in self.entrants:
            if e.key == key:
                return e
        raise PairingError(f"{key} is not a player of this event")

    def numbers(self) -> dict[str, int]:
        """Pairing numbers: rating at the close of entries, higher first, then player id
        (R42/R43). Late entrants take their place by the same order (C.04.1 allows the
        re-numbering), so the TRF always lists players in pairing-number order."""
        ordered = sorted(self.entrants, key=lambda e: (-e.rating, e.key))
        return {e.key: i for i, e in enumerate(ordered, start=1)}

    def cells(self) -> dict[str, dict[int, Cell]]:
        """Every player's rounds: key -> round number -> cell."""
        out: dict[str, dict[int, Cell]] = {e.key: {} for e in self.entrants}
        for rnd in self.rounds:
            for g in rnd.games:
                w, b = SIDE_CODES[g.result] if g.result else (None, None)
                out.setdefault(g.white, {})[rnd.number] = Cell(g.black, "w", w)
                out.setdefault(g.black, {})[rnd.number] = Cell(g.white, "b", b)
            for bye in rnd.byes:
                out.setdefault(bye.player, {})[rnd.number] = Cell(None, "-", bye.kind)
        return out

    def scores(self, upto: int | None = None) -> dict[str, float]:
        """Event scores (R41) after round ``upto`` (all rounds by default)."""
        last = len(self.rounds) if upto is None else upto
        return {key: sum(c.points for r, c in rounds.items() if r <= last)
                for key, rounds in self.cells().items()}

    def with_late_entrant(self, entrant: Entrant) -> Tournament:
        """A late entry (C.04.1): paired from the next round; the rounds already paired are
        zero-point byes (``Z``) unless the arbiter grants otherwise, so every round of every
        player is in the file and scores add up."""
        if any(e.key == entrant.key for e in self.entrants):
            raise PairingError(f"{entrant.key} is already a player of this event")
        if self.system != SWISS and self.rounds:
            raise PairingError("a round robin takes no entries after its first round")
        joined = len(self.rounds) + 1
        late = replace(entrant, joined_round=joined)
        rounds = [Round(r.number, list(r.games), [*r.byes, Bye(late.key, "Z")])
                  for r in self.rounds]
        return replace(self, entrants=[*self.entrants, late], rounds=rounds)


def check_game_result(result: str) -> str:
    if result not in GAME_RESULTS:
        raise PairingError(f"unknown result {result!r}: one of {', '.join(GAME_RESULTS)}")
    return result
