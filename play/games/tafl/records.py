"""OTN game records (T13, T15): tags, the ``[rules:]`` string, numbered turns; written for the
site's notation and downloads, read (and replayed move by move) by ``talu replay --game``.

Reading checks the header first: an unknown variant or option, the other game's variant,
``immunity`` in Tablut, a ``[rules:]`` string whose ``dim``, ``atkf``, ``esc`` or ``start``
disagree with the variant are errors at move 0; so is a ``[result:]`` that contradicts the
result the rules decided, found once the moves are replayed. ``[result:?]`` leaves the game as
its moves leave it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .board import ATTACKERS, DEFENDERS, SIDE_NAMES, write_position
from .board import opening as opening_board
from .errors import RecordError, TaflError
from .game import TaflGame
from .otn import RESIGN
from .position import Rules

_TAG = re.compile(r"^\[([A-Za-z][\w-]*):(.*)\]$")
_TURN = re.compile(r"^(\d+)\.(?:\s+(.*))?$")
GAMES = ("tafl", "tablut")
#: The variants of each game (T1).
VARIANTS = {"tafl": ("7x7", "9x9", "11x11", "13x13", "15x15", "17x17", "19x19"),
            "tablut": ("9x9",)}
DEFAULT_VARIANT = {"tafl": "11x11", "tablut": "9x9"}
OPTIONS = {"tafl": ("immunity",), "tablut": ()}
#: [result:] values (T13): the winner side, None for a draw.
RESULT_TAGS = {"1": ATTACKERS, "-1": DEFENDERS, "0": None}


def rules_string(rules: Rules) -> str:
    """The OTN rules string (T13): what OTN can say of the game."""
    start = write_position(opening_board(rules.n), rules.n)
    atkf = "n" if rules.tablut else "y"
    return f"dim:{rules.n} atkf:{atkf} esc:e ka:y tfr:d start:{start}"


def result_tag(winner: int | None) -> str:
    return "0" if winner is None else "1" if winner == ATTACKERS else "-1"


def turn_lines(records: list[str]) -> list[str]:
    """The numbered turns (T13): two moves a line, the first mover's first."""
    return [f"{i // 2 + 1}. {' '.join(records[i:i + 2])}" for i in range(0, len(records), 2)]


#: write_record's ``result`` words -> the [result:] tag (T13).
RESULT_WORDS = {"attackers": "1", "defenders": "-1", "draw": "0", "?": "?"}


def write_record(game: TaflGame, attackers: str = "", defenders: str = "", date: str = "",
                 site: str = "", time_control: str = "", termination: str = "",
                 result: str = "") -> str:
    """A full T13 game record, for the site's downloads: the players' names, ``date`` as
    YYYY.MM.DD, the site, the time control, ``result`` the winner ("attackers",
    "defenders"), "draw" or "?" ("": the game's own result, else "?") and the
    ``termination`` in words."""
    rules = game.rules
    lines = [f"[variant:{rules.game} {rules.variant}]"]
    if rules.immunity:
        lines.append("[options:immunity]")
    for tag, value in (("attackers", attackers), ("defenders", defenders), ("date", date),
                       ("site", site), ("time-control", time_control)):
        if value:
            lines.append(f"[{tag}:{value}]")
    if not result:
        tag = "?" if game.result is None else result_tag(game.result[0])
    elif result in RESULT_WORDS:
        tag = RESULT_WORDS[result]
    else:
        raise ValueError(f"a result is attackers, defenders, draw or ?, not {result!r}")
    lines.append(f"[result:{tag}]")
    if termination:
        lines.append(f"[termination:{termination}]")
    lines.append(f"[rules:{rules_string(rules)}]")
    records = list(game.records)
    if game.resigned is not None:
        records.append(RESIGN)
    return "\n".join([*lines, "", *turn_lines(records)]) + "\n"


def notation(game: TaflGame) -> str:
    """The game's record as the site keeps it while it is played (T13): the tags the rules
    know, and the result once there is one."""
    rules = game.rules
    tags = [f"[variant:{rules.game} {rules.variant}]"]
    if rules.immunity:
        tags.append("[options:immunity]")
    if game.result is not None:
        tags.append(f"[result:{result_tag(game.result[0])}]")
        tags.append(f"[termination:{game.result[1]}]")
    tags.append(f"[rules:{rules_string(rules)}]")
    return "\n".join([*tags, "", *turn_lines(game.records)]) + "\n"


