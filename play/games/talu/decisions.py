"""An arbiter's decisions as a game's record holds them (R34 items; R14, R39): the record
type, the turn labels they name, and reading one back from a record's item.

A decision is data of the record: play writes it, and every replay reads it back
(``TaluGame.schedule``, ``read_stgn``'s ``arbiter``, an adjournment's session). Its format
lives here, apart from the engine (``game.py``) that applies it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import StepFormatError, TaluError
from .outcome import Side

#: The actions an arbiter's decision may record (R34, R39).
ARBITER_ACTIONS = ("warn", "count_as_pass", "forfeit", "null", "adjourn", "resume", "add_time")


@dataclass(frozen=True)
class ArbiterDecision:
    """An arbiter's decision (R14, R34, R39), taking effect at the end of turn ``turn``.

    For ``count_as_pass`` ``turn`` names the turn that counts as a pass (R39: "a turn of a
    side, already played"); when the arbiter decided it later than at the end of that turn,
    ``at`` names the last turn played when the decision was taken (the moment it took effect,
    so that a replay re-checks the passing conventions exactly when play did). ``at`` is an
    optional field of the record's item beside R34's (covered by the hash like them).

    For ``add_time`` (R39) ``seconds`` is the time added to ``side``'s clock, another field
    of the item beside R34's; it changes nothing on the board, so a replay of the turns only
    keeps it (the clocks are the server's, R36)."""

    turn: str  # "014 O"
    action: str
    side: Side | None = None
    reason: str = ""
    at: str = ""
    seconds: int = 0

    @property
    def moment(self) -> str:
        """The turn at whose end this decision takes effect."""
        return self.at or self.turn

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"turn": self.turn, "action": self.action}
        if self.side is not None:
            d["side"] = self.side.value
        if self.reason:
            d["reason"] = self.reason
        if self.at and self.at != self.turn:
            d["at"] = self.at
        if self.seconds:
            d["seconds"] = self.seconds
        return d


def turn_label(turn: Any) -> str:
    """A turn reference ("14 o", "014 O") in its canonical form ("014 O"), or a TaluError."""
    text = str(turn or "").strip()
    parts = text.split()
    if len(parts) != 2 or not parts[0].isdigit() or parts[1].upper() not in ("I", "O", "0"):
        raise StepFormatError(f"turn {text!r} is not like '014 O'")
    return f"{int(parts[0]):03d} {Side.parse(parts[1]).value}"


def decision_from_dict(raw: dict[str, Any]) -> ArbiterDecision:
    """A decision read from a record's item (R34); a TaluError says what is wrong with it."""
    if not isinstance(raw, dict):
        raise TaluError("an arbiter decision must be a mapping")
    action = raw.get("action")
    if action not in ARBITER_ACTIONS:
        raise TaluError(f"unknown arbiter action {action!r}")
    try:
        label = turn_label(raw.get("turn", ""))
        at = turn_label(raw["at"]) if raw.get("at") else ""
    except StepFormatError as err:
        raise TaluError(f"arbiter decision {err}") from None
    side = raw.get("side")
    seconds = raw.get("seconds", 0)
    if action == "add_time" and (isinstance(seconds, bool) or not isinstance(seconds, int)
                                 or seconds <= 0 or not side):
        raise TaluError("arbiter decision add_time names a side and the seconds added "
                        f"(a whole number above 0), not side {side!r}, seconds {seconds!r}")
    return ArbiterDecision(label, action, Side.parse(side) if side else None,
                           str(raw.get("reason") or ""), at if at != label else "",
                           seconds if action == "add_time" else 0)
