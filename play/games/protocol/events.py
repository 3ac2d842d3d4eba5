"""The events a decided command causes (``play.games.protocol``), each with a visibility
(everyone, one seat, the arbiters: a sealed turn, R38, or an arbiter's note reaches only whom
it may), and what one seat may be shown of a state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from play.games.protocol.actors import PLAYER

EVERYONE, ARBITERS = "all", "arbiters"
#: Who may be told of an event: everyone, the arbiters, or one seat (its id, any other value).
VISIBILITIES = (EVERYONE, ARBITERS)


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened to a game, as stored in its numbered log (R40).

    ``kind`` is the game's or the match's word for it (talu: ``step``, ``warn``; the match's
    ``decide``, ``note``, ...); ``side`` the seat that acted ("" when no seat did); ``data``
    what the game needs to evolve its state; ``text`` a short human form ("A2-A3",
    "resigns"); ``actor`` the kind of actor whose command caused it; ``visibility`` who may
    be told of it: everyone, one seat only (a sealed turn, R38: the seat's id) or the
    arbiters (an arbiter's note). Numbering is the store's.
    """

    kind: str
    side: str
    data: dict[str, Any]
    text: str
    actor: str = PLAYER
    visibility: str = EVERYONE

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "side": self.side, "data": self.data, "text": self.text,
                "actor": self.actor, "visibility": self.visibility}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        return cls(data["kind"], data.get("side") or "", data.get("data") or {},
                   data.get("text") or "", data.get("actor") or PLAYER,
                   data.get("visibility") or EVERYONE)

    def visible_to(self, side: str | None, arbiter: bool = False) -> bool:
        """Whether a viewer holding seat ``side`` (None: a spectator) may be told of this
        event. Arbiters see every seat's events."""
        v = self.visibility
        return v == EVERYONE or arbiter or (side is not None and v == side)


def viewer_state(state: dict[str, Any] | None, side: str | None) -> dict[str, Any] | None:
    """A game's snapshot as a viewer holding seat ``side`` (None: a spectator) may see it. A
    snapshot may carry ``sealed``: ``{"side", "state"}``, the position only that seat may see
    (its sealed turn, R38), beside everyone else's; that seat gets its own (with the clocks
    and session keys of the shared one), everyone else the shared one without it."""
    if not state or "sealed" not in state:
        return state
    sealed = state["sealed"]
    if side is not None and side == sealed["side"]:
        own = dict(sealed["state"])
        for key in ("clock", "adjournment", "offer"):
            if key in state:
                own[key] = state[key]
        return own
    return {k: v for k, v in state.items() if k != "sealed"}
