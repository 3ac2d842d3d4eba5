"""A command on its way to a game (``Submission``) and what became of it (``Outcome``): the
envelope and the answer of the one command path (``play.commands.path``), shared by every
sender (the socket, the views, the worker, the arbiter's and the player's messages) and both
of the path's roads; and the check of a sender's ``seq``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from play import gameview
from play.games import text
from play.games.protocol import Actor, Command, PlayStep

MAX_SEQ_LENGTH = 64


@dataclass(frozen=True, slots=True)
class Submission:
    """One command for game ``game`` (its uuid) from ``actor``. ``version``: the version the
    sender decided on (required for a player's steps: R40's check that a step meant for an
    older position is not applied); ``seq``: the sender's id of the message (a resend with the
    same ``seq`` is answered again, never applied twice)."""

    game: Any
    actor: Actor
    command: Command
    version: Any = None
    seq: Any = None

    @property
    def names_version(self) -> bool:
        """Whether the command only makes sense at the version it names: a step of a side at
        the board. A resignation, an arbiter's or the clock's action act on the game as it is."""
        return self.actor.plays and isinstance(self.command, PlayStep)


@dataclass
class Outcome:
    """What became of one command (the protocol's ``ack`` / ``rejected`` and ``update``)."""

    ok: bool
    code: str  # applied | duplicate | stale | illegal | not_your_turn | finished | bad_step |
    #            forbidden | not_found | busy
    reason: str = ""
    version: int = 0
    seq: str | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    from_version: int = 0
    state: dict[str, Any] | None = None
    game: dict[str, Any] | None = None
    finished: bool = False  # this command ended the game
    deadline: int | None = None  # when the running clock runs out now (ms since the epoch)

    def reply(self) -> dict[str, Any]:
        """The message for the sender: an ack or a rejection."""
        if self.ok:
            msg = {"type": "ack", "seq": self.seq, "version": self.version}
            if self.code == "duplicate":
                msg["duplicate"] = True
            return msg
        return {"type": "rejected", "seq": self.seq, "code": self.code, "reason": self.reason,
                "version": self.version}

    def update(self) -> dict[str, Any] | None:
        """The broadcast for everyone on the game, when something was applied."""
        if not self.events:
            return None
        return {"type": "update", "from_version": self.from_version, "version": self.version,
                "events": self.events, "state": self.state, "game": self.game,
                "server_time": gameview.server_time()}


def reject(code: str, reason: str, version: int, seq: str | None) -> Outcome:
    return Outcome(ok=False, code=code, reason=reason, version=version, seq=seq)


def plain_seq(seq: Any) -> bool:
    """A ``seq`` the log can keep: a string or number of at most 64 characters, one printable
    line (``play.games.text``, the one check of external strings: no NUL, which PostgreSQL's
    text refuses, no lone surrogate, which UTF-8 cannot hold, no bidi control)."""
    if seq is None:
        return True
    if isinstance(seq, bool) or not isinstance(seq, (str, int)):
        return False
    return text.problem(str(seq), max_length=MAX_SEQ_LENGTH) is None


def seq_error(seq: Any) -> Outcome:
    return reject("bad_step", f"seq must be a string or number of at most {MAX_SEQ_LENGTH} "
                   "printable characters", 0, None)
