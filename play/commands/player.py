"""A player's messages as commands: what each websocket message type asks of the game.

``step`` is one step; ``end`` and ``pass`` are steps that spend nothing (R9); ``resign`` gives
the game up; ``offer`` offers (or accepts) a null game or a draw, ``decline`` declines one;
``flag`` claims that the opponent's clock has run out (R37: checked on the server's clock,
refused ``too_early`` before the deadline). A step names the version it was
made against and carries the client's ``seq`` (docs/protocol.md); a resignation acts on the
game as it is.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from play.commands.path import execute, store
from play.commands.submission import Outcome, Submission
from play.games.protocol import (
    Adjourn,
    ClaimAbsence,
    Decline,
    Flag,
    Offer,
    PlayStep,
    Resign,
    Resume,
    player,
)
from play.live import presence
from play.models import Game
from play.store import engines

COMMAND_TYPES = ("step", "end", "pass", "resign", "flag", "claim", "adjourn", "resume",
                 "offer", "decline")


def submission(msg: dict[str, Any], game_id: str, side: str, lag: int = 0) -> Submission:
    """The command of a player's message (``type`` one of ``COMMAND_TYPES``); ``lag`` is the
    sender's network lag as the server measured it (ms), for the clock (R36)."""
    kind = msg["type"]
    if kind == "resign":
        command = Resign()
    elif kind == "flag":
        command = Flag()
    elif kind == "claim":
        command = claim_command(msg, game_id, side)
    elif kind in ("adjourn", "resume"):  # an offer, or the acceptance of the opponent's
        reason = msg.get("reason", "")
        reason = reason[:200] if isinstance(reason, str) else ""
        if kind == "adjourn":
            command = Adjourn(reason)
        else:  # a time is the arbiter's to set (R38): the game refuses a player's, whatever it is
            at = msg.get("at")
            command = Resume(reason, None if at is None else
                             at if isinstance(at, int) and not isinstance(at, bool) else 0)
    elif kind == "offer":  # a null game or a draw, or the acceptance of one (the match checks)
        what = msg.get("what")
        command = Offer(what if isinstance(what, str) else "?")
    elif kind == "decline":
        command = Decline()
    elif kind == "step":
        command = PlayStep(msg.get("step"), lag)
    else:  # "end" / "pass": steps that spend nothing
        command = PlayStep({"kind": kind}, lag)
    return Submission(game_id, player(side), command, msg.get("version"), msg.get("seq"))




def claim_command(msg: dict[str, Any], game_id: Any, side: str) -> ClaimAbsence:
    """A player's claim against an absent opponent (R37), with how long the opponent has
    been gone as the server's sockets saw it (reads the database: call it off the loop). In
    a game of more than two the message names the absent ``seat``."""
    result = msg.get("result", "win")
    named = msg.get("seat")
    named = named if isinstance(named, str) and len(named) <= 16 else ""
    game = Game.objects.filter(uuid=game_id).first()
    absent_for = None
    if game is not None:
        others = [s for s in game.played_seats() if s != side]
        gone = named or (others[0] if len(others) == 1 else "")
        since = presence.away_since(game, gone) if gone else None
        if since is not None:
            absent_for = max(0, int((timezone.now() - since).total_seconds() * 1000))
    return ClaimAbsence(result if isinstance(result, str) else "?", absent_for, seat=named)


def submit_as(game: Any, user: Any, action: str, *, step: Any = None, version: Any = None,
              seq: Any = None, announce: bool = True) -> Outcome:
    """A player's message sent outside a socket (the demo data, tests): the sender's side read
    from the game's row (the cached one when this process holds the game), then the one command
    path (``path.execute``: stored and announced; ``announce=False``: ``path.store``, stored
    only, as by a process whose broadcast was lost)."""
    row = engines.row_of(game) or Game.objects.filter(uuid=game).first()
    if row is None:
        return Outcome(ok=False, code="not_found", reason="there is no such game", seq=seq)
    side = row.side_of(user)
    if side is None:
        return Outcome(ok=False, code="spectator", reason="spectators cannot play steps",
                       version=row.version, seq=seq)
    msg = {"type": action, "step": step, "version": version, "seq": seq}
    sub = submission(msg, row.uuid, side)
    return execute(sub) if announce else store(sub)
