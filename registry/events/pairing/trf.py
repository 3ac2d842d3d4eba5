"""FIDE's Tournament Report File for an event (R43): export and import.

The player lines (``001``) are TRF's fixed columns, so FIDE-endorsed pairing checkers
(bbpPairings, JaVaFo) read them as they are: pairing number in columns 5-8, name 15-47,
rating 49-52, points 81-84, rank 86-89, and from column 92 one ten-character block per round
(opponent, colour ``w``/``b``/``-``, result code). Sides are colours (`I` is white, R43) and a
null game is a draw ``=``. TRF(x) extensions: ``XXR`` the number of rounds, ``XXC`` the initial
colour (``white1``/``black1``). Our own lines, which checkers skip: ``TLS`` the pairing system,
and ``TLP`` per player (pairing number, player id, round joined, last round before
withdrawal), so that an export read back is the same event.
"""

from __future__ import annotations

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


def export(t: Tournament, header: Header = Header(), ranks: dict[str, int] | None = None) -> str:
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
             f"TLS {t.system}"]
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


def _int(text: str, line: int, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise TRFError(line, f"{what} {text.strip()!r} is not a number") from None


def parse(text: str) -> Tournament:
    """Read a TRF written by us or by another program (players without a ``TLP`` line take
    ``TRF-<number>`` as their key). Every error names its line; nothing is half-read."""
    if not text.strip():
        raise TRFError(0, "the file is empty")
    players: dict[int, tuple[str, int, list[tuple[int, str, str]]]] = {}
    extra: dict[int, tuple[str, int, int | None]] = {}
    total_rounds, initial, system = 0, "white", SWISS
    for i, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r")
        prefix = line[:3]
        if prefix == "001":
            if len(line) < 84:
                raise TRFError(i, "a player line (001) is shorter than its 84 columns")
            n = _int(line[4:8], i, "pairing number")
            if n in players:
                raise TRFError(i, f"pairing number {n} appears twice")
            rating = _int(line[48:52], i, "rating") if line[48:52].strip() else 0
            games = []
            for r, start in enumerate(range(91, len(line), 10), start=1):
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
            players[n] = (line[14:47].strip(), rating, games)
        elif prefix == "XXR":
            total_rounds = _int(line[3:].strip(), i, "XXR rounds")
        elif prefix == "XXC":
            words = line[3:].split()
            initial = "black" if "black1" in words else "white"
        elif prefix == "TLS":
            system = line[3:].strip()
            if system not in SYSTEMS:
                raise TRFError(i, f"unknown pairing system {system!r}")
        elif prefix == "TLP":
            parts = line[3:].split()
            if len(parts) not in (3, 4):
                raise TRFError(i, "TLP needs a pairing number, a player id and a round")
            extra[_int(parts[0], i, "TLP pairing number")] = (
                parts[1], _int(parts[2], i, "TLP round"),
                _int(parts[3], i, "TLP withdrawal round") if len(parts) == 4 else None)
    if not players:
        raise TRFError(0, "no player lines (001)")
    for n in extra:
        if n not in players:
            raise TRFError(0, f"TLP names pairing number {n}, which has no 001 line")
    keys = {n: extra.get(n, (f"TRF-{n:04d}", 1, None))[0] for n in players}
    entrants = [Entrant(keys[n], name, rating, extra.get(n, ("", 1, None))[1],
                        extra.get(n, ("", 1, None))[2])
                for n, (name, rating, _) in sorted(players.items())]
    return Tournament(entrants, system, total_rounds, _rounds(players, keys), initial)


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
