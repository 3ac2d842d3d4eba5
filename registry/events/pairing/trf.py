"""FIDE's Tournament Report File for an event (R43): export and import.

The player lines (``001``) are TRF's fixed columns, so FIDE-endorsed pairing checkers
(bbpPairings, JaVaFo) read them as they are: pairing number in columns 5-8, name 15-47,
rating 49-52, points 81-84, rank 86-89, and from column 92 one ten-character block per round
(opponent, colour ``w``/``b``/``-``, result code). Sides are colours (`I` is white, R43) and a
null game is a draw ``=``. TRF(x) extensions: ``XXR`` the number of rounds, ``XXC`` the initial
colour (``white1``/``black1``). Our own lines, which checkers skip: ``TLS`` the pairing system,
and ``TLP`` per player (pairing number, player id, round joined, last round before
withdrawal), so that an export read back is the same event. Comment lines (``###``) carry
an arbiter's changes by hand to a round and their reasons (issue 38); a reader skips them.

An imported file is checked whole before anything is written (issue 41): every number in the
range its column and its row hold, every player id at most an entry's 40 characters and named
once, and the file, its players and its rounds within the caps below. Each refusal names its
line and what is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from registry.events.pairing.model import (
    BYE_KINDS,
    SIDE_CODES,
    SWISS,
    BoardPairing,
    Bye,
    Entrant,
    PairingError,
    Round,
    Tournament,
)

SYSTEMS = ("swiss", "round_robin", "double_round_robin", "hettlandic")
_GAME_OF_CODES = {codes: result for result, codes in SIDE_CODES.items()}

# The caps of an imported file (issue 41). The site runs club events (R41): Swisses (R43) and
# round robins (R42). The largest real Swiss events are opens of one or two thousand players
# over 9 to 13 rounds (FIDE's World Rapid and Blitz: 13 and 21 rounds; online weekly opens,
# about a thousand players over 11), and a round robin of 99 rounds is a double round robin of
# 50 players, past any real one. So a file holds at most MAX_PLAYERS players, rounds 1 to
# MAX_ROUNDS (the limit an event's settings have: ``registry/events/api.py``), and at most
# MAX_PLAYER_ROUNDS rounds of players in all (a player's game or bye in a round: two thousand
# players over 13 rounds), which is what an import's rows and the event page's standings cost;
# what a file at those caps costs, imported and shown, is in docs/events.md. MAX_CHARS bounds
# the text read at all: such a file's player lines (91 columns, then 10 a round) and TLP lines
# are under 600,000 characters, the rest is room for the header lines other programs write.
# MAX_PLAYERS caps the entries of an event built on the site too (``services``).
MAX_PLAYERS = 2000
MAX_ROUNDS = 99
MAX_PLAYER_ROUNDS = 26_000
MAX_CHARS = 1_000_000
MAX_KEY = 40  # an entry's player id (``Entry.key``)
_LINE_END = 91 + 10 * MAX_ROUNDS  # a player line's last column
_WHOLE = re.compile(r"[+-]?[0-9]{1,7}")


class TRFError(PairingError):
    """A TRF file that cannot be read: the line and what is wrong with it."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line


@dataclass(frozen=True)
class Header:
    name: str = ""
    place: str = ""
    start: str = ""
    end: str = ""
    arbiter: str = ""


def _points(value: float) -> str:
    return f"{value:4.1f}"