def _header(tags: dict[str, str], game: str | None, variant: str | None,
            options: Iterable[str]) -> Rules:
    """The rules a record's header names (T13, T15), its faults as ``RecordError`` at 0."""
    def fault(text: str) -> RecordError:
        return RecordError(0, text)

    tag = tags.get("variant")
    if tag is not None:
        parts = tag.split()
        if len(parts) != 2 or parts[0] not in GAMES:
            raise fault(f"unknown variant {tag!r}: the tafl games are 'tafl NxN' and "
                        "'tablut 9x9' (T1)")
        if game is not None and parts[0] != game:
            raise fault(f"the record is a {parts[0]} game, not {game} (its variant is {tag!r})")
        game, variant = parts
    game = game or "tafl"
    variant = variant or DEFAULT_VARIANT[game]
    if variant not in VARIANTS[game]:
        raise fault(f"unknown variant {variant!r} of {game}: {', '.join(VARIANTS[game])} (T1)")
    opts = [o for o in re.split(r"[\s,]+", tags["options"].strip()) if o] \
        if "options" in tags else list(options)
    for o in opts:
        if o not in OPTIONS[game]:
            raise fault(f"unknown option {o!r} of {game}" + (
                ": tablut has no options (T1)" if game == "tablut" else
                ": the one option is immunity (T1)"))
    n = int(variant.split("x")[0])
    rules = Rules(game, n, "immunity" in opts)
    if "rules" in tags:
        given = dict(tok.split(":", 1) for tok in tags["rules"].split() if ":" in tok)
        want = dict(tok.split(":", 1) for tok in rules_string(rules).split())
        for key in ("dim", "atkf", "esc", "start"):
            if key in given and given[key] != want[key]:
                raise fault(f"the [rules:] string says {key}:{given[key]}, and {game} "
                            f"{variant} is {key}:{want[key]} (T13)")
    return rules


def read_record(text: str, game: str | None = None, variant: str | None = None,
                options: Iterable[str] = ()) -> TaflGame:
    """Replay an OTN game record (T13) into a ``TaflGame``; ``RecordError`` with the number
    of the first bad move (0: the header) and its words. ``game``/``variant``/``options`` say
    what the tags leave out (the command line's ``--game``, ``--variant``, ``--option``)."""
    tags: dict[str, str] = {}
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        m = _TAG.match(line)
        if m:
            tags[m.group(1).lower()] = m.group(2).strip()
        elif line:
            break
        i += 1
    result = tags.get("result", "?").strip()
    if result not in ("?", *RESULT_TAGS):
        raise RecordError(0, f"[result:{result}] is not a result: 1 (attackers win), -1 "
                          "(defenders win), 0 (a draw) or ? (T13)")
    try:
        rules = _header(tags, game, variant, options)
    except ValueError as err:
        if isinstance(err, RecordError):
            raise
        raise RecordError(0, str(err)) from None
    g = TaflGame(rules)
    number, expected, short = 0, 1, False
    for line in lines[i:]:
        line = line.strip()
        if not line:
            continue
        if _TAG.match(line):
            raise RecordError(number + 1, f"a tag ({line}) after the moves: tags come first "
                              "(T13)")
        m = _TURN.match(line)
        if m is None:
            raise RecordError(number + 1, f"{line!r} is not a turn: write '{expected}. MOVE "
                              "MOVE' (T13)")
        if int(m.group(1)) != expected:
            raise RecordError(number + 1, f"turn {m.group(1)} where turn {expected} was due: "
                              "turns are numbered 1, 2, ... (T15)")
        tokens = (m.group(2) or "").split()
        if short:
            raise RecordError(number + 1, f"turn {expected - 1} holds one move, and only the "
                              "last turn may (T15)")
        if not tokens or len(tokens) > 2:
            raise RecordError(number + 1, f"turn {expected} holds {len(tokens)} moves: a turn "
                              "holds two, the last one may hold one (T15)")
        short = len(tokens) == 1
        expected += 1
        for token in tokens:
            if g.resigned is not None:
                raise RecordError(number + 1, f"{token}: the game is over (a side resigned)")
            if token != RESIGN:
                number += 1
            try:
                g.play_record(token)
            except TaflError as err:
                raise RecordError(number if token != RESIGN else number + 1, str(err)) \
                    from None
    if result != "?":
        winner = RESULT_TAGS[result]
        if g.result is not None and g.result[0] != winner:
            said = "a draw" if winner is None else f"a win of the {SIDE_NAMES[winner]}"
            real = ("a draw" if g.result[0] is None
                    else f"a win of the {SIDE_NAMES[g.result[0]]}")
            raise RecordError(0, f"[result:{result}] says {said}, and the game ended in "
                              f"{real} ({g.result[1]}) (T15)")
        if g.result is None:
            g.decided = (winner, tags.get("termination") or "decision")
    return g
