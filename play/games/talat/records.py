"""A10 game records: header tags (``[Game "talat"]``, ``[Variant "three"|"two"]``,
``[Seat1 "name"]``, ``[Result "1:28 2:13 3:13"]``, ``[Ranks "1 2 2"]``) and one line a turn,
``N. SEAT ACTION``; written for the site's notation and downloads, read back turn by turn
(checked) by ``talu replay --game talat``.

One tag beyond A10: ``[Left "3:14 1:20"]``, each seat that left (resigned, lost on time, A8)
with the count of turns before it left, so that a game played on after a seat left replays
(its turns skip that seat). Errors name the turn: "turn 12 (2 12:b2-c3): 12 is frozen:
nobody moves on it (A7)"; a fault of the header is turn 0.
"""

from __future__ import annotations

import re

from .errors import RecordError, TalatError
from .game import TalatGame

_TAG = re.compile(r'\[([A-Za-z][\w-]*)\s+"([^"]*)"\]')
_TURN = re.compile(r"^(\d+)\.\s+(\S+)(?:\s+(.*))?$")
_SEAT = re.compile(r"^([123])(>Z)?$")


def _valid_ranks(ranks: list[int]) -> bool:
    """Competition ranks 1..N with ties (1, 1, 3), as ``protocol.Result`` takes them."""
    values = sorted(ranks)
    return bool(values) and all(
        r == 1 if not i else (r == values[i - 1] or r == i + 1) for i, r in enumerate(values))


def header(game: TalatGame, names: dict[str, str] | None = None,
           extra: dict[str, str] | None = None) -> list[str]:
    """The header's tag lines: game, variant, names, leavers, and once the game is over its
    points and ranks."""
    tags = [("Game", "talat"), ("Variant", game.variant)]
    for seat in game.players:
        if names and names.get(seat):
            tags.append((f"Seat{seat}", names[seat].replace('"', "'")))
    for key, value in (extra or {}).items():
        tags.append((key, value.replace('"', "'")))
    if game.left_at:
        tags.append(("Left", " ".join(f"{s}:{n}" for s, n in game.left_at)))
    ranks = game.ranks()
    if ranks:  # a null or aborted game has no ranks: nothing to say
        scores = game.scores()
        tags.append(("Result", " ".join(f"{s}:{scores[s]}" for s in game.players)))
        tags.append(("Ranks", " ".join(str(ranks[s]) for s in game.players)))
    return [f'[{k} "{v}"]' for k, v in tags]


def turn_lines(game: TalatGame) -> list[str]:
    return [f"{i}. {line}" for i, line in enumerate(game.lines, 1)]


def write_record(game: TalatGame, names: dict[str, str] | None = None,
                 extra: dict[str, str] | None = None) -> str:
    """The whole A10 record (``names``: seat -> player; ``extra``: more tags, e.g. Date)."""
    return "\n".join([*header(game, names, extra), "", *turn_lines(game)]) + "\n"


def _pairs(text: str, what: str) -> list[tuple[str, int]]:
    out = []
    for item in text.split():
        seat, _, n = item.partition(":")
        if not n.isdigit():
            raise RecordError(0, f'[{what} "{text}"]: write each seat as SEAT:NUMBER, like 1:28')
        out.append((seat, int(n)))
    return out