def export(t: Tournament, header: Header = Header(), ranks: dict[str, int] | None = None,
           comments: Sequence[str] = ()) -> str:
    """The file; ``comments``: comment lines (``###``, TRF-16's and TRF-2026's, which readers
    skip), written after the header: an arbiter's changes by hand to a round (issue 38)."""
    for comment in comments:
        if not comment.startswith("###") or "\n" in comment or "\r" in comment:
            raise PairingError(f"a TRF comment is one line starting ###, not {comment[:20]!r}")
    numbers = t.numbers()
    cells = t.cells()
    scores = t.scores()
    ranks = ranks or {}
    lines = [f"012 {header.name}".rstrip(), f"022 {header.place}".rstrip(),
             f"042 {header.start}".rstrip(), f"052 {header.end}".rstrip(),
             f"062 {len(t.entrants)}", f"072 {sum(1 for e in t.entrants if e.rating)}",
             f"102 {header.arbiter}".rstrip(),
             f"XXR {t.total_rounds or len(t.rounds)}",
             f"XXC {'white1' if t.initial_colour == 'white' else 'black1'}",
             f"TLS {t.system}", *comments]
    for e in sorted(t.entrants, key=lambda e: numbers[e.key]):
        n = numbers[e.key]
        line = (f"001 {n:4d}      {e.name[:33]:<33} {e.rating:4d}"[:52]).ljust(80)
        line += f"{_points(scores.get(e.key, 0.0))} {ranks.get(e.key, n):4d}"
        for rnd in t.rounds:
            cell = cells[e.key].get(rnd.number)
            if cell is None:
                line += " " * 10
            else:
                opp = numbers[cell.opponent] if cell.opponent else 0
                line += f"  {opp:04d} {cell.colour} {cell.code or ' '}"
        lines.append(line.rstrip())
    for e in sorted(t.entrants, key=lambda e: numbers[e.key]):
        withdrawn = "" if e.withdrawn_after is None else f" {e.withdrawn_after}"
        lines.append(f"TLP {numbers[e.key]:4d} {e.key} {e.joined_round}{withdrawn}")
    return "\n".join(lines) + "\n"


def _int(text: str, line: int, what: str, low: int = 0, high: int = 9999) -> int:
    """A whole number of a column or a field, from ``low`` to ``high`` (what its column can
    hold, or what the event's rows take); in words otherwise."""
    text = text.strip()
    if not _WHOLE.fullmatch(text):
        raise TRFError(line, f"{what} {text[:20]!r} is not a number")
    value = int(text)
    if not low <= value <= high:
        raise TRFError(line, f"{what} {value} is out of range: {low} to {high}")
    return value


def parse(text: str) -> Tournament:
    """Read a TRF written by us or by another program (players without a ``TLP`` line take
    ``TRF-<number>`` as their key). Every error names its line; nothing is half-read."""
    if len(text) > MAX_CHARS:
        raise TRFError(0, f"the file is too large: {len(text):,} characters, at most "
                          f"{MAX_CHARS:,} ({MAX_PLAYERS} players, {MAX_ROUNDS} rounds)")
    if not text.strip():
        raise TRFError(0, "the file is empty")
    players: dict[int, tuple[str, int, list[tuple[int, str, str]]]] = {}
    extra: dict[int, tuple[str, int, int | None]] = {}
    total_rounds, initial, system, cells = 0, "white", SWISS, 0
    for i, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r")
        prefix = line[:3]
        if prefix == "###":  # a comment (an arbiter's change by hand, issue 38): skipped
            continue
        if prefix == "001":
            if len(line) < 84:
                raise TRFError(i, "a player line (001) is shorter than its 84 columns")
            end = len(line.rstrip())
            if end > _LINE_END:
                raise TRFError(i, f"a player line (001) holds more than {MAX_ROUNDS} rounds")
            n = _int(line[4:8], i, "pairing number", 1)
            if n in players:
                raise TRFError(i, f"pairing number {n} appears twice")
            if len(players) == MAX_PLAYERS:
                raise TRFError(i, f"more than {MAX_PLAYERS} players")
            rating = _int(line[48:52], i, "rating") if line[48:52].strip() else 0
            games = []
            for r, start in enumerate(range(91, end, 10), start=1):
                block = line[start:start + 8].ljust(8)
                if not block.strip():
                    continue
                opp = _int(block[0:4], i, f"round {r} opponent")
                colour, code = block[5], block[7]
                if colour not in "wb-":
                    raise TRFError(i, f"round {r}: colour {colour!r} is not w, b or -")
                if code not in "10=+-UHFZ ":
                    raise TRFError(i, f"round {r}: result {code!r} is not a TRF result code")
                if (opp == 0) != (colour == "-") and code not in "+-":
                    raise TRFError(i, f"round {r}: an opponent needs a colour, a bye none")
                games.append((r, f"{opp}{colour}", code))
            cells += len(games)
            if cells > MAX_PLAYER_ROUNDS:
                raise TRFError(i, f"more than {MAX_PLAYER_ROUNDS:,} rounds of players in all "
                                  "(a player's game or bye in a round)")
            players[n] = (line[14:47].strip(), rating, games)
        elif prefix == "XXR":
            total_rounds = _int(line[3:], i, "XXR rounds", 1, MAX_ROUNDS)
        elif prefix == "XXC":
            words = line[3:].split()
            initial = "black" if "black1" in words else "white"
        elif prefix == "TLS":
            system = line[3:].strip()
            if system not in SYSTEMS:
                raise TRFError(i, f"unknown pairing system {system[:40]!r}")
        elif prefix == "TLP":
            n, found = _tlp(line, i)
            if n in extra:
                raise TRFError(i, f"TLP names pairing number {n} twice")
            extra[n] = found
    if not players:
        raise TRFError(0, "no player lines (001)")
    for n in extra:
        if n not in players:
            raise TRFError(0, f"TLP names pairing number {n}, which has no 001 line")
    keys = {n: extra.get(n, (f"TRF-{n:04d}", 1, None))[0] for n in players}
    seen: dict[str, int] = {}
    for n, key in sorted(keys.items()):
        if key in seen:
            raise TRFError(0, f"player id {key!r} is named twice (pairing numbers {seen[key]} "
                              f"and {n})")
        seen[key] = n
    entrants = [Entrant(keys[n], name, rating, extra.get(n, ("", 1, None))[1],
                        extra.get(n, ("", 1, None))[2])
                for n, (name, rating, _) in sorted(players.items())]
    rounds = _rounds(players, keys)
    if total_rounds and total_rounds < len(rounds):
        raise TRFError(0, f"XXR gives {total_rounds} rounds, but the player lines hold "
                          f"{len(rounds)}")
    return Tournament(entrants, system, total_rounds, rounds, initial)


