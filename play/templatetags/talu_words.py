"""Template filters that put a game in words a newcomer reads (issue 24)."""

from __future__ import annotations

from django import template

from play.games.talu.outcome import describe, side_name

register = template.Library()


@register.filter
def result_words(game) -> str:
    """A site game's (``play.models.Game``) or an archived game's result in plain language:
    "Dark won: light resigned"."""
    status = getattr(game, "status", "")
    if status in ("live", "playing"):
        return "being played"
    if status == "annulled":
        return "annulled"
    reason = getattr(game, "reason", "")
    if reason == "aborted":  # R37: a first turn not played in time
        return "aborted: no result"
    winner = getattr(game, "winner", "") or None
    # A decision's cause (R37) is the live game's: a registry game reads it from its ``live``.
    cause = getattr(game, "cause", None)
    if cause is None:
        live = getattr(game, "live", None)
        cause = getattr(live, "cause", "") if live is not None else ""
    if winner in ("I", "O") and cause in CAUSE_WORDS:
        loser = side_name(other(winner))
        return f"{side_name(winner).capitalize()} won: {loser} {CAUSE_WORDS[cause]}"
    return describe(None if winner == "-" else winner, reason, getattr(game, "detail", "") or "")


#: How a decision came about (R37), said of the loser.
CAUSE_WORDS = {"time": "ran out of time", "resignation": "resigned",
               "abandonment": "left the game",
               # R41: an event game's opening turn not completed in time
               "unplayed": "did not complete the opening turn in time (unplayed, not rated)"}


def other(side: str) -> str:
    return "O" if side == "I" else "I"


@register.filter
def side_words(side: str) -> str:
    """``I`` -> light, ``O`` -> dark."""
    return side_name(side)


@register.filter
def rating_delta(change) -> str:
    """A rating change as a signed number of rating points ("−19", "+12"): what the player
    gained or lost (issue 24: a loss of 19 read "39 points", the game's tally)."""
    delta = change.new_rating - change.old_rating
    return f"+{delta}" if delta > 0 else (f"−{-delta}" if delta < 0 else "0")
