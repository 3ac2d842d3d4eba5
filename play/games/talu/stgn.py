"""Reading and writing whole games in STGN (R15).

The reader replays every step through ``TaluGame`` — the same validated path the live server uses —
so a file is accepted exactly when each of its steps would have been accepted over the board.
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Any

from .decisions import ArbiterDecision
from .errors import (
    IllegalStepError,
    NotationError,
    NotationRuleError,
    NotationSyntaxError,
    SquareError,
)
from .game import TaluGame
from .notation import BodySyntaxError, parse_body
from .outcome import Side
from .steps import CAPTURE, END, EXIT, MOVE, PASS, STAY
from .variants import Variant

_TURN = re.compile(r"^(\d+)\s+([IiOo0])\s*:(.*)$")
_RESULT = re.compile(r"^!\s*:\s*(\S*)\s*$")


def read_stgn(
    text: str,
    variant: str | Variant = "standard",
    arbiter: list[ArbiterDecision | dict[str, Any]] | None = None,
    open_last: bool = False,
) -> TaluGame:
    """Replay STGN text into a TaluGame; raise NotationError naming the first bad line.

    ``arbiter`` holds recorded arbiter decisions (R34) so a replay reaches the same result.
    With ``open_last`` the last turn line is left open (a turn in progress, as the server
    persists it) unless its steps ran out.
    """
    game = TaluGame(variant)
    if arbiter:
        game.schedule(arbiter)
    lines = text.splitlines()
    last_turn_line = max(
        (n for n, raw in enumerate(lines, 1) if _TURN.match(raw.strip())), default=0)
    result_line = 0
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if result_line:
            raise NotationSyntaxError(n, f"nothing may follow the result line (line {result_line})")
        if line.startswith("!"):
            _read_result(game, n, line)
            result_line = n
            continue
        _read_turn(game, n, line, keep_open=open_last and n == last_turn_line)
    return game


def _read_result(game: TaluGame, n: int, line: str) -> None:
    m = _RESULT.match(line)
    if not m or m.group(1) not in ("I", "O", "0", "-", "i", "o"):
        raise NotationSyntaxError(n, f"{line!r} is not a result line ('!: I', '!: O' or '!: -')")
    sym = m.group(1).upper()
    winner = None if sym == "-" else Side.parse(sym)
    if game.turn.used:
        raise NotationRuleError(n, "the result line follows a turn that is still open")
    if game.outcome is None:
        game.decide(winner, "decision")  # R15: decided off the board
        return
    if game.outcome.winner != winner:
        given = "no winner" if winner is None else f"{winner.value} as winner"
        actual = game.outcome.winner.value + " won" if game.outcome.winner else "no winner"
        raise NotationRuleError(
            n, f"the result line claims {given}, but the rules decided the game: {actual} by "
               f"{game.outcome.reason.value}")


def _read_turn(game: TaluGame, n: int, line: str, keep_open: bool = False) -> None:
    m = _TURN.match(line)
    if not m:
        raise NotationSyntaxError(n, f"{line!r} is not a turn line like '001 I: A2-A3'")
    round_text, side_text, body = m.groups()
    if len(round_text) < 3:
        raise NotationSyntaxError(n, f"round {round_text!r} must be written with at least three "
                                     f"digits ({int(round_text):03d})")
    side = Side.parse(side_text)
    body = body.strip()
    marked = False
    if body.endswith("!"):
        marked = True
        body = body[:-1].rstrip()
    label = f"{int(round_text):03d} {side.value}"
    if game.outcome:
        last = game.turns[-1].label if game.turns else "the start"
        raise NotationRuleError(
            n, f"turn {label} comes after the game was decided at {last} "
               f"({game._outcome_text()})")
    expected = f"{game.round:03d} {game.side_to_move.value}"  # type: ignore[union-attr]
    if label != expected:
        raise NotationRuleError(n, f"expected turn {expected}, found {label}")
    try:
        actions = parse_body(body)
    except BodySyntaxError as e:
        raise NotationSyntaxError(n, str(e)) from None
    turns_before = len(game.turns)
    try:
        if actions is None:
            game._play(PASS, -1, -1)
        else:
            _replay_actions(game, actions, turns_before)
            if len(game.turns) == turns_before and not keep_open:
                game._play(END, -1, -1)
    except SquareError as e:
        raise NotationSyntaxError(n, str(e)) from None
    except IllegalStepError as e:
        raise NotationRuleError(n, str(e)) from None
    if marked and game.outcome is None:
        raise NotationRuleError(n, "' !' marks the end of the game, but the rules have not "
                                   "decided it after this turn")


def _replay_actions(game: TaluGame, actions: list[tuple[str, ...]], turns_before: int) -> None:
    sq = game.geometry.square
    steps_per_turn = game.variant.steps

    def step(kind: str, a: int, b: int) -> None:
        if len(game.turns) != turns_before:
            raise IllegalStepError(f"a turn has only {steps_per_turn} steps: the turn is over "
                                   "before this action")
        game._play(kind, a, b)

    for i, act in enumerate(actions):
        if act[0] == MOVE:
            path = [sq(s) for s in act[1:]]
            for a, b in pairwise(path):
                step(MOVE, a, b)
        else:
            a, t = sq(act[1]), sq(act[2])
            path = [sq(s) for s in act[3:]]
            try:
                step(CAPTURE, a, t)
            except IllegalStepError:
                if path:
                    _explain_written_exit(game, a, t, path[0])
                raise
            if path:
                step(EXIT, t, path[0])
                for x, y in pairwise(path):
                    step(MOVE, x, y)
            elif not (i + 1 < len(actions) and actions[i + 1][0] == CAPTURE):
                step(STAY, -1, -1)  # R15: no exit and no capture next: an honor capture (R8)


def _explain_written_exit(game: TaluGame, a: int, t: int, x: int) -> None:
    """A capture refused for want of an exit: name the problem of the exit the line wrote."""
    g, turn = game.geometry, game.turn
    if not (turn.op >> t) & 1 or not (g.overlap(turn.me) >> t) & 1:
        return
    if x == a:
        raise IllegalStepError(
            f"the exit of {g.name(a)}x{g.name(t)}-{g.name(x)} may not return to {g.name(x)}, "
            "the square the capturer came from")
    if ((turn.me | turn.op) >> x) & 1:
        raise IllegalStepError(f"{g.name(x)} is occupied: the exit needs a free square")


def write_stgn(game: TaluGame) -> str:
    """Canonical STGN of a game as a file of its own (R15), which ``read_stgn`` replays to the
    same result without the game's records.

    The text ``TaluGame.stgn`` gives, except when the result rests on arbiter decisions (R34):
    a warning (automatic or an arbiter's) that made turns count as passes, a turn counted as a
    pass, a forfeit or null by the arbiter. STGN cannot carry those, so a reader would find the
    ' !' of the deciding turn undecided by the rules (the bug of issue 26: the site's own STGN
    of games ended after the automatic warnings was refused by ``talu replay``). Such a game is
    written as decided off the board: its last turn without ' !', then the result line alone
    (R15: reason ``decision``); the session entries, which carry the decisions, replay to the
    exact reason."""
    text = game.stgn()
    if game.outcome is None or not game.arbiter:
        return text
    try:
        plain = read_stgn(text, game.variant)
    except NotationError:
        plain = None
    if plain is not None and plain.outcome is not None and (
            plain.outcome.winner, plain.outcome.reason) == (game.outcome.winner,
                                                            game.outcome.reason):
        return text  # the rules alone decide it so: the canonical text stands
    lines = [line[:-2] if line.endswith(" !") and not line.startswith("!") else line
             for line in game.stgn_lines()]
    return "\n".join(lines) + "\n"
