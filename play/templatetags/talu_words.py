"""Template filters that put a game in words a newcomer reads (issue 24). The words of a
result are the game's own (``play.games.registry.result_words``, asked by the game's key)."""

from __future__ import annotations

from datetime import UTC

from django import template
from django.utils.html import format_html

from play.games import registry

register = template.Library()


@register.filter
def result_words(game) -> str:
    """A site game's (``play.models.Game``) or an archived game's result in plain language:
    "Dark won: light resigned"."""
    status = getattr(game, "status", "")
    if status in ("live", "playing"):
        return "being played"
    # The registry keeps an aborted game (R37) as annulled: its words are the abort's.
    if status == "annulled" and getattr(game, "reason", "") != "aborted":
        return "annulled"
    # A decision's cause (R37) is the live game's: a registry game reads it from its ``live``.
    cause = getattr(game, "cause", None)
    if cause is None:
        live = getattr(game, "live", None)
        cause = getattr(live, "cause", "") if live is not None else ""
    return registry.result_words(_game_key(game), getattr(game, "winner", "") or None,
                                 getattr(game, "reason", ""), getattr(game, "detail", "") or "",
                                 cause, getattr(game, "ranks", None) or None)


def _game_key(game) -> str:
    """The catalogue's key of a site game (``Game.game``) or of an archived one (the registry
    keeps a variant's name): the game its variant belongs to, the site's game if unknown."""
    key = getattr(game, "game", None)
    if isinstance(key, str) and key in registry.GAMES:
        return key
    try:
        return registry.game_of(str(getattr(game, "variant", "") or registry.DEFAULT_VARIANT))
    except KeyError:
        return registry.DEFAULT_GAME


@register.filter
def resumes_at(game) -> str:
    """R38: when an adjourned live game resumes at the time its arbiter set, as words with a
    ``<time>`` a script or a screen reader can use ("resumes at 2026-11-28 14:00 UTC"); "" when
    no time is set or the game is over. Read from the game's row (``Game.resume_at``, kept by
    the append), so a list of games costs no replay: every list of a player's games shows it
    (My games, the lobby's "Your games", My pairings)."""
    at = getattr(game, "resume_at", None)
    if at is None or getattr(game, "status", "") != "live":
        return ""
    at = at.astimezone(UTC)
    return format_html('<span class="resumes-at" data-testid="resumes-at">resumes at '
                       '<time datetime="{}">{} UTC</time></span>', at.isoformat(),
                       f"{at:%Y-%m-%d %H:%M}")


@register.filter
def side_words(side: str) -> str:
    """A seat of the site's game in words: ``I`` -> light, ``O`` -> dark."""
    return registry.seat_words(str(side or ""))


@register.filter
def rating_delta(change) -> str:
    """A rating change as a signed number of rating points ("−19", "+12"): what the player
    gained or lost (issue 24: a loss of 19 read "39 points", the game's tally)."""
    delta = change.new_rating - change.old_rating
    return f"+{delta}" if delta > 0 else (f"−{-delta}" if delta < 0 else "0")
