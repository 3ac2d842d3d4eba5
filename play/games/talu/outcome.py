"""Sides and the explicit outcome of a game (who won, and why)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Side(StrEnum):
    """I plays light and moves first (home row rank 1); O plays dark (R1)."""

    I = "I"  # noqa: E741
    O = "O"  # noqa: E741

    @property
    def other(self) -> Side:
        return Side.O if self is Side.I else Side.I

    @property
    def index(self) -> int:
        return 0 if self is Side.I else 1

    @classmethod
    def parse(cls, text: str) -> Side:
        """R15: readers accept the digit 0 for O."""
        t = text.strip().upper()
        if t == "0":
            t = "O"
        return cls(t)

    def __str__(self) -> str:
        return self.value


SIDES = (Side.I, Side.O)


class Termination(StrEnum):
    """Why a game ended (CLI contract: ``result.reason``)."""

    ELIMINATION = "elimination"  # R11 (1)
    INVASION = "invasion"  # R10, R11 (2) and (3)
    FORFEIT = "forfeit"  # R12: three own turns counting as passes
    NULL = "null"  # R12: three turns of the game in a row counting as passes
    DECISION = "decision"  # off the board: resignation, time, arbiter (R15)

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Outcome:
    winner: Side | None
    reason: Termination
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "finished": True,
            "winner": self.winner.value if self.winner else None,
            "reason": self.reason.value,
            "detail": self.detail,
            "text": describe(self.winner, self.reason, self.detail),
        }

    @property
    def result_text(self) -> str:
        """The STGN result symbol: I, O or '-' for no winner (R15)."""
        return self.winner.value if self.winner else "-"


SIDE_NAMES = {"I": "light", "O": "dark"}


def side_name(side: Side | str | None) -> str:
    """``light`` or ``dark``: what a person calls a side ("I" is a pronoun too; the letters
    stay in notation only, issue 24)."""
    return SIDE_NAMES.get(str(side or "").strip().upper().replace("0", "O"), "nobody")


def _words(detail: str) -> str:
    """A stored detail ("O resigned", "I ran out of time") with its side letter in words."""
    head, _, rest = detail.partition(" ")
    if head in SIDE_NAMES and rest:
        return f"{SIDE_NAMES[head]} {rest}"
    return detail


def describe(winner: Side | str | None, reason: Termination | str, detail: str = "") -> str:
    """A result in plain language: "Dark won: light resigned" (R10-R12, R15).

    The one wording of a result, for the board (the snapshot's ``outcome.text``), the lobby,
    the profile and the list of a player's games."""
    w = side_name(winner) if winner and str(winner) != "-" else ""
    loser = side_name("O" if str(winner) == "I" else "I") if w else ""
    reason = str(reason)
    detail = (detail or "").strip()
    if reason == "aborted":  # R37: no result at all, not a null game
        return "Game aborted" + (f": {_words(detail)}" if detail else "") + \
            " (no result, no rating change)"
    if not w:
        if detail == "arbiter":
            return "Null game: the arbiter declared it null"
        if reason == "null":
            return "Null game: three turns in a row counted as passes"
        if detail == "null by agreement":  # an offer accepted (issue 39): said plainly
            return "Null game: both players agreed to it (no winner, not rated)"
        return "Null game" + (f": {_words(detail)}" if detail else "")
    if reason == "elimination":
        return f"{w.capitalize()} won: every {loser} piece was captured"
    if reason == "invasion":
        return (f"{w.capitalize()} won by invasion: {loser} did not capture the invader on its "
                "home row (honor rule)" if detail == "honor" else
                f"{w.capitalize()} won by invasion: {loser} cannot capture the invader on its "
                "home row")
    if reason == "forfeit":
        return (f"{w.capitalize()} won: {loser} forfeited by the arbiter's decision"
                if detail == "arbiter" else
                f"{w.capitalize()} won: {loser} forfeited, three of its turns in a row counted "
                "as passes")
    why = _words(detail) if detail and detail != "decision" else "decided off the board"
    return f"{w.capitalize()} won: {why}"


#: How a decision came about (R37), said of the loser.
CAUSE_WORDS = {"time": "ran out of time", "resignation": "resigned",
               "abandonment": "left the game",
               # R41: an event game's opening turn not completed in time
               "unplayed": "did not complete the opening turn in time (unplayed, not rated)"}


def describe_result(winner: str | None, reason: str, detail: str = "", cause: str = "") -> str:
    """A stored game's result in plain language, as the lobby, the profile and a player's list
    of games show it: :func:`describe`, but a game aborted before its first turn was played
    has no result (R37), and a decision says how it came about (R37: ``cause``). ``winner`` is
    as stored: I, O, "-" or empty for none."""
    if reason == "aborted":  # R37: a first turn not played in time
        return "aborted: no result"
    if winner in ("I", "O") and cause in CAUSE_WORDS:
        loser = side_name("O" if winner == "I" else "I")
        return f"{side_name(winner).capitalize()} won: {loser} {CAUSE_WORDS[cause]}"
    return describe(None if winner == "-" else winner or None, reason, detail)
