"""The tafl games behind the site's game contract (``play.games.protocol.GameRules``): two
games, ``tafl`` (seven board sizes, option ``immunity``) and ``tablut`` (9x9), each with its
seats in playing order (T2: the attackers first in tafl, the defenders first in Tablut).

The wire (fixed; the board renderer is written against it):

- a move: ``{"move": "e4-e7"}`` (``K`` before the king's square accepted; the rules make the
  captures); a T8 removal: ``{"remove": "f7"}``, a second step of the same turn: while one
  is pending the turn goes on (``between_turns`` False) and the mover still acts;
- the game's events: ``move`` (``{"from", "to"}``) and ``remove`` (``{"square"}``), neither a
  match event kind;
- ``view``: the board in OTN letters, the seat to move, the legal moves, the pending removal,
  the last move, raichi/tuichi (T11), the OTN records, the run without capture and the result.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from play.games.match.match import KINDS as MATCH_KINDS
from play.games.match.match import Match
from play.games.protocol import (
    Actor,
    BadCommand,
    Command,
    Event,
    GameOptions,
    GameOver,
    GameRules,
    IllegalCommand,
    Result,
    SeatSpec,
    Variant,
)

from .board import KING, SIDE_NAMES
from .game import TaflGame
from .position import Rules, decode
from .records import VARIANTS, notation

MOVE, REMOVE = "move", "remove"  # the game's own event kinds
EVENT_KINDS = (MOVE, REMOVE)
assert not set(EVENT_KINDS) & set(MATCH_KINDS)
ATTACKERS_SEAT = SeatSpec("attackers", "attackers")
DEFENDERS_SEAT = SeatSpec("defenders", "defenders")
_STEP = re.compile(r"^K?([a-s]\d{1,2})-([a-s]\d{1,2})$")
REASON_WORDS = {
    "escape": "the king escaped",
    "king_captured": "the king was captured",
    "no_moves": "the other side had no move",
    "repetition": "the same position came three times",
    "no_capture": "100 moves without a capture",
}


def _variants(game: str, title: str) -> dict[str, Variant]:
    seats = (DEFENDERS_SEAT, ATTACKERS_SEAT) if game == "tablut" else \
        (ATTACKERS_SEAT, DEFENDERS_SEAT)
    options: dict[str, Any] = {"immunity": False} if game == "tafl" else {}
    return {name: Variant(game, name, f"{title} {name}", seats, options, ("draw",))
            for name in VARIANTS[game]}


def check_options(game: str, extra: Mapping[str, Any]) -> bool:
    """The ``immunity`` option of a game's settings (T1, T6): a bool, tafl only; ``ValueError``
    in words for anything else."""
    for key in extra:
        if key != "immunity" or game != "tafl":
            raise ValueError(f"{game} has no option {key!r}"
                             + (" (its one option is immunity)" if game == "tafl" else ""))
    value = extra.get("immunity", False)
    if not isinstance(value, bool):
        raise ValueError(f"immunity is on (true) or off (false), not {value!r}")
    return value


class TaflState:
    """The engine of one game on the site: the game and whether the match ended it off the
    board (resignation, flag, agreement: no seat acts any more)."""

    def __init__(self, game: TaflGame) -> None:
        self.game = game
        self.over = False


class TaflRules:
    """``GameRules`` of generic tafl (``key="tafl"``) or Tablut (``key="tablut"``)."""

    commands: Mapping[str, Callable[[dict[str, Any]], Command]] = {}
    arbiter_commands: tuple[str, ...] = ()
    event_kinds = EVENT_KINDS

    def __init__(self, key: str = "tafl") -> None:
        self.key = key
        self.title = "Tablut" if key == "tablut" else "Tafl"
        self.variants: Mapping[str, Variant] = _variants(key, self.title)

    def new_engine(self, variant: Variant, options: GameOptions) -> TaflState:
        immunity = check_options(self.key, options.extra)
        n = int(variant.name.split("x")[0])
        return TaflState(TaflGame(Rules(self.key, n, immunity)))

    def to_act(self, e: TaflState) -> tuple[str, ...]:
        side = e.game.to_move
        return () if e.over or side is None else (SIDE_NAMES[side],)

    # --- deciding -----------------------------------------------------------------------------
    def decide_move(self, e: TaflState, seat: str, move: Any) -> list[Event]:
        g = e.game
        pos = g.pos
        if g.result is not None or e.over:
            raise GameOver("the game is over")
        if not isinstance(move, dict) or len(move) != 1 or not (
                isinstance(move.get(MOVE), str) or isinstance(move.get(REMOVE), str)):
            raise BadCommand('a tafl step is {"move": "e4-e7"} or, to remove a piece of an '
                             'enclosed group, {"remove": "f7"}')
        geo = pos.geo
        if MOVE in move:
            text = move[MOVE].strip()
            m = _STEP.match(text)
            if m is None:
                raise BadCommand(f"{text!r} is not a move: write the squares from and to, "
                                 "like e4-e7 (the captures follow by the rules)")
            try:
                frm, to = geo.square(m.group(1)), geo.square(m.group(2))
            except ValueError as err:
                raise BadCommand(f"{text}: {err}") from None
            why = pos.why_illegal(frm, to)
            if why is not None:
                raise IllegalCommand(str(why))
            if text.startswith("K") and pos.board[frm] != KING:
                raise IllegalCommand(f"{text}: K is written before the king's square, and the "
                                     f"piece on {geo.name(frm)} is a soldier (T15)")
            record = ("K" if pos.board[frm] == KING else "") + \
                f"{geo.name(frm)}-{geo.name(to)}"
            return [Event(MOVE, seat, {"from": geo.name(frm), "to": geo.name(to)}, record)]
        try:
            sq = geo.square(move[REMOVE].strip())
        except ValueError as err:
            raise BadCommand(str(err)) from None
        refusal = pos.why_not_removal(sq)
        if refusal is not None:
            raise IllegalCommand(str(refusal))
        return [Event(REMOVE, seat, {"square": geo.name(sq)}, f"x{geo.name(sq)}")]

    def decide_command(self, e: TaflState, actor: Actor, command: Command) -> list[Event]:
        raise BadCommand(f"{self.title} has no command {command.TYPE!r}")

    def evolve(self, e: TaflState, event: Event) -> None:
        """Fold a move or a removal (the rules' ``TaflError`` for one this state cannot take,
        nothing changed)."""
        g, data = e.game, event.data
        if event.kind == MOVE:
            g.move(g.geo.square(data["from"]), g.geo.square(data["to"]))
        elif event.kind == REMOVE:
            g.remove(g.geo.square(data["square"]))
        else:
            raise ValueError(f"{self.key} has no event {event.kind!r}")

    def on_match(self, e: TaflState, event: Event, result: Result | None) -> None:
        """A decision off the board ends the game here too: no seat is asked to move, and
        the notation carries the result."""
        if result is None:
            return
        e.over = True
        if result.ranks and e.game.decided is None and e.game.pos.result is None:
            w = result.winner
            e.game.decided = (SIDE_NAMES.index(w) if w in SIDE_NAMES else None,
                              result.cause or result.reason)

    def follow_up(self, e: TaflState, options: GameOptions) -> list[Event]:
        return []

    # --- reading ------------------------------------------------------------------------------
    def turns(self, e: TaflState) -> int:
        return len(e.game.pos.history)

    def between_turns(self, e: TaflState) -> bool:
        return not e.game.pos.pending

    def result(self, e: TaflState) -> Result | None:
        r = e.game.pos.result
        if r is None:
            return None
        winner, reason = r
        words = REASON_WORDS.get(reason, reason)
        if winner is None:
            return Result.by_order([list(SIDE_NAMES)], reason, words)
        return Result.won(SIDE_NAMES[winner], SIDE_NAMES, reason, words)

    def view(self, e: TaflState, seat: str | None) -> dict[str, Any]:
        g = e.game
        pos, geo = g.pos, g.geo
        name = geo.name
        legal: dict[str, list[str]] = {}
        if not e.over:
            for move in pos.legal_moves():
                frm, to = decode(move)
                legal.setdefault(name(frm), []).append(name(to))
        remove = None
        if pos.pending and not e.over:
            remove = {"choices": [name(s) for s in pos.removal_choices()],
                      "groups": [[name(s) for s in grp] for grp in pos.groups]}
        last = g.last_move()
        raichi = g.raichi()
        result = None
        if g.result is not None:
            result = {"winner": g.side_name(g.result[0]), "reason": g.result[1]}
        to_act = self.to_act(e)
        return {
            "game": self.key, "variant": g.rules.variant, "size": geo.n,
            "immunity": g.rules.immunity,
            "pieces": g.pieces(),
            "to_move": to_act[0] if to_act else None,
            "centre": name(geo.centre),
            "throne": name(geo.throne) if pos.tablut else None,
            "camps": [name(sq) for sq, c in enumerate(geo.camp) if c],
            "legal": legal, "remove": remove, "last": last,
            "raichi": raichi, "tuichi": len(raichi) >= 2,
            "moves": list(g.records), "no_capture": pos.no_capture,
            "result": result,
        }

    def notation(self, e: TaflState) -> str:
        return notation(e.game)

    def last_turn(self, e: TaflState) -> tuple[str, str]:
        records = e.game.records
        return (str(len(records)), records[-1]) if records else ("", "")

    def mark(self, e: TaflState) -> dict[str, Any]:
        return {"position": e.game.pos.text()}

    def describe(self, result: Result) -> str:
        words = REASON_WORDS.get(result.reason, result.detail or result.reason)
        if result.winner:
            return f"The {result.winner} won: {words}"
        if result.ranks:
            return f"Drawn: {words}"
        return f"No result ({result.reason})"


#: mypy checks here that the tafl games satisfy the contract (tests/test_types.py).
_: GameRules[TaflState] = TaflRules("tafl")

TAFL = Match(TaflRules("tafl"))
TABLUT = Match(TaflRules("tablut"))
