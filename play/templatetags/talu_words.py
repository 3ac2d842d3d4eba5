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
    winner = getattr(game, "winner", "") or None
    return describe(None if winner == "-" else winner, getattr(game, "reason", ""),
                    getattr(game, "detail", "") or "")


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
