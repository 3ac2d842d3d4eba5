"""An arbiter's actions as commands (R39, R40): from the websocket, the REST API, the pages.

Whoever sends it and however, an arbiter's action is: the sender checked (an arbiter of this
game, or staff; never a player or a spectator: ``play.ports.Directory.may_arbitrate``), the
message read as a typed command (``warn``, ``count_as_pass``, ``forfeit``, ``null``,
``add_time``, ``adjourn``, ``resume``: R38, at once, where a player's is an offer), the one
command path (actor kind arbiter, named by the account, decided by the game's rules, stored,
then announced), and the audit trail's entry with the arbiter's name. ``annul`` is the
registry's (R30, ``registry.corrections``), after the game.
"""

from __future__ import annotations

from typing import Any

from play import games, ports
from play.commands.path import execute, store
from play.commands.submission import Outcome, Submission
from play.games import ARBITER_COMMANDS
from play.games.protocol import CommandError, arbiter
from play.models import Game
from play.store import engines

FORBIDDEN = ("only an arbiter of this game (appointed by its affiliated body) or site staff "
             "may act as arbiter; its players and spectators never can (R39)")


def _refuse(code: str, reason: str, version: int = 0, seq: Any = None) -> Outcome:
    return Outcome(ok=False, code=code, reason=reason, version=version, seq=seq)


def store_action(game_id: Any, user: Any, message: Any, *, announce: bool = False,
                 body: Any = None) -> Outcome:
    """An arbiter's ``message`` (``{"type": "warn", "side", "reason"}`` and the like) on game
    ``game_id`` by ``user``: checked, stored (and, with ``announce``, announced), audited.
    Never raises for anything a sender can send: a refusal is an ``Outcome`` with a code
    (``not_found``, ``forbidden``, ``bad_step``, ``illegal``, ``finished``) and words.
    ``body``: the affiliated body whose token sent it for its arbiter (the audit says so)."""
    seq = message.get("seq") if isinstance(message, dict) else None
    row = engines.row_of(game_id) or Game.objects.filter(uuid=game_id).first()
    if row is None:
        return _refuse("not_found", "there is no such game", 0, seq)
    if user is None or not getattr(user, "is_authenticated", False):
        return _refuse("forbidden", "log in as an arbiter of this game to act as arbiter",
                       row.version, seq)
    if not ports.directory().may_arbitrate(row, user):
        return _refuse("forbidden", FORBIDDEN, row.version, seq)
    if not isinstance(message, dict) or message.get("type") not in ARBITER_COMMANDS:
        kind = message.get("type") if isinstance(message, dict) else None
        return _refuse("bad_step", f"unknown arbiter action {kind!r}; expected one of "
                       f"{', '.join(ARBITER_COMMANDS)}", row.version, seq)
    try:
        command = games.parse_command(row.variant, message)
    except CommandError as err:
        return _refuse(err.code, str(err), row.version, seq)
    # No seq into the log: an arbiter has no side, and resends of an arbiter's action are
    # refused by the rules themselves (a side warned already, a finished game).
    sub = Submission(row.uuid, arbiter(user.get_username()), command)
    outcome = execute(sub) if announce else store(sub)
    outcome.seq = None if seq is None else str(seq)
    if outcome.ok and outcome.code == "applied":
        ports.directory().arbiter_acted(row, user, command.to_json(), outcome.version, body)
    return outcome


def act(game_id: Any, user: Any, message: Any, body: Any = None) -> Outcome:
    """``store_action``, announced to everyone on the game (views, the REST API, tests)."""
    return store_action(game_id, user, message, announce=True, body=body)


def may_arbitrate(game: Game, user: Any) -> bool:
    return ports.directory().may_arbitrate(game, user)