def read_record(text: str) -> TalatGame:
    """Replay an A10 record into a ``TalatGame``: every turn checked, the header's
    ``[Result]``/``[Ranks]`` checked against the rules' end or taken as a decision (A10);
    ``RecordError`` with the first bad turn (0: the header) and its words."""
    tags: dict[str, str] = {}
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if line.startswith("["):
            found = _TAG.findall(line)
            if not found or _TAG.sub("", line).strip():
                raise RecordError(0, f"{line!r} is not a tag: write [Name \"value\"] (A10)")
            tags.update((k, v) for k, v in found)
        elif line:
            break
        i += 1
    if tags.get("Game", "talat") != "talat":
        raise RecordError(0, f"the record is a game of {tags['Game']!r}, not talat")
    variant = tags.get("Variant", "three")
    if variant not in ("three", "two"):
        raise RecordError(0, f"unknown variant {variant!r}: Talat is three or two (A10)")
    game = TalatGame(variant)
    players = game.players
    leaves = _pairs(tags.get("Left", ""), "Left")
    for seat, _ in leaves:
        if seat not in players:
            raise RecordError(0, f"[Left]: {seat!r} is not a seat of the {variant}-seat game")
    number = 0
    for raw in lines[i:]:
        line = raw.strip()
        if not line:
            continue
        number += 1
        _leave(game, leaves, number - 1)
        if line.startswith("["):
            raise RecordError(number, f"a tag ({line}) after the turns: tags come first (A10)")
        m = _TURN.match(line)
        if m is None:
            raise RecordError(number, f"turn {number}: {line!r} is not a turn: write "
                              f"'{number}. SEAT ACTION' (A10)")
        where = f"turn {number} ({m.group(2)} {m.group(3) or ''}".rstrip() + ")"
        if int(m.group(1)) != number:
            raise RecordError(number, f"{where}: numbered {m.group(1)} where turn {number} was "
                              "due: turns are numbered 1, 2, ... (A10)")
        s = _SEAT.match(m.group(2))
        if s is None or s.group(1) not in players or (s.group(2) and variant != "two"):
            seats = ", ".join(players) + (" (1>Z, 2>Z for Zihin)" if variant == "two" else "")
            raise RecordError(number, f"{where}: {m.group(2)!r} is not a seat: the seats are "
                              f"{seats} (A10)")
        action = m.group(3) or ""
        if s.group(2) and action.strip() == "pass":
            raise RecordError(number, f"{where}: a pass is written with the plain seat (A10)")
        try:
            game.act(s.group(1), action, bool(s.group(2)) if variant == "two" else None)
        except TalatError as err:
            words = getattr(err, "words", str(err))
            raise RecordError(number, f"{where}: {words}") from None
    _leave(game, leaves, number)
    for seat, at in leaves:
        if at > number:
            raise RecordError(0, f'[Left "{seat}:{at}"]: the record has {number} turns')
    _result(game, tags)
    return game


def _leave(game: TalatGame, leaves: list[tuple[str, int]], turns: int) -> None:
    for seat, at in leaves:
        if at == turns:
            game.leave(seat)


def _result(game: TalatGame, tags: dict[str, str]) -> None:
    players = game.players
    if "Result" in tags:
        given = dict(_pairs(tags["Result"], "Result"))
        scores = game.scores()
        if set(given) != set(players):
            raise RecordError(0, f'[Result "{tags["Result"]}"] must give the points of seats '
                              f"{', '.join(players)} (A10)")
        for seat in players:
            if given[seat] != scores[seat]:
                raise RecordError(0, f"[Result] gives seat {seat} {given[seat]} points, and its "
                                  f"turns give it {scores[seat]} (A6)")
    if "Ranks" in tags:
        try:
            ranks = [int(r) for r in tags["Ranks"].split()]
        except ValueError:
            ranks = []
        if len(ranks) != len(players) or not _valid_ranks(ranks):
            raise RecordError(0, f'[Ranks "{tags["Ranks"]}"]: give each seat\'s place in seat '
                              "order, 1 first, tied seats sharing one (1 1 3) (A8, A10)")
        said = dict(zip(players, ranks, strict=True))
        real = game.ranks()
        if real is not None and real != said:
            raise RecordError(0, f'[Ranks "{tags["Ranks"]}"]: the game ended ({game.reason}) '
                              f"with ranks {' '.join(str(real[s]) for s in players)} (A8)")
        if real is None:
            game.decided = said
    elif "Result" in tags and not game.finished:
        ranks_now = game.pos.ranks()
        game.decided = {game.pos.seats[s]: r for s, r in sorted(ranks_now.items())}