def _tlp(line: str, i: int) -> tuple[int, tuple[str, int, int | None]]:
    """A ``TLP`` line: pairing number, player id (an entry's key, at most 40 characters),
    round joined and, after a withdrawal, the last round played."""
    parts = line[3:].split()
    if len(parts) not in (3, 4):
        raise TRFError(i, "TLP needs a pairing number, a player id and a round")
    n = _int(parts[0], i, "TLP pairing number", 1)
    if len(parts[1]) > MAX_KEY:
        raise TRFError(i, f"TLP player id {parts[1][:MAX_KEY]!r}... is longer than "
                          f"{MAX_KEY} characters")
    joined = _int(parts[2], i, "TLP round", 1, MAX_ROUNDS)
    withdrawn = _int(parts[3], i, "TLP withdrawal round", 1, MAX_ROUNDS) \
        if len(parts) == 4 else None
    return n, (parts[1], joined, withdrawn)


def _rounds(players, keys) -> list[Round]:
    by_round: dict[int, dict[int, tuple[int, str, str]]] = {}
    for n, (_, _, games) in players.items():
        for r, opp_colour, code in games:
            by_round.setdefault(r, {})[n] = (int(opp_colour[:-1]), opp_colour[-1], code)
    rounds = []
    for r in sorted(by_round):
        cells = by_round[r]
        games: list[BoardPairing] = []
        byes: list[Bye] = []
        for n, (opp, colour, code) in sorted(cells.items()):
            if opp == 0:
                if code not in BYE_KINDS:
                    raise TRFError(0, f"round {r}: player {n} has no opponent and result "
                                      f"{code!r}, not a bye (U, H, F, Z)")
                byes.append(Bye(keys[n], code))
                continue
            if opp == n:
                raise TRFError(0, f"round {r}: player {n} meets themselves")
            if opp not in cells or cells[opp][0] != n:
                raise TRFError(0, f"round {r}: player {n} meets {opp}, who does not meet {n}")
            if colour != "w":
                continue
            their = cells[opp][2]
            result = None if code == " " and their == " " else _GAME_OF_CODES.get((code, their))
            if result is None and not (code == " " and their == " "):
                raise TRFError(0, f"round {r}: results {code!r} and {their!r} of players "
                                  f"{n} and {opp} do not agree")
            games.append(BoardPairing(keys[n], keys[opp], result, board=len(games) + 1))
        rounds.append(Round(r, games, byes))
    if [r.number for r in rounds] != list(range(1, len(rounds) + 1)):
        raise TRFError(0, "the rounds are not numbered 1, 2, 3, ... without a gap")
    return rounds
